package webhook

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/runsvc/runsvc/internal/netpolicy"
	"github.com/runsvc/runsvc/internal/retryafter"
	"github.com/runsvc/runsvc/internal/store"
)

// sender makes the requests.
type sender struct {
	client  *http.Client
	timeout time.Duration
}

// newSender sends through network's checked dialer (metadata addresses
// refused after DNS, on every connection) and follows no redirect: a 3xx
// is a failed attempt, as the spec recommends (update the URL instead).
func newSender(network *netpolicy.Policy, timeout time.Duration) *sender {
	return &sender{timeout: timeout, client: &http.Client{
		Transport:     network.Transport(),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// result is one attempt's outcome.
type result struct {
	status     int
	err        string
	latency    time.Duration
	retryAfter time.Duration
}

// maxResponse bounds how much of a receiver's answer is read.
const maxResponse = 64 << 10

// send POSTs dl's body to target, signed at now with the active secrets.
func (s *sender) send(ctx context.Context, target string, dl store.WebhookDelivery, secrets Secrets, now time.Time) result {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(dl.Body))
	if err != nil {
		return result{err: "the URL cannot be requested"}
	}
	req.Header.Set("Content-Type", "application/json")
	if err := headers(req.Header, dl, secrets, now); err != nil {
		return result{err: err.Error()}
	}
	start := time.Now()
	resp, err := s.client.Do(req)
	if err != nil {
		return result{err: describe(err), latency: time.Since(start)}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxResponse))
	_ = resp.Body.Close()
	r := result{status: resp.StatusCode, latency: time.Since(start)}
	if r.status < 200 || r.status >= 300 {
		r.err = resp.Status
	}
	if r.status == http.StatusTooManyRequests || r.status == http.StatusServiceUnavailable {
		r.retryAfter = retryafter.Parse(resp.Header, now)
	}
	return r
}

// describe is a failed request's error without its URL, which may hold a
// token in its query.
func describe(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "the receiver did not answer within the request timeout"
	}
	return err.Error()
}

// headers identify and authenticate a delivery: Standard Webhooks' id,
// timestamp and signature, or an A2A push's token and credentials.
func headers(h http.Header, dl store.WebhookDelivery, secrets Secrets, now time.Time) error {
	if secrets.Push != nil {
		pushHeaders(h, secrets.Push)
		return nil
	}
	sig, err := secrets.SignatureHeader(dl.ID, now, dl.Body)
	if err != nil {
		return err
	}
	h.Set("User-Agent", "runsvc-webhooks")
	h.Set("webhook-id", dl.ID)
	h.Set("webhook-timestamp", strconv.FormatInt(now.Unix(), 10))
	h.Set("webhook-signature", sig)
	return nil
}
