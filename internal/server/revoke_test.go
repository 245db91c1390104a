package server_test

import (
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

// TestNarrowedRolesEndOpenStreams: a key whose roles no longer allow the
// method of its open stream, after the keys file reloads, sees the
// stream end ROLE_DENIED; the key itself still works for what it may do.
func TestNarrowedRolesEndOpenStreams(t *testing.T) {
	s := startSecured(t, []string{"acme"})
	ctx := ctxT(t)
	ns := &runsvcv1.MemoryScope{Scope: &runsvcv1.MemoryScope_Namespace{Namespace: "ns"}}
	runner := runsvcv1.NewMemoryServiceClient(s.conn(t, s.keys["acme/"+auth.RoleRunner], nil))
	if _, err := runner.SetValue(ctx, &runsvcv1.SetValueRequest{Scope: ns, Key: "k", Value: structpb.NewStringValue("v")}); err != nil {
		t.Fatal(err)
	}
	readerConn := s.conn(t, s.keys["acme/"+auth.RoleReader], nil)
	stream, err := runsvcv1.NewMemoryServiceClient(readerConn).WatchMemory(ctx, &runsvcv1.WatchMemoryRequest{Scope: ns, IncludeExisting: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Recv(); err != nil {
		t.Fatal(err)
	}
	var entries []auth.Entry
	for _, e := range s.entries {
		if e.Name == "acme-"+auth.RoleReader {
			e.Roles = []string{auth.RoleWorker}
		}
		entries = append(entries, e)
	}
	tlstest.WriteKeys(t, s.keysFile, entries)
	edited := time.Now()
	_, err = stream.Recv()
	if got := reasonOf(err); got != "ROLE_DENIED" {
		t.Fatalf("the stream ended %q (%v), want ROLE_DENIED", got, err)
	}
	t.Logf("ended %v after the edit", time.Since(edited).Round(time.Millisecond))
	if _, err := runsvcv1.NewRunServiceClient(readerConn).ListRuns(ctx, &runsvcv1.ListRunsRequest{}); reasonOf(err) != "ROLE_DENIED" {
		t.Errorf("a new read with the narrowed key: %v, want ROLE_DENIED", err)
	}
}
