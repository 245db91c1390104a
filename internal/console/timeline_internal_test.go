package console

import (
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

func attempt(seq int64, n int32) *runsvcv1.Record {
	return &runsvcv1.Record{Seq: seq, Attempt: n, Body: &runsvcv1.Record_AttemptStarted_{AttemptStarted: &runsvcv1.Record_AttemptStarted{Attempt: n, WorkerId: "w"}}}
}

// TestTakeover: a second Attempt after a suspension is a new claim; one
// while the Run was running is a takeover, whoever else wrote meanwhile;
// the page counts the takeovers as runlog counts died Attempts.
func TestTakeover(t *testing.T) {
	admitted := &runsvcv1.Record{Seq: 1, Body: &runsvcv1.Record_Admitted_{Admitted: &runsvcv1.Record_Admitted{Spec: "s"}}}
	turn := &runsvcv1.Record{Seq: 3, Attempt: 1, Body: &runsvcv1.Record_TurnStarted_{TurnStarted: &runsvcv1.Record_TurnStarted{Turn: 1}}}
	suspended := &runsvcv1.Record{Seq: 3, Attempt: 1, Body: &runsvcv1.Record_Suspended_{Suspended: &runsvcv1.Record_Suspended{}}}
	resumed := &runsvcv1.Record{Seq: 4, Body: &runsvcv1.Record_Resumed_{Resumed: &runsvcv1.Record_Resumed{}}}
	caughtUp := &runsvcv1.Record{Seq: 6, Attempt: 2, Body: &runsvcv1.Record_Resumed_{Resumed: &runsvcv1.Record_Resumed{}}}
	queued := &runsvcv1.Record{Seq: 4, Body: &runsvcv1.Record_MessageQueued_{MessageQueued: &runsvcv1.Record_MessageQueued{Text: "also"}}}
	cases := []struct {
		name      string
		recs      []*runsvcv1.Record
		takeover  bool
		takeovers int
	}{
		{"crash mid-turn", []*runsvcv1.Record{admitted, attempt(2, 1), turn, attempt(4, 2)}, true, 1},
		{"after a resume", []*runsvcv1.Record{admitted, attempt(2, 1), suspended, resumed, attempt(5, 2)}, false, 0},
		{"first attempt", []*runsvcv1.Record{admitted, attempt(2, 1)}, false, 0},
		{"crash after an outsider's message", []*runsvcv1.Record{admitted, attempt(2, 1), turn, queued, attempt(5, 2)}, true, 1},
		{"woken still suspended", []*runsvcv1.Record{admitted, attempt(2, 1), suspended, attempt(4, 2), attempt(5, 3)}, false, 0},
		{"crash after catching up", []*runsvcv1.Record{admitted, attempt(2, 1), suspended, attempt(5, 2), caughtUp, attempt(7, 3)}, true, 1},
		{"unrecorded first", []*runsvcv1.Record{admitted, {Seq: 2, Attempt: 2, Body: &runsvcv1.Record_AttemptStarted_{AttemptStarted: &runsvcv1.Record_AttemptStarted{Attempt: 1}}}, attempt(3, 2)}, true, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tl := newTimeline(nil)
			for _, r := range c.recs {
				tl.add(r)
			}
			last := tl.items[len(tl.items)-1]
			if got := last.Class == "takeover"; got != c.takeover || tl.takeovers != c.takeovers {
				t.Fatalf("last row %q (%s), takeover %v, %d takeovers; want %v, %d", last.Title, last.Class, got, tl.takeovers, c.takeover, c.takeovers)
			}
		})
	}
}

// TestFailureDetails: every detail type of the table shows in the view.
func TestFailureDetails(t *testing.T) {
	details := []*anypb.Any{}
	for _, m := range []proto.Message{
		&errdetails.ErrorInfo{Reason: "SPEC_INVALID", Domain: "runsvc", Metadata: map[string]string{"spec": "x"}},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: "tools[0].name", Description: "empty"}}},
		&errdetails.QuotaFailure{Violations: []*errdetails.QuotaFailure_Violation{{Subject: "tenant acme", Description: "10 concurrent Runs"}}},
		&errdetails.PreconditionFailure{Violations: []*errdetails.PreconditionFailure_Violation{{Type: "RUN_STATE", Subject: "run r", Description: "COMPLETED"}}},
		&errdetails.ResourceInfo{ResourceType: "run", ResourceName: "r"},
		&errdetails.Help{Links: []*errdetails.Help_Link{{Description: "docs", Url: "https://example.invalid/x"}}},
	} {
		a, err := anypb.New(m)
		if err != nil {
			t.Fatal(err)
		}
		details = append(details, a)
	}
	f := failureOf(&spb.Status{Code: int32(codes.InvalidArgument), Message: "bad", Details: details})
	got := []string{f.Reason, f.Code, f.Violations[0].A, f.Quota[0].A, f.Preconditions[0].A, f.Resources[0].B, f.Help[0].B, f.Metadata[0].B}
	want := []string{"SPEC_INVALID", "InvalidArgument", "tools[0].name", "tenant acme", "RUN_STATE", "r", "https://example.invalid/x", "x"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", got, want)
	}
	if f.Retryable || f.Link() != "/errors#SPEC_INVALID" {
		t.Fatalf("retryable %v, link %s", f.Retryable, f.Link())
	}
}
