package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/protobuf/types/known/timestamppb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// TestWatchShowsHistoryCompacted: run watch says what a compaction
// summarised and why, not "record N of an unknown kind".
func TestWatchShowsHistoryCompacted(t *testing.T) {
	tests := []struct {
		name string
		h    *runsvcv1.Record_HistoryCompacted
		want string
	}{
		{"did not fit", &runsvcv1.Record_HistoryCompacted{Turn: 7, ThroughTurn: 5, Messages: 12},
			"  history compacted: turn 7's model request did not fit the model's context, so a summary now stands for turns 1-5 (12 messages)\n"},
		{"refused", &runsvcv1.Record_HistoryCompacted{Turn: 3, ThroughTurn: 2, Messages: 1, AfterRefusal: true},
			"  history compacted: turn 3's model request was refused as too long, so a summary now stands for turns 1-2 (1 message)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			v := (&app{stdout: &out}).newView("run_1", nil)
			v.record(context.Background(), &runsvcv1.Record{Seq: 9, Time: timestamppb.Now(), Body: &runsvcv1.Record_HistoryCompacted_{HistoryCompacted: tt.h}}, false)
			if got := out.String(); !strings.HasSuffix(got, tt.want) || strings.Contains(got, "unknown kind") {
				t.Errorf("run watch printed %q, want it to end with %q", got, tt.want)
			}
		})
	}
}

// TestWatchSaysWhyTheModelIsAskedAgain: an answer that fails the output
// schema is shown with its violations and what follows: a re-ask the
// first time, the Run's failure the next.
func TestWatchSaysWhyTheModelIsAskedAgain(t *testing.T) {
	var out bytes.Buffer
	v := (&app{stdout: &out}).newView("run_1", nil)
	answer := func(turn int32) *runsvcv1.Record {
		return &runsvcv1.Record{Time: timestamppb.Now(), Body: &runsvcv1.Record_ModelCallFinished_{ModelCallFinished: &runsvcv1.Record_ModelCallFinished{
			Turn: turn, Text: `{"city": 3}`,
			OutputViolations: []*edpb.BadRequest_FieldViolation{{Field: "answer.city", Description: "must be a string"}},
		}}}
	}
	v.record(context.Background(), answer(1), false)
	v.record(context.Background(), answer(2), false)
	for _, want := range []string{
		"the answer does not match the Spec's output schema (answer.city: must be a string); the model is asked again with these\n",
		"the answer does not match the Spec's output schema (answer.city: must be a string); the Run fails OUTPUT_INVALID\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("run watch printed\n%s\nwant a line ending %q", out.String(), want)
		}
	}
}
