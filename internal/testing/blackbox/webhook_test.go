package blackbox_test

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/webhookverify"
)

// receiver is a webhook endpoint on 127.0.0.1 that records every
// delivery and answers 503 to a share of them (half of those with a
// Retry-After), or to all while down.
type receiver struct {
	url      string
	failRate float64
	mu       sync.Mutex
	down     bool
	got      []received
}

// received is one delivery as it arrived, and what it was answered.
type received struct {
	id, timestamp, signature, body string
	status                         int
}

func startReceiver(t *testing.T, failRate float64) *receiver {
	t.Helper()
	r := &receiver{failRate: failRate}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: r}
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(func() { _ = srv.Close() })
	r.url = "http://" + lis.Addr().String() + "/hook"
	return r
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	rec := received{id: req.Header.Get("webhook-id"), timestamp: req.Header.Get("webhook-timestamp"),
		signature: req.Header.Get("webhook-signature"), body: string(body), status: http.StatusNoContent}
	r.mu.Lock()
	if r.down || rand.Float64() < r.failRate {
		rec.status = http.StatusServiceUnavailable
		if rand.IntN(2) == 0 {
			w.Header().Set("Retry-After", "0.2")
		}
	}
	r.got = append(r.got, rec)
	r.mu.Unlock()
	w.WriteHeader(rec.status)
}

// set makes the receiver answer 503 to every delivery (down) or to
// failRate of them.
func (r *receiver) set(down bool, failRate float64) {
	r.mu.Lock()
	r.down, r.failRate = down, failRate
	r.mu.Unlock()
}

func (r *receiver) deliveries() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// event is the part of a delivery's body the test reads.
type event struct {
	Type string `json:"type"`
	Data struct {
		RunID  string          `json:"run_id"`
		State  string          `json:"state"`
		Status json.RawMessage `json:"status"`
	} `json:"data"`
}

// byRun groups deliveries by the Run their body names: its webhook-ids,
// and whether one was answered 2xx.
type runDeliveries struct {
	ids       map[string]bool
	delivered bool
	event     event
}

func groupByRun(t *testing.T, ds []received) map[string]*runDeliveries {
	t.Helper()
	out := map[string]*runDeliveries{}
	for _, d := range ds {
		var e event
		if err := json.Unmarshal([]byte(d.body), &e); err != nil {
			t.Fatalf("delivery %s: body %q: %v", d.id, d.body, err)
		}
		g := out[e.Data.RunID]
		if g == nil {
			g = &runDeliveries{ids: map[string]bool{}, event: e}
			out[e.Data.RunID] = g
		}
		g.ids[d.id] = true
		g.delivered = g.delivered || d.status/100 == 2
	}
	return out
}

// verifyAll checks every delivery's signature with npm's standardwebhooks.
func verifyAll(t *testing.T, secret string, ds []received) {
	t.Helper()
	in := make([]webhookverify.Delivery, len(ds))
	for i, d := range ds {
		in[i] = webhookverify.Delivery{Secret: secret, ID: d.id, Timestamp: d.timestamp, Signature: d.signature, Body: d.body}
	}
	if res := webhookverify.Verify(t, in); res.Verified != len(ds) || len(res.Failed) > 0 {
		t.Fatalf("standardwebhooks verified %s of %d deliveries", res, len(ds))
	}
	t.Logf("standardwebhooks verified all %d deliveries", len(ds))
}

const webhookSpecs = `[
 {"name": "quick", "model": {"provider": "scripted", "script": {"turns": [{"text": "done", "delay": "0.030s"}]}}},
 {"name": "broken", "model": {"provider": "scripted", "script": {"turns": [{"text": "never", "fail": {"httpStatus": 400, "message": "the model refused the request"}}]}}}
]`

func createWebhook(t *testing.T, conn grpc.ClientConnInterface, url string, types ...string) (string, string) {
	t.Helper()
	resp, err := runsvcv1.NewWebhookServiceClient(conn).CreateWebhook(testserver.Context(t), &runsvcv1.CreateWebhookRequest{
		Subscription: &runsvcv1.WebhookSubscription{Url: url, EventTypes: types}})
	if err != nil {
		t.Fatal(err)
	}
	return resp.GetSubscription().GetId(), resp.GetSecret()
}

