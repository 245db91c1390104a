package runlog_test

import (
	"fmt"
	"time"

	"github.com/runsvc/runsvc/internal/runlog"
)

// Folding a Run's log gives its State; nothing else does.
func ExampleFold() {
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var log []runlog.Record
	for i, op := range []runlog.Op{
		&runlog.Admitted{Tenant: "default", Spec: "greeter", Input: "hi", Deadline: at.Add(time.Hour), RootRunID: "run_1"},
		&runlog.AttemptStarted{Attempt: 1, WorkerID: "w1"},
		&runlog.TurnStarted{Turn: 1},
		&runlog.ModelCallStarted{Turn: 1},
		&runlog.ModelCallFinished{Turn: 1, Text: "hello", InputTokens: 3, OutputTokens: 1},
	} {
		log = append(log, runlog.Record{Seq: int64(i + 1), Time: at, Attempt: 1, Op: op})
	}
	st, err := runlog.Fold("run_1", log)
	fmt.Println(st.Status, st.Phase, st.Final(), st.LastText, st.Usage.Tokens(), err)

	// A record the protocol cannot produce names the invariant it breaks.
	bad := runlog.Record{Seq: 6, Time: at, Attempt: 1, Op: &runlog.ModelCallFinished{Turn: 1}}
	fmt.Println(st.Apply(bad))
	// Output:
	// RUNNING ANSWERED true hello 4 <nil>
	// run run_1 has a corrupt log at seq 6 (no_open_model_call): model call of turn 1 finished but none is open
}
