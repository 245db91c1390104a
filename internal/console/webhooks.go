package console

import (
	"net/http"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// webhooksView is the tenant's webhook subscriptions.
type webhooksView struct {
	Subscriptions []*runsvcv1.WebhookSubscription
}

// webhooksPage lists the webhook subscriptions.
func (c *Console) webhooksPage(w http.ResponseWriter, r *http.Request, s *session) {
	ctx, cancel := callCtx(r, s)
	defer cancel()
	resp, err := c.hooks.ListWebhooks(ctx, &runsvcv1.ListWebhooksRequest{})
	if err != nil {
		c.rpcError(w, r, s, err)
		return
	}
	c.render(w, r, s, http.StatusOK, "webhooks.html", "Webhooks", webhooksView{Subscriptions: resp.GetSubscriptions()})
}

// webhookView is one subscription with its newest deliveries and the
// newest lines of its delivery log.
type webhookView struct {
	Sub        *runsvcv1.WebhookSubscription
	Deliveries []*runsvcv1.WebhookDelivery
	Attempts   []*runsvcv1.WebhookAttempt
}

// webhookPage shows a subscription, its deliveries and its delivery log.
func (c *Console) webhookPage(w http.ResponseWriter, r *http.Request, s *session) {
	ctx, cancel := callCtx(r, s)
	defer cancel()
	id := r.PathValue("id")
	got, err := c.hooks.GetWebhook(ctx, &runsvcv1.GetWebhookRequest{Id: id})
	if err != nil {
		c.rpcError(w, r, s, err)
		return
	}
	ds, err := c.hooks.ListWebhookDeliveries(ctx, &runsvcv1.ListWebhookDeliveriesRequest{Id: id, PageSize: listPageSize})
	if err != nil {
		c.rpcError(w, r, s, err)
		return
	}
	as, err := c.hooks.ListWebhookAttempts(ctx, &runsvcv1.ListWebhookAttemptsRequest{Id: id, PageSize: listPageSize})
	if err != nil {
		c.rpcError(w, r, s, err)
		return
	}
	v := webhookView{Sub: got.GetSubscription(), Deliveries: ds.GetDeliveries(), Attempts: as.GetAttempts()}
	c.render(w, r, s, http.StatusOK, "webhook.html", "Webhook "+id, v)
}
