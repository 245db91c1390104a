package webhook

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// TestPushHeaders: an A2A push is not signed; it carries the config's
// token in X-A2A-Notification-Token and its credentials in Authorization.
// A subscription of the tenant's own is signed as before.
func TestPushHeaders(t *testing.T) {
	dl := store.WebhookDelivery{WebhookEvent: store.WebhookEvent{ID: "msg_1", Body: []byte(`{}`)}}
	now := time.Unix(1700000000, 0)
	h := http.Header{}
	if err := headers(h, dl, Secrets{Push: &Push{RunID: "run_1", ConfigID: "c", Token: "tok", Scheme: "Bearer", Credentials: "sec"}}, now); err != nil {
		t.Fatal(err)
	}
	if h.Get("X-A2A-Notification-Token") != "tok" || h.Get("Authorization") != "Bearer sec" || h.Get("webhook-signature") != "" {
		t.Errorf("push headers: %v", h)
	}
	h = http.Header{}
	if err := headers(h, dl, Secrets{Current: NewSecret()}, now); err != nil {
		t.Fatal(err)
	}
	if h.Get("webhook-signature") == "" || h.Get("webhook-id") != "msg_1" || h.Get("X-A2A-Notification-Token") != "" {
		t.Errorf("webhook headers: %v", h)
	}
}

// TestLiveStates: the copy asks the store for the push configs of Runs in
// exactly the states that are not settled, so no Run that can still raise
// an event loses its configs and no settled Run's are read.
func TestLiveStates(t *testing.T) {
	for _, st := range []runlog.Status{runlog.StatusQueued, runlog.StatusRunning, runlog.StatusSuspended,
		runlog.StatusCompleted, runlog.StatusFailed, runlog.StatusAborted, runlog.StatusAbandoned} {
		if live := slices.Contains(liveStates, string(st)); live == st.Settled() {
			t.Errorf("%s: live %v, settled %v", st, live, st.Settled())
		}
	}
}
