package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
)

// TestToolCallTopicsReachOtherReplicas: the replica serving a tool hears
// of a call another replica enqueues, and the caller's replica hears of
// the result, through NOTIFY.
func TestToolCallTopicsReachOtherReplicas(t *testing.T) {
	t.Parallel()
	cluster := pgtest.Start(t)
	caller, server := open(t, cluster.DSN()), open(t, cluster.DSN())
	const tenant = store.DefaultTenant
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	queue := server.Notifier().Subscribe(store.ToolCallsTopic(tenant, "add"))
	defer queue.Close()
	result := caller.Notifier().Subscribe(store.ToolResultTopic(tenant, "run_1/c1"))
	defer result.Close()
	wait := func(name string, sub store.Subscription) {
		t.Helper()
		select {
		case <-sub.C():
		case <-ctx.Done():
			t.Fatalf("the other replica heard no %s signal", name)
		}
	}
	now := time.Now()
	if _, _, err := caller.EnqueueToolCall(ctx, store.ToolCall{Tenant: tenant, CallID: "run_1/c1", RunID: "run_1", Tool: "add", Arguments: []byte(`{}`), CreateTime: now}); err != nil {
		t.Fatal(err)
	}
	wait("new call", queue)
	claimed, err := server.ClaimToolCalls(ctx, tenant, "server", []string{"add"}, now, time.Minute, 1)
	if err != nil || len(claimed) != 1 {
		t.Fatalf("claim: %v %v", claimed, err)
	}
	if err := server.CompleteToolCall(ctx, claimed[0], store.ToolCallResult{Output: []byte(`3`)}, now); err != nil {
		t.Fatal(err)
	}
	wait("result", result)
	got, found, err := caller.GetToolCall(ctx, tenant, "run_1/c1")
	if err != nil || !found || !got.Done || string(got.Result.Output) != "3" {
		t.Errorf("the caller reads %+v %v %v", got, found, err)
	}
}
