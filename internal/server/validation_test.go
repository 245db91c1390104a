package server_test

import (
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestWatchFromSeq: WatchRun from any seq up to last_seq+1 streams what is
// there; from past that is INVALID_REQUEST on from_seq.
func TestWatchFromSeq(t *testing.T) {
	srv := testserver.Start(t)
	srv.Publish(t, `{"name": "watched", "model": {"provider": "scripted", "script": {"turns": [{"text": "done"}]}}}`)
	run := srv.Wait(t, srv.Start(t, "watched", "hi").GetRunId())
	last := run.GetLastSeq()
	if last < 3 {
		t.Fatalf("last_seq %d", last)
	}
	tests := []struct {
		name    string
		from    int64
		records int
		reason  string
	}{
		{"from the start", 0, int(last), ""},
		{"from the last record", last, 1, ""},
		{"just past the end", last + 1, 0, ""},
		{"two past the end", last + 2, 0, "INVALID_REQUEST"},
		{"far past the end", 1 << 40, 0, "INVALID_REQUEST"},
		{"negative", -1, 0, "INVALID_REQUEST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stream, err := srv.Runs.WatchRun(testserver.Context(t), &runsvcv1.WatchRunRequest{RunId: run.GetRunId(), FromSeq: tt.from})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for {
				_, err = stream.Recv()
				if err != nil {
					break
				}
				n++
			}
			if tt.reason == "" {
				if !errors.Is(err, io.EOF) || n != tt.records {
					t.Errorf("got %d records then %v, want %d then the end", n, err, tt.records)
				}
				return
			}
			c := errdetails.Classify(err)
			if c.Code != codes.InvalidArgument || c.Reason != tt.reason || !strings.Contains(c.Message, "from_seq") || n != 0 {
				t.Fatalf("got %d records then %+v, want %s", n, c, tt.reason)
			}
		})
	}
}

// TestNonFiniteSpecNumbers: NaN and ±Inf in a Spec's prices and budget are
// SPEC_INVALID naming the field, over the wire (they were INTERNAL).
func TestNonFiniteSpecNumbers(t *testing.T) {
	srv := testserver.Start(t)
	tests := []struct {
		name  string
		edit  func(*runsvcv1.Spec)
		field string
	}{
		{"NaN cost budget", func(s *runsvcv1.Spec) { s.Limits = &runsvcv1.Limits{CostBudget: math.NaN()} }, "limits.cost_budget"},
		{"infinite cost budget", func(s *runsvcv1.Spec) { s.Limits = &runsvcv1.Limits{CostBudget: math.Inf(1)} }, "limits.cost_budget"},
		{"NaN input price", func(s *runsvcv1.Spec) { s.Model.Pricing = &runsvcv1.Pricing{InputPerMillion: math.NaN()} }, "model.pricing.input_per_million"},
		{"-Inf output price", func(s *runsvcv1.Spec) { s.Model.Pricing = &runsvcv1.Pricing{OutputPerMillion: math.Inf(-1)} }, "model.pricing.output_per_million"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp := &runsvcv1.Spec{Name: "finite", Model: &runsvcv1.ModelRef{Provider: "scripted", Script: &runsvcv1.Script{Turns: []*runsvcv1.ScriptTurn{{Text: "x"}}}}}
			tt.edit(sp)
			_, err := srv.Specs.PublishSpec(testserver.Context(t), &runsvcv1.PublishSpecRequest{Spec: sp})
			c := errdetails.Classify(err)
			if c.Code != codes.InvalidArgument || c.Reason != "SPEC_INVALID" || !strings.Contains(c.Message, tt.field) {
				t.Fatalf("got %+v, want SPEC_INVALID naming %s", c, tt.field)
			}
		})
	}
}