// killer starts Runs in batches and kill -9s the server after each.
type killer struct {
	t    *testing.T
	addr string
	args []string
	p    *blackbox.Process
}

func (k *killer) conn() *grpc.ClientConn { return k.p.Dial(k.t) }

// startBatch starts n Runs (every tenth one of the failing Spec) with
// request ids from first, and returns their ids.
func (k *killer) startBatch(prefix string, first, n int) []string {
	runs := runsvcv1.NewRunServiceClient(k.conn())
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			spec := "quick"
			if (first+i)%10 == 0 {
				spec = "broken"
			}
			resp, err := runs.StartRun(testserver.Context(k.t), &runsvcv1.StartRunRequest{Spec: spec, Input: "go", RequestId: fmt.Sprintf("%s-%d", prefix, first+i)})
			if err != nil {
				k.t.Errorf("StartRun %d: %v", first+i, err)
				return
			}
			ids[i] = resp.GetRun().GetRunId()
		}()
	}
	wg.Wait()
	return ids
}

// killAndRestart kill -9s the server a moment after the batch started,
// while its Runs settle and their deliveries are in flight.
func (k *killer) killAndRestart() {
	time.Sleep(time.Duration(rand.IntN(150)) * time.Millisecond)
	k.p.Kill()
	k.p = blackbox.Serve(k.t, k.addr, k.args...)
}

