package service

import (
	"context"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/webhook"
)

type webhookServer struct {
	runsvcv1.UnimplementedWebhookServiceServer
	*Service
}

// defaultWebhookPage is how many deliveries or attempts a list returns
// when the request says nothing.
const defaultWebhookPage = 100

func pageOf(n int32) int {
	if n <= 0 {
		return defaultWebhookPage
	}
	return int(min(n, 1000))
}

func settingsOf(s *runsvcv1.WebhookSubscription) webhook.Settings {
	return webhook.Settings{URL: s.GetUrl(), EventTypes: s.GetEventTypes(), SpecFilter: s.GetSpecFilter(), Enabled: s.GetEnabled()}
}

func subscriptionToProto(s webhook.Subscription) *runsvcv1.WebhookSubscription {
	return &runsvcv1.WebhookSubscription{
		Id: s.ID, Url: s.URL, EventTypes: s.EventTypes, SpecFilter: s.SpecFilter, Enabled: s.Enabled, DisabledReason: s.DisabledReason,
		CreateTime: ts(s.CreateTime), UpdateTime: ts(s.UpdateTime), PreviousSecretExpireTime: ts(s.PreviousSecretExpires),
	}
}

func (s webhookServer) CreateWebhook(ctx context.Context, req *runsvcv1.CreateWebhookRequest) (*runsvcv1.CreateWebhookResponse, error) {
	set := settingsOf(req.GetSubscription())
	// A new subscription is enabled unless the request says otherwise,
	// which a proto3 bool cannot: create it enabled, disable by update.
	set.Enabled = true
	sub, secret, err := s.webhooks.Create(ctx, tenantOf(ctx), set)
	if err != nil {
		return nil, err
	}
	return &runsvcv1.CreateWebhookResponse{Subscription: subscriptionToProto(sub), Secret: secret}, nil
}

func (s webhookServer) GetWebhook(ctx context.Context, req *runsvcv1.GetWebhookRequest) (*runsvcv1.GetWebhookResponse, error) {
	sub, err := s.webhooks.Get(ctx, tenantOf(ctx), req.GetId())
	if err != nil {
		return nil, err
	}
	return &runsvcv1.GetWebhookResponse{Subscription: subscriptionToProto(sub)}, nil
}

func (s webhookServer) ListWebhooks(ctx context.Context, _ *runsvcv1.ListWebhooksRequest) (*runsvcv1.ListWebhooksResponse, error) {
	subs, err := s.webhooks.List(ctx, tenantOf(ctx))
	if err != nil {
		return nil, err
	}
	out := &runsvcv1.ListWebhooksResponse{}
	for _, sub := range subs {
		out.Subscriptions = append(out.Subscriptions, subscriptionToProto(sub))
	}
	return out, nil
}

func (s webhookServer) UpdateWebhook(ctx context.Context, req *runsvcv1.UpdateWebhookRequest) (*runsvcv1.UpdateWebhookResponse, error) {
	sub, err := s.webhooks.Update(ctx, tenantOf(ctx), req.GetSubscription().GetId(), settingsOf(req.GetSubscription()), req.GetUpdateMask().GetPaths())
	if err != nil {
		return nil, err
	}
	return &runsvcv1.UpdateWebhookResponse{Subscription: subscriptionToProto(sub)}, nil
}

func (s webhookServer) DeleteWebhook(ctx context.Context, req *runsvcv1.DeleteWebhookRequest) (*runsvcv1.DeleteWebhookResponse, error) {
	if err := s.webhooks.Delete(ctx, tenantOf(ctx), req.GetId()); err != nil {
		return nil, err
	}
	return &runsvcv1.DeleteWebhookResponse{}, nil
}

func (s webhookServer) RotateWebhookSecret(ctx context.Context, req *runsvcv1.RotateWebhookSecretRequest) (*runsvcv1.RotateWebhookSecretResponse, error) {
	ttl := webhook.DefaultPreviousSecretTTL
	if req.PreviousSecretTtl != nil {
		var bad []errs.FieldViolation
		ttl = durationField("previous_secret_ttl", req.GetPreviousSecretTtl(), &bad)
		if len(bad) > 0 {
			return nil, &errs.InvalidRequest{Violations: bad}
		}
	}
	sub, secret, err := s.webhooks.Rotate(ctx, tenantOf(ctx), req.GetId(), ttl)
	if err != nil {
		return nil, err
	}
	return &runsvcv1.RotateWebhookSecretResponse{Subscription: subscriptionToProto(sub), Secret: secret}, nil
}

func (s webhookServer) ListWebhookDeliveries(ctx context.Context, req *runsvcv1.ListWebhookDeliveriesRequest) (*runsvcv1.ListWebhookDeliveriesResponse, error) {
	ds, err := s.webhooks.Deliveries(ctx, tenantOf(ctx), req.GetId(), req.GetDeadOnly(), pageOf(req.GetPageSize()))
	if err != nil {
		return nil, err
	}
	out := &runsvcv1.ListWebhookDeliveriesResponse{}
	for _, d := range ds {
		out.Deliveries = append(out.Deliveries, deliveryToProto(d))
	}
	return out, nil
}

func deliveryToProto(d store.WebhookDelivery) *runsvcv1.WebhookDelivery {
	p := &runsvcv1.WebhookDelivery{
		Id: d.ID, Type: d.Type, RunId: d.RunID, State: d.State, Attempts: int32(d.Attempts), LastStatus: int32(d.LastStatus),
		LastError: d.LastError, CreateTime: ts(d.CreateTime),
	}
	if d.State == store.DeliveryPending {
		p.NextAttemptTime = ts(d.NextTime)
	}
	return p
}

func (s webhookServer) ListWebhookAttempts(ctx context.Context, req *runsvcv1.ListWebhookAttemptsRequest) (*runsvcv1.ListWebhookAttemptsResponse, error) {
	as, err := s.webhooks.Attempts(ctx, tenantOf(ctx), req.GetId(), pageOf(req.GetPageSize()))
	if err != nil {
		return nil, err
	}
	out := &runsvcv1.ListWebhookAttemptsResponse{}
	for _, a := range as {
		out.Attempts = append(out.Attempts, &runsvcv1.WebhookAttempt{
			DeliveryId: a.DeliveryID, Type: a.Type, Attempt: int32(a.Attempt), HttpStatus: int32(a.Status), Latency: dur(a.Latency), Error: a.Error, Time: ts(a.Time),
		})
	}
	return out, nil
}

func (s webhookServer) RedeliverWebhook(ctx context.Context, req *runsvcv1.RedeliverWebhookRequest) (*runsvcv1.RedeliverWebhookResponse, error) {
	n, err := s.webhooks.Redeliver(ctx, tenantOf(ctx), req.GetId(), req.GetDeliveryId())
	if err != nil {
		return nil, err
	}
	return &runsvcv1.RedeliverWebhookResponse{Redelivered: int32(n)}, nil
}
