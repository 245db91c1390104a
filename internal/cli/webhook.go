package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

var webhookCommands = map[string]command{
	"create":     {"URL", "subscribe URL to events (--event, repeatable) and print the signing secret, shown only now", (*app).webhookCreate},
	"list":       {"", "list webhook subscriptions", (*app).webhookList},
	"get":        {"ID", "show a webhook subscription", (*app).webhookGet},
	"update":     {"ID", "change a subscription's URL, events, Spec filter, or enable/disable it", (*app).webhookUpdate},
	"delete":     {"ID", "delete a subscription with its deliveries and log", (*app).webhookDelete},
	"rotate":     {"ID", "give a subscription a new secret; the old one signs too until --previous-ttl has passed", (*app).webhookRotate},
	"deliveries": {"ID", "list a subscription's deliveries (--dead for dead letters) or its delivery log (--log)", (*app).webhookDeliveries},
	"redeliver":  {"ID", "deliver dead-lettered events again: one (--delivery) or all", (*app).webhookRedeliver},
}

// eventList is the repeatable --event flag.
type eventList []string

func (l *eventList) String() string { return strings.Join(*l, ",") }

func (l *eventList) Set(v string) error {
	for _, e := range strings.Split(v, ",") {
		if e = strings.TrimSpace(e); e != "" {
			*l = append(*l, e)
		}
	}
	return nil
}

func (a *app) hooks() runsvcv1.WebhookServiceClient { return runsvcv1.NewWebhookServiceClient(a.conn) }

func (a *app) webhookCreate(ctx context.Context, args []string) error {
	fs := a.flags()
	var events eventList
	fs.Var(&events, "event", "an event `TYPE` (run.settled, run.succeeded, run.failed, run.aborted, run.suspended, schedule.tick_skipped), repeatable or comma-separated")
	spec := fs.String("spec", "", "only events of Runs of this `SPEC`")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if len(events) == 0 {
		return usagef("name at least one --event")
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.hooks().CreateWebhook, &runsvcv1.CreateWebhookRequest{Subscription: &runsvcv1.WebhookSubscription{Url: pos[0], EventTypes: events, SpecFilter: *spec}})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	a.printWebhook(resp.GetSubscription())
	fmt.Fprintf(a.stdout, "  secret    %s\n(the secret is shown only now: verify deliveries with it)\n", resp.GetSecret())
	return nil
}

func (a *app) printWebhook(s *runsvcv1.WebhookSubscription) {
	state := "enabled"
	if !s.GetEnabled() {
		state = "disabled: " + s.GetDisabledReason()
	}
	fmt.Fprintf(a.stdout, "%s  %s\n", s.GetId(), s.GetUrl())
	fmt.Fprintf(a.stdout, "  events    %s\n  spec      %s\n  state     %s\n  created   %s\n", strings.Join(s.GetEventTypes(), ", "), orNone(s.GetSpecFilter()), state, when(s.GetCreateTime()))
	if s.GetPreviousSecretExpireTime() != nil {
		fmt.Fprintf(a.stdout, "  previous secret signs until %s\n", when(s.GetPreviousSecretExpireTime()))
	}
}

func (a *app) webhookList(ctx context.Context, args []string) error {
	if _, err := a.parse(a.flags(), args, 0, 0); err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.hooks().ListWebhooks, &runsvcv1.ListWebhooksRequest{})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	if len(resp.GetSubscriptions()) == 0 {
		fmt.Fprintln(a.stdout, "no webhook subscriptions")
		return nil
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tURL\tEVENTS\tSPEC\tENABLED")
	for _, s := range resp.GetSubscriptions() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%v\n", s.GetId(), s.GetUrl(), strings.Join(s.GetEventTypes(), ","), orNone(s.GetSpecFilter()), s.GetEnabled())
	}
	return tw.Flush()
}

func (a *app) webhookGet(ctx context.Context, args []string) error {
	id, err := a.connectForID(args)
	if err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.hooks().GetWebhook, &runsvcv1.GetWebhookRequest{Id: id})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	a.printWebhook(resp.GetSubscription())
	return nil
}

