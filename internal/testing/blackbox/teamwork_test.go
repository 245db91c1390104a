package blackbox_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestTeamworkSurvivesRestart: a SIGKILL loses no delegation, memory value
// or unacknowledged bus message, and a reader blocked on a key resumes
// waiting after it reconnects.
func TestTeamworkSurvivesRestart(t *testing.T) {
	data := t.TempDir()
	addr := blackbox.FreePort(t)
	args := []string{"--data", data, "--lease-ttl", "1s"}
	p := blackbox.Serve(t, addr, args...)
	conn := p.Dial(t)
	ctx := testserver.Context(t)
	for _, raw := range splitJSONArray(t, `[
	  {"name": "analyst", "model": {"provider": "scripted", "script": {"turns": [{"text": "analysed", "delay": "3s"}]}}},
	  {"name": "alice", "bus": {"enabled": true}, "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}}},
	  {"name": "bob", "bus": {"enabled": true}, "model": {"provider": "scripted", "script": {"turns": [{"text": "x"}]}}}]`) {
		testserver.Publish(t, runsvcv1.NewSpecServiceClient(conn), raw)
	}
	d, err := runsvcv1.NewDelegationServiceClient(conn).Delegate(ctx, &runsvcv1.DelegateRequest{Spec: "analyst", Task: "analyse", Async: true})
	if err != nil {
		t.Fatal(err)
	}
	scope := &runsvcv1.MemoryScope{Scope: &runsvcv1.MemoryScope_Namespace{Namespace: "team"}}
	if _, err := runsvcv1.NewMemoryServiceClient(conn).SetValue(ctx, &runsvcv1.SetValueRequest{Scope: scope, Key: "kept", Value: structpb.NewNumberValue(42)}); err != nil {
		t.Fatal(err)
	}
	sent, err := runsvcv1.NewBusServiceClient(conn).SendMessage(ctx, &runsvcv1.BusServiceSendMessageRequest{Sender: "alice", Channel: "bob", Content: structpb.NewStringValue("hello bob")})
	if err != nil {
		t.Fatal(err)
	}
	stream, err := runsvcv1.NewBusServiceClient(conn).Receive(ctx, &runsvcv1.ReceiveRequest{Channel: "bob", AckTimeout: durationpb.New(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Recv(); err != nil {
		t.Fatal(err)
	}

	// A reader blocked on a key that is written only after the restart; it
	// reconnects and waits again, as a client is expected to.
	read := readWhenWritten(t, ctx, addr, scope, "later")
	time.Sleep(300 * time.Millisecond)

	p.Kill()
	p = blackbox.Serve(t, addr, args...)
	conn = p.Dial(t)

	got, err := runsvcv1.NewDelegationServiceClient(conn).AwaitDelegation(ctx, &runsvcv1.AwaitDelegationRequest{DelegationId: d.GetDelegation().GetDelegationId(), Timeout: durationpb.New(30 * time.Second)})
	if err != nil || got.GetDelegation().GetAnswer() != "analysed" {
		t.Fatalf("delegation after restart: %v %v", got, err)
	}
	kept, err := runsvcv1.NewMemoryServiceClient(conn).GetValue(ctx, &runsvcv1.GetValueRequest{Scope: scope, Keys: []string{"kept"}})
	if err != nil || len(kept.GetEntries()) != 1 || kept.GetEntries()[0].GetValue().GetNumberValue() != 42 {
		t.Fatalf("memory after restart: %v %v", kept, err)
	}
	again, err := runsvcv1.NewBusServiceClient(conn).Receive(ctx, &runsvcv1.ReceiveRequest{Channel: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	msg, err := again.Recv()
	if err != nil || msg.GetMessage().GetMessageId() != sent.GetMessage().GetMessageId() || msg.GetMessage().GetDeliveryCount() != 2 {
		t.Fatalf("unacknowledged message after restart: %v %v", msg, err)
	}
	if _, err := runsvcv1.NewMemoryServiceClient(conn).SetValue(ctx, &runsvcv1.SetValueRequest{Scope: scope, Key: "later", Value: structpb.NewStringValue("now")}); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-read:
		if e.GetValue().GetStringValue() != "now" {
			t.Errorf("blocked reader got %v", e)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the blocked reader never got the value")
	}
}

// readWhenWritten reads key in scope from the server at addr with a wait,
// dialling again whenever the server is Unavailable, and delivers the
// entry it finally gets (nil after another error, which fails t).
func readWhenWritten(t *testing.T, ctx context.Context, addr string, scope *runsvcv1.MemoryScope, key string) <-chan *runsvcv1.MemoryEntry {
	read := make(chan *runsvcv1.MemoryEntry, 1)
	go func() {
		for {
			c := blackbox.NewClient(addr)
			resp, err := runsvcv1.NewMemoryServiceClient(c).GetValue(ctx, &runsvcv1.GetValueRequest{Scope: scope, Keys: []string{key}, Wait: durationpb.New(20 * time.Second)})
			_ = c.Close()
			if err == nil {
				read <- resp.GetEntries()[0]
				return
			}
			if status.Code(err) != codes.Unavailable || ctx.Err() != nil {
				t.Errorf("blocked read: %v", err)
				read <- nil
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	return read
}
