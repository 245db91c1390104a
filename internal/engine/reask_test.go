package engine

import (
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
)

// TestOutputReaskRecordsWhatIsSent: the engine decides whether to ask
// again and puts the message it sends, and the limit it applied, into the
// Record; folding that Record gives the transcript exactly that message.
func TestOutputReaskRecordsWhatIsSent(t *testing.T) {
	bad := []errs.FieldViolation{{Field: "answer.q", Description: "got number, want string"}}
	for _, tc := range []struct {
		name       string
		rejections int
		want       string
	}{
		{"first mismatch is asked again", 0, outputReaskText(bad)},
		{"past the limit it is not", maxOutputReasks, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := outputReask(bad, tc.rejections)
			if r.Text != tc.want || r.Limit != maxOutputReasks {
				t.Fatalf("re-ask %+v; want text %q, limit %d", r, tc.want, maxOutputReasks)
			}
			ops := []runlog.Op{
				&runlog.Admitted{Tenant: "default", Spec: "s", Version: "v1", Input: "hi", Deadline: time.Unix(3600, 0), RootRunID: "run_1"},
				&runlog.AttemptStarted{Attempt: 1, WorkerID: "w"}, &runlog.TurnStarted{Turn: 1}, &runlog.ModelCallStarted{Turn: 1},
				&runlog.ModelCallFinished{Turn: 1, Text: `{"q": 1}`, OutputViolations: bad, Reask: r},
			}
			records := make([]runlog.Record, len(ops))
			for i, op := range ops {
				records[i] = runlog.Record{Seq: int64(i + 1), Time: time.Unix(int64(i), 0), Op: op}
			}
			st, err := runlog.Fold("run_1", records)
			if err != nil {
				t.Fatal(err)
			}
			last := st.Transcript[len(st.Transcript)-1].Text
			if tc.want != "" && last != tc.want || tc.want == "" && last != `{"q": 1}` {
				t.Errorf("the transcript ends with %q; want the recorded re-ask %q (or the answer when none)", last, tc.want)
			}
		})
	}
}