func (a *app) webhookUpdate(ctx context.Context, args []string) error {
	fs := a.flags()
	var events eventList
	fs.Var(&events, "event", "the event `TYPE`s it receives instead, repeatable or comma-separated")
	url := fs.String("url", "", "a new `URL`")
	spec := fs.String("spec", "", "only events of Runs of this `SPEC` (\"-\" for every Spec)")
	enable := fs.Bool("enable", false, "enable it (clears why it was disabled)")
	disable := fs.Bool("disable", false, "disable it")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	filter := *spec
	if filter == "-" {
		filter = ""
	}
	sub := &runsvcv1.WebhookSubscription{Id: pos[0], Url: *url, EventTypes: events, SpecFilter: filter, Enabled: *enable}
	var mask []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "url":
			mask = append(mask, "url")
		case "event":
			mask = append(mask, "event_types")
		case "spec":
			mask = append(mask, "spec_filter")
		case "enable", "disable":
			mask = append(mask, "enabled")
		}
	})
	if *enable && *disable {
		return usagef("--enable and --disable together")
	}
	if len(mask) == 0 {
		return usagef("nothing to change: give --url, --event, --spec, --enable or --disable")
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.hooks().UpdateWebhook, &runsvcv1.UpdateWebhookRequest{Subscription: sub, UpdateMask: &fieldmaskpb.FieldMask{Paths: mask}})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	a.printWebhook(resp.GetSubscription())
	return nil
}

func (a *app) webhookDelete(ctx context.Context, args []string) error {
	id, err := a.connectForID(args)
	if err != nil {
		return err
	}
	if _, err := unary(ctx, a, 0, a.hooks().DeleteWebhook, &runsvcv1.DeleteWebhookRequest{Id: id}); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "deleted %s\n", id)
	return nil
}

func (a *app) webhookRotate(ctx context.Context, args []string) error {
	fs := a.flags()
	ttl := fs.Duration("previous-ttl", 24*time.Hour, "how long (a `DURATION`) the current secret still signs beside the new one; 0 drops it now")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.hooks().RotateWebhookSecret, &runsvcv1.RotateWebhookSecretRequest{Id: pos[0], PreviousSecretTtl: durationpb.New(*ttl)})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	a.printWebhook(resp.GetSubscription())
	fmt.Fprintf(a.stdout, "  secret    %s\n(the new secret is shown only now)\n", resp.GetSecret())
	return nil
}

func (a *app) webhookDeliveries(ctx context.Context, args []string) error {
	fs := a.flags()
	dead := fs.Bool("dead", false, "only dead-lettered deliveries")
	log := fs.Bool("log", false, "the delivery log instead: every attempt with its status and latency")
	limit := fs.Int("limit", 100, "at most `N`")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	if *log {
		return a.webhookLog(ctx, pos[0], *limit)
	}
	resp, err := unary(ctx, a, 0, a.hooks().ListWebhookDeliveries, &runsvcv1.ListWebhookDeliveriesRequest{Id: pos[0], DeadOnly: *dead, PageSize: int32(*limit)})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WEBHOOK ID\tTYPE\tRUN\tSTATE\tATTEMPTS\tLAST STATUS\tLAST ERROR\tCREATED")
	for _, d := range resp.GetDeliveries() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\n", d.GetId(), d.GetType(), orNone(d.GetRunId()), d.GetState(), d.GetAttempts(), d.GetLastStatus(),
			clip(orNone(d.GetLastError()), 40), when(d.GetCreateTime()))
	}
	return tw.Flush()
}

func (a *app) webhookLog(ctx context.Context, id string, limit int) error {
	resp, err := unary(ctx, a, 0, a.hooks().ListWebhookAttempts, &runsvcv1.ListWebhookAttemptsRequest{Id: id, PageSize: int32(limit)})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tWEBHOOK ID\tTYPE\tATTEMPT\tSTATUS\tLATENCY\tERROR")
	for _, at := range resp.GetAttempts() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%v\t%s\n", when(at.GetTime()), at.GetDeliveryId(), at.GetType(), at.GetAttempt(), at.GetHttpStatus(),
			at.GetLatency().AsDuration().Round(time.Millisecond), clip(orNone(at.GetError()), 40))
	}
	return tw.Flush()
}

func (a *app) webhookRedeliver(ctx context.Context, args []string) error {
	fs := a.flags()
	delivery := fs.String("delivery", "", "only this dead delivery (its `WEBHOOK_ID`); default every dead one")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.hooks().RedeliverWebhook, &runsvcv1.RedeliverWebhookRequest{Id: pos[0], DeliveryId: *delivery})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	fmt.Fprintf(a.stdout, "%s pending again\n", plural(int(resp.GetRedelivered()), "delivery", "deliveries"))
	return nil
}
