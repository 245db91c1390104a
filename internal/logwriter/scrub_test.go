package logwriter_test

import (
	"context"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/secret"
)

// TestScrub: with a Scrubber, a secret in a Record's text and in a
// failure's message, metadata and details never reaches the store's log or
// index, nor the folded State; without one it does (the test can fail).
func TestScrub(t *testing.T) {
	const key = "sk-logwriter-secret-77"
	ctx := context.Background()
	failure := errs.Store(&errs.ToolRejected{Tool: "t", Message: "bad key " + key}, "")
	for _, tc := range []struct {
		name  string
		scrub bool
		want  int // occurrences expected, 0 or more
	}{
		{name: "scrubbed", scrub: true},
		{name: "not scrubbed", scrub: false, want: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var o logwriter.Options
			if tc.scrub {
				o.Scrubber = secret.NewScrubber()
				o.Scrubber.Add(key)
			}
			db, w, runID := newRunWith(t, o)
			ops := logwriter.Ops(&runlog.MessageQueued{Text: "use " + key, Mode: runlog.ModeFollowUp},
				&runlog.Settled{State: runlog.StatusFailed, Failure: &failure})
			if _, err := w.Mutate(ctx, tenant, runID, ops); err != nil {
				t.Fatal(err)
			}
			recs, err := db.ReadLog(ctx, tenant, runID, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			var everything strings.Builder
			for _, r := range recs {
				everything.Write(r.Body)
			}
			run, err := db.GetRun(ctx, tenant, runID)
			if err != nil {
				t.Fatal(err)
			}
			everything.Write(run.Index.Summary)
			st, _, err := w.Load(ctx, tenant, runID)
			if err != nil {
				t.Fatal(err)
			}
			everything.WriteString(st.Failure.Message + st.Failure.ModelText + st.Failure.Metadata["message"])
			for _, d := range st.Failure.Details {
				everything.Write(d)
			}
			n := strings.Count(everything.String(), key)
			if (tc.want == 0) != (n == 0) {
				t.Errorf("the key appears %d times in the log, index and State", n)
			}
			if tc.scrub && st.Failure.Reason != failure.Reason {
				t.Errorf("the scrubbed failure's reason is %q, want %q", st.Failure.Reason, failure.Reason)
			}
		})
	}
}
