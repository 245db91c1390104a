package cli

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

var busCommands = map[string]command{
	"send":    {"CHANNEL TEXT", "send a message to a channel as a robot (a Spec with the bus enabled)", (*app).busSend},
	"receive": {"CHANNEL", "print a channel's messages, oldest unacknowledged first, and acknowledge them", (*app).busReceive},
}

func (a *app) busSend(ctx context.Context, args []string) error {
	fs := a.flags()
	sender := fs.String("sender", "", "the sending robot: a `SPEC` name whose Spec enables the bus (required)")
	replyTo := fs.String("in-reply-to", "", "the `MESSAGE_ID` this answers")
	text := fs.Bool("text", false, "send TEXT as text even when it is valid JSON")
	pos, err := a.parse(fs, args, 2, 2)
	if err != nil {
		return err
	}
	if *sender == "" {
		return usagef("bus send needs --sender SPEC")
	}
	if err := a.connect(); err != nil {
		return err
	}
	bus := runsvcv1.NewBusServiceClient(a.conn)
	resp, err := unary(ctx, a, 0, bus.SendMessage, &runsvcv1.BusServiceSendMessageRequest{
		Sender: *sender, Channel: pos[0], Content: jsonOrText(pos[1], *text), InReplyTo: *replyTo,
	})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	fmt.Fprintln(a.stdout, resp.GetMessage().GetMessageId())
	return nil
}

func (a *app) busReceive(ctx context.Context, args []string) error {
	fs := a.flags()
	count := fs.Int("count", 0, "stop after `N` messages; 0 means go on until interrupted")
	ack := fs.Bool("ack", true, "acknowledge each message once printed; --ack=false leaves it to come again after the ack timeout")
	ackTimeout := fs.Duration("ack-timeout", 0, "how long a delivered message waits for its acknowledgement, a `DURATION`; the server's default when 0")
	replyTo := fs.String("in-reply-to", "", "only replies to this `MESSAGE_ID`")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if *count < 0 || *ackTimeout < 0 {
		return usagef("--count and --ack-timeout must not be negative")
	}
	req := &runsvcv1.ReceiveRequest{Channel: pos[0], InReplyTo: *replyTo}
	if *ackTimeout > 0 {
		req.AckTimeout = durationpb.New(*ackTimeout)
	}
	if err := a.connect(); err != nil {
		return err
	}
	bus := runsvcv1.NewBusServiceClient(a.conn)
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := bus.Receive(sctx, req)
	if err != nil {
		return err
	}
	for n := 0; *count == 0 || n < *count; n++ {
		resp, err := stream.Recv()
		if err != nil {
			return streamEnded(ctx, "bus receive", err)
		}
		m := resp.GetMessage()
		if a.json {
			err = a.printJSON(resp)
		} else {
			err = a.printBusMessage(m)
		}
		if err != nil {
			return err
		}
		if *ack {
			if _, err := unary(ctx, a, 0, bus.AcknowledgeMessages, &runsvcv1.AcknowledgeMessagesRequest{Channel: pos[0], MessageIds: []string{m.GetMessageId()}}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (a *app) printBusMessage(m *runsvcv1.BusMessage) error {
	line := fmt.Sprintf("%s %s from %s", clockTime(m.GetSendTime()), m.GetMessageId(), m.GetSender())
	if m.GetInReplyTo() != "" {
		line += " in reply to " + m.GetInReplyTo()
	}
	if n := m.GetDeliveryCount(); n > 1 {
		line += fmt.Sprintf(" (delivery %d)", n)
	}
	content := compactJSON(m.GetContent())
	if _, ok := m.GetContent().GetKind().(*structpb.Value_StringValue); ok {
		content = m.GetContent().GetStringValue()
	}
	_, err := fmt.Fprintf(a.stdout, "%s: %s\n", line, indent(content, "  "))
	return err
}
