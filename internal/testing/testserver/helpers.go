package testserver

import (
	"context"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// Publish publishes a Spec written as protojson and fails the test on
// error.
func (s *Server) Publish(t testing.TB, specJSON string) *runsvcv1.Spec {
	t.Helper()
	return Publish(t, s.Specs, specJSON)
}

// Publish publishes a Spec to any runsvc; see Server.Publish.
func Publish(t testing.TB, specs runsvcv1.SpecServiceClient, specJSON string) *runsvcv1.Spec {
	t.Helper()
	sp := &runsvcv1.Spec{}
	if err := protojson.Unmarshal([]byte(specJSON), sp); err != nil {
		t.Fatalf("spec JSON: %v", err)
	}
	resp, err := specs.PublishSpec(Context(t), &runsvcv1.PublishSpecRequest{Spec: sp})
	if err != nil {
		t.Fatalf("PublishSpec(%s): %v", sp.GetName(), err)
	}
	return resp.GetSpec()
}

// Start starts a Run and fails the test on error.
func (s *Server) Start(t testing.TB, specName, input string) *runsvcv1.Run {
	t.Helper()
	resp, err := s.Runs.StartRun(Context(t), &runsvcv1.StartRunRequest{Spec: specName, Input: input})
	if err != nil {
		t.Fatalf("StartRun(%s): %v", specName, err)
	}
	return resp.GetRun()
}

// Wait waits for a Run to settle or suspend.
func (s *Server) Wait(t testing.TB, runID string) *runsvcv1.Run {
	t.Helper()
	resp, err := s.Runs.WaitRun(Context(t), &runsvcv1.WaitRunRequest{RunId: runID, Wait: durationpb.New(30 * time.Second)})
	if err != nil {
		t.Fatalf("WaitRun(%s): %v", runID, err)
	}
	return resp.GetRun()
}

// Settled waits for a Run to settle.
func (s *Server) Settled(t testing.TB, runID string) *runsvcv1.Run {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		run := s.Wait(t, runID)
		switch run.GetState() {
		case runsvcv1.RunState_RUN_STATE_COMPLETED, runsvcv1.RunState_RUN_STATE_FAILED,
			runsvcv1.RunState_RUN_STATE_ABORTED, runsvcv1.RunState_RUN_STATE_ABANDONED:
			return run
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s did not settle; it is %v", runID, run.GetState())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Records returns a Run's whole log.
func (s *Server) Records(t testing.TB, runID string) []*runsvcv1.Record {
	t.Helper()
	return Records(t, s.Runs, runID)
}

// Records returns a Run's whole log from any runsvc; see Server.Records.
func Records(t testing.TB, runs runsvcv1.RunServiceClient, runID string) []*runsvcv1.Record {
	t.Helper()
	stream, err := runs.WatchRun(Context(t), &runsvcv1.WatchRunRequest{RunId: runID})
	if err != nil {
		t.Fatal(err)
	}
	var out []*runsvcv1.Record
	for {
		resp, err := stream.Recv()
		if err != nil {
			return out
		}
		out = append(out, resp.GetRecord())
	}
}

// RecordsSoFar returns a Run's log up to its current last record, without
// waiting for it to settle.
func (s *Server) RecordsSoFar(t testing.TB, runID string) []*runsvcv1.Record {
	t.Helper()
	ctx, cancel := context.WithCancel(Context(t))
	defer cancel()
	got, err := s.Runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: runID})
	if err != nil {
		t.Fatal(err)
	}
	stream, err := s.Runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: runID})
	if err != nil {
		t.Fatal(err)
	}
	var out []*runsvcv1.Record
	for int64(len(out)) < got.GetRun().GetLastSeq() {
		resp, err := stream.Recv()
		if err != nil {
			break
		}
		out = append(out, resp.GetRecord())
	}
	return out
}