// waitDelivered waits until every Run in ids has a delivery answered 2xx.
func waitDelivered(t *testing.T, r *receiver, ids []string, within time.Duration) map[string]*runDeliveries {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		by := groupByRun(t, r.deliveries())
		missing := 0
		for _, id := range ids {
			if g := by[id]; g == nil || !g.delivered {
				missing++
			}
		}
		if missing == 0 {
			return by
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d Runs' events never delivered", missing, len(ids))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestWebhooksUnderKills (issue 34): 1,000 Runs settle while the server
// is kill -9ed 50 times and the receiver fails 30% of deliveries with
// 503: every Run's event is delivered, under one webhook-id across its
// retries, with a signature npm's standardwebhooks accepts; then, with a
// short retry period and the receiver down, events are dead-lettered,
// listed, and delivered by a redelivery, under the same webhook-ids.
func TestWebhooksUnderKills(t *testing.T) {
	webhookverify.Available(t)
	const runs, kills = 1000, 50
	rcv := startReceiver(t, 0.3)
	addr := blackbox.FreePort(t)
	args := []string{"--data", t.TempDir(), "--lease-ttl", "2s", "--allow-network", "127.0.0.0/8",
		"--webhook-backoff", "100ms", "--webhook-max-backoff", "1s", "--webhook-timeout", "2s"}
	k := &killer{t: t, addr: addr, args: args, p: blackbox.Serve(t, addr, args...)}
	for _, raw := range splitJSONArray(t, webhookSpecs) {
		testserver.Publish(t, runsvcv1.NewSpecServiceClient(k.conn()), raw)
	}
	subID, secret := createWebhook(t, k.conn(), rcv.url, "run.settled")
	var ids []string
	began := time.Now()
	for i := range kills {
		ids = append(ids, k.startBatch("kill", i*runs/kills, runs/kills)...)
		k.killAndRestart()
	}
	t.Logf("%d Runs started across %d kill -9s in %v", runs, kills, time.Since(began).Round(time.Second))
	by := waitDelivered(t, rcv, ids, 2*time.Minute)
	checkEvents(t, ids, by)
	all := rcv.deliveries()
	t.Logf("%d Runs, %d kill -9s: %d deliveries (%d answered 503), every event delivered, one webhook-id each, %v after the first start",
		len(ids), kills, len(all), count503(all), time.Since(began).Round(time.Second))

	// A delivery the receiver answered just before a kill is still
	// pending in the store until it is tried again: wait for the store to
	// agree that every one was delivered, so that none of them meets the
	// short retry period below and is dead-lettered beside the doomed.
	waitAllDelivered(t, k.conn(), subID, len(ids))

	// Dead letters: a short retry period, and the receiver down.
	k.p.Stop(t)
	k.args = append(args, "--webhook-retry-period", "2s")
	k.p = blackbox.Serve(t, addr, k.args...)
	rcv.set(true, 0)
	doomed := k.startBatch("dead", 1, 3)
	dead := waitDead(t, k.conn(), subID, len(doomed))
	rcv.set(false, 0)
	resp, err := runsvcv1.NewWebhookServiceClient(k.conn()).RedeliverWebhook(testserver.Context(t), &runsvcv1.RedeliverWebhookRequest{Id: subID})
	if err != nil || resp.GetRedelivered() != int32(len(doomed)) {
		t.Fatalf("RedeliverWebhook = %v, %v; want %d", resp, err, len(doomed))
	}
	after := waitDelivered(t, rcv, doomed, time.Minute)
	for _, id := range doomed {
		for wid := range after[id].ids {
			if !dead[wid] {
				t.Errorf("Run %s was redelivered under webhook-id %s, not its dead-lettered one", id, wid)
			}
		}
	}
	verifyAll(t, secret, rcv.deliveries())
}

// checkEvents: every Run has exactly one webhook-id, its body says how it
// settled, and a failed one carries its google.rpc.Status.
func checkEvents(t *testing.T, ids []string, by map[string]*runDeliveries) {
	t.Helper()
	if len(by) != len(ids) {
		t.Errorf("deliveries name %d Runs, want %d", len(by), len(ids))
	}
	for i, id := range ids {
		g := by[id]
		if len(g.ids) != 1 {
			t.Errorf("Run %s: %d webhook-ids %v, want 1 across its retries", id, len(g.ids), g.ids)
		}
		e := g.event
		if e.Type != "run.settled" {
			t.Errorf("Run %s: type %q", id, e.Type)
		}
		if failed := i%10 == 0; failed != (e.Data.State == "FAILED") || failed != (len(e.Data.Status) > 0) {
			t.Errorf("Run %s: state %s, status %s", id, e.Data.State, e.Data.Status)
		}
	}
}

func count503(ds []received) int {
	n := 0
	for _, d := range ds {
		if d.status == http.StatusServiceUnavailable {
			n++
		}
	}
	return n
}

// waitAllDelivered waits until the subscription's n deliveries are all
// DELIVERED in the store.
func waitAllDelivered(t *testing.T, conn grpc.ClientConnInterface, subID string, n int) {
	t.Helper()
	hooks := runsvcv1.NewWebhookServiceClient(conn)
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := hooks.ListWebhookDeliveries(testserver.Context(t), &runsvcv1.ListWebhookDeliveriesRequest{Id: subID, PageSize: int32(n)})
		left := -1
		if err == nil && len(resp.GetDeliveries()) == n {
			left = 0
			for _, d := range resp.GetDeliveries() {
				if d.GetState() != "DELIVERED" {
					left++
				}
			}
		}
		if left == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("ListWebhookDeliveries: %d deliveries, %d not DELIVERED (%v); want %d, all DELIVERED", len(resp.GetDeliveries()), left, err, n)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitDead waits until the subscription has n dead-lettered deliveries,
// and returns their webhook-ids.
func waitDead(t *testing.T, conn grpc.ClientConnInterface, subID string, n int) map[string]bool {
	t.Helper()
	hooks := runsvcv1.NewWebhookServiceClient(conn)
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := hooks.ListWebhookDeliveries(testserver.Context(t), &runsvcv1.ListWebhookDeliveriesRequest{Id: subID, DeadOnly: true})
		if err == nil && len(resp.GetDeliveries()) == n {
			out := map[string]bool{}
			for _, d := range resp.GetDeliveries() {
				if d.GetState() != "DEAD" || d.GetLastStatus() != http.StatusServiceUnavailable || d.GetAttempts() < 2 {
					t.Errorf("dead delivery %v", d)
				}
				out[d.GetId()] = true
			}
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("ListWebhookDeliveries(dead) = %v, %v; want %d", resp, err, n)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
