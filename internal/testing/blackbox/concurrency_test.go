package blackbox_test

import (
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// ticketRuns is how many Runs of one ticket TestConcurrencyKeyAcrossKill
// starts at once.
const ticketRuns = 200

// TestConcurrencyKeyAcrossKill: 200 StartRuns of one ticket at once, on a
// Spec whose concurrency is input.ticket_id with limit 1, and a server
// killed with SIGKILL half way: every Run completes, no two are ever
// active at once (each Run's first AttemptStarted comes after the settle
// of the Run before it on the key, read from the logs), and they complete
// in start order (the key's order, concurrency_seq). On SQLite the one
// server restarts; on PostgreSQL the starts go to two replicas and the
// survivor finishes the killed one's Runs.
func TestConcurrencyKeyAcrossKill(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		addr, args := blackbox.FreePort(t), []string{"--data", t.TempDir(), "--lease-ttl", "2s"}
		p := blackbox.Serve(t, addr, args...)
		ticketsAcrossKill(t, p, nil, func() *blackbox.Process { return blackbox.Serve(t, addr, args...) })
	})
	t.Run("postgres-two-replicas", func(t *testing.T) {
		cluster := pgtest.Start(t)
		args := func(id string) []string {
			return []string{"--store", cluster.DSN(), "--lease-ttl", "2s", "--worker-id", id, "--pool-size", "8"}
		}
		a := blackbox.Serve(t, blackbox.FreePort(t), args("replica-a")...)
		b := blackbox.Serve(t, blackbox.FreePort(t), args("replica-b")...)
		ticketsAcrossKill(t, a, b, func() *blackbox.Process { return b })
	})
}

// ticketsAcrossKill starts the tickets on a (and b, when set, every other
// one), kills it a third of the way through, and checks them on the server
// that survivor returns.
func ticketsAcrossKill(t *testing.T, a, b *blackbox.Process, survivor func() *blackbox.Process) {
	connA := a.Dial(t)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(connA), `{"name": "ticket",
		"model": {"provider": "scripted", "script": {"turns": [{"text": "handled", "delay": "0.040s"}]}},
		"concurrency": {"key": "input.ticket_id", "limit": 1}}`)
	clients := []runsvcv1.RunServiceClient{runsvcv1.NewRunServiceClient(connA)}
	if b != nil {
		clients = append(clients, runsvcv1.NewRunServiceClient(b.Dial(t)))
	}
	began := time.Now()
	ids := startTickets(t, clients)
	waitUntil(t, func() bool { return completed(t, clients[0], ids) >= ticketRuns/3 })
	t.Logf("killing with %d of %d runs completed, %s after the starts", completed(t, clients[0], ids), ticketRuns, time.Since(began).Round(time.Millisecond))
	a.Kill()
	p := survivor()
	runs := runsvcv1.NewRunServiceClient(p.Dial(t))
	deadline := time.Now().Add(90 * time.Second)
	for n := completed(t, runs, ids); n < ticketRuns; n = completed(t, runs, ids) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d runs completed after the kill", n, ticketRuns)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("all %d completed %s after the starts", ticketRuns, time.Since(began).Round(time.Millisecond))
	checkOneAtATime(t, runs, ids)
	if code := p.Stop(t); code != 0 {
		t.Errorf("graceful stop exited %d", code)
	}
}

// startTickets starts ticketRuns Runs of ticket T-1 at once, spread over
// clients, and returns their ids.
func startTickets(t *testing.T, clients []runsvcv1.RunServiceClient) []string {
	t.Helper()
	ids := make([]string, ticketRuns)
	var wg sync.WaitGroup
	for i := range ticketRuns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := clients[i%len(clients)].StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "ticket", Input: fmt.Sprintf(`{"ticket_id": "T-1", "n": %d}`, i)})
			if err != nil {
				t.Errorf("StartRun %d: %v", i, err)
				return
			}
			if resp.GetRun().GetConcurrencyKey() != "input.ticket_id=T-1" {
				t.Errorf("run %s has concurrency key %q", resp.GetRun().GetRunId(), resp.GetRun().GetConcurrencyKey())
			}
			ids[i] = resp.GetRun().GetRunId()
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return ids
}

// completed counts the server's completed Runs (every Run is one of ids).
func completed(t *testing.T, runs runsvcv1.RunServiceClient, ids []string) int {
	t.Helper()
	n, token := 0, ""
	for {
		resp, err := runs.ListRuns(testserver.Context(t), &runsvcv1.ListRunsRequest{States: []runsvcv1.RunState{runsvcv1.RunState_RUN_STATE_COMPLETED},
			PageSize: int32(len(ids)), PageToken: token})
		if err != nil {
			return n
		}
		n += len(resp.GetRuns())
		if token = resp.GetNextPageToken(); token == "" {
			return n
		}
	}
}

// life is one Run's place on its key and its life: from its first
// AttemptStarted to its settle.
type life struct {
	id            string
	seq           int32
	start, settle time.Time
}

// checkOneAtATime reads every Run's log and checks that, in the key's
// order, each starts after the one before it settled.
func checkOneAtATime(t *testing.T, runs runsvcv1.RunServiceClient, ids []string) {
	t.Helper()
	lives := make([]life, 0, len(ids))
	for _, id := range ids {
		got, err := runs.GetRun(testserver.Context(t), &runsvcv1.GetRunRequest{RunId: id})
		if err != nil {
			t.Fatal(err)
		}
		l := life{id: id, seq: got.GetRun().GetConcurrencySeq(), settle: got.GetRun().GetSettleTime().AsTime()}
		for _, rec := range testserver.Records(t, runs, id) {
			if rec.GetAttemptStarted() != nil && l.start.IsZero() {
				l.start = rec.GetTime().AsTime()
			}
		}
		if l.start.IsZero() {
			t.Fatalf("run %s completed with no AttemptStarted", id)
		}
		lives = append(lives, l)
	}
	sort.Slice(lives, func(i, j int) bool { return lives[i].seq < lives[j].seq })
	for i, l := range lives {
		if int(l.seq) != i+1 {
			t.Fatalf("the key's positions are not 1..%d: position %d holds %d", len(lives), i+1, l.seq)
		}
		if i > 0 && l.start.Before(lives[i-1].settle) {
			t.Errorf("run %s (position %d) started at %v, before run %s (position %d) settled at %v",
				l.id, l.seq, l.start.Format(time.StampMicro), lives[i-1].id, lives[i-1].seq, lives[i-1].settle.Format(time.StampMicro))
		}
	}
}
