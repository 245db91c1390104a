package runlog_test

import (
	"encoding/json"
	"errors"
	"math/rand"
	"reflect"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// logOf numbers ops from seq 1, one second apart.
func logOf(ops ...runlog.Op) []runlog.Record {
	out := make([]runlog.Record, len(ops))
	for i, op := range ops {
		out[i] = runlog.Record{Seq: int64(i + 1), Time: t0.Add(time.Duration(i) * time.Second), Op: op}
	}
	return out
}

func admitted() *runlog.Admitted {
	return &runlog.Admitted{Tenant: "default", Spec: "s", Version: "v1", Input: "hi", Deadline: t0.Add(time.Hour), RootRunID: "run_1"}
}

func call(id, name string) runlog.ToolCall {
	return runlog.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(`{"q":"x"}`)}
}

// fullLog exercises every record kind: a client tool suspension, a worker
// tool that fails transiently then answers, a steer message, a delegation,
// an approval, a question and a final answer.
func fullLog() []runlog.Record {
	// Stored failures as the log keeps them (the reducer only carries them).
	failure := errs.Stored{V: errs.StoredVersion, Code: 14, Reason: "INFERENCE_FAILED", Message: "scripted inference failed: 503", Retryable: true, RetryAfter: time.Second}
	transient := errs.Stored{V: errs.StoredVersion, Code: 14, Reason: "TRANSIENT_FAILURE", Message: "tool failed transiently: reset", Retryable: true, RetryAfter: time.Second}
	childFailure := errs.Stored{V: errs.StoredVersion, Code: 8, Reason: "TOOL_LOOP_LIMIT", Message: "Circuit breaker triggered: 3 tool calls exceeded max_tool_rounds (2)", Metadata: map[string]string{"calls": "3", "max": "2"}}
	return logOf(
		admitted(),
		&runlog.AttemptStarted{Attempt: 1, WorkerID: "w1"},
		&runlog.TurnStarted{Turn: 1},
		&runlog.ModelCallStarted{Turn: 1, ReservedTokens: 10},
		&runlog.ModelCallFailed{Turn: 1, Failure: failure, WillRetry: true, RetryAfter: time.Second},
		&runlog.ModelCallStarted{Turn: 1, ReservedTokens: 10},
		&runlog.ModelCallFinished{Turn: 1, Text: "checking", ToolCalls: []runlog.ToolCall{call("c1", "lookup"), call("c2", "fetch")}, InputTokens: 10, OutputTokens: 5},
		&runlog.Suspended{Reason: runlog.ReasonToolResults, ExpireAt: t0.Add(time.Hour), CallIDs: []string{"c1"}},
		&runlog.MessageQueued{Text: "be brief", Mode: runlog.ModeSteer},
		&runlog.Resumed{Reason: runlog.ReasonToolResults, Results: []runlog.ToolResult{{CallID: "c1", Output: json.RawMessage(`{"a":1}`)}}},
		&runlog.ToolCallStarted{CallID: "c1", Name: "lookup"},
		&runlog.ToolCallFinished{CallID: "c1", Name: "lookup", Output: json.RawMessage(`{"a":1}`)},
		&runlog.AttemptStarted{Attempt: 2, WorkerID: "w2"},
		&runlog.ToolCallStarted{CallID: "c2", Name: "fetch"},
		&runlog.ToolCallFailed{CallID: "c2", Name: "fetch", Error: transient},
		&runlog.ToolCallStarted{CallID: "c2", Name: "fetch"},
		&runlog.ToolCallFinished{CallID: "c2", Name: "fetch", Output: json.RawMessage(`"ok"`)},
		&runlog.TurnStarted{Turn: 2},
		&runlog.MessageConsumed{QueuedSeqs: []int64{9}},
		&runlog.ModelCallStarted{Turn: 2},
		&runlog.ModelCallFinished{Turn: 2, ToolCalls: []runlog.ToolCall{call("c3", "delegate"), call("c4", "wipe"), call("c5", "ask_user")}, InputTokens: 20, OutputTokens: 5, Priced: true, Cost: 0.01},
		&runlog.DelegationStarted{DelegationID: "d1", ChildRunID: "run_2", Spec: "child", Task: "t", CallID: "c3"},
		&runlog.Suspended{Reason: runlog.ReasonChildren, ExpireAt: t0.Add(time.Hour), DelegationIDs: []string{"d1"}},
		&runlog.DelegationFinished{DelegationID: "d1", ChildRunID: "run_2", State: runlog.StatusFailed, Failure: &childFailure},
		&runlog.Resumed{Reason: runlog.ReasonChildren},
		&runlog.ToolCallStarted{CallID: "c3", Name: "delegate"},
		&runlog.ToolCallFinished{CallID: "c3", Name: "delegate", Error: &childFailure},
		&runlog.Suspended{Reason: runlog.ReasonApproval, ExpireAt: t0.Add(time.Hour), CallID: "c4", ApprovalReason: "destructive"},
		&runlog.Resumed{Reason: runlog.ReasonApproval, Approved: false, Note: "no"},
		&runlog.ToolCallStarted{CallID: "c4", Name: "wipe"},
		&runlog.ToolCallFinished{CallID: "c4", Name: "wipe", Error: &childFailure},
		&runlog.Suspended{Reason: runlog.ReasonQuestion, ExpireAt: t0.Add(time.Hour), CallID: "c5", Question: "which?"},
		&runlog.Resumed{Reason: runlog.ReasonQuestion, Answer: "the first"},
		&runlog.ToolCallStarted{CallID: "c5", Name: "ask_user"},
		&runlog.ToolCallFinished{CallID: "c5", Name: "ask_user", Output: json.RawMessage(`"the first"`)},
		&runlog.TurnStarted{Turn: 3},
		&runlog.ModelCallStarted{Turn: 3},
		&runlog.ModelCallFinished{Turn: 3, Text: "done", InputTokens: 30, OutputTokens: 2},
		&runlog.AbortRequested{Cause: runlog.CauseInterrupted},
		&runlog.Settled{State: runlog.StatusCompleted, Answer: "done"},
	)
}

func TestFoldFullLog(t *testing.T) {
	s, err := runlog.Fold("run_1", fullLog())
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != runlog.StatusCompleted || s.Answer != "done" || s.Turn != 3 || s.Attempt != 2 {
		t.Errorf("state %s answer %q turn %d attempt %d", s.Status, s.Answer, s.Turn, s.Attempt)
	}
	u := s.Usage
	if u.InputTokens != 60 || u.OutputTokens != 12 || u.UnpricedCalls != 2 || u.ModelCalls != 4 || u.ToolCalls != 5 || u.TransientRetries != 2 {
		t.Errorf("usage %+v", u)
	}
	if s.Runnable() || !s.WakeAt().IsZero() {
		t.Error("a settled Run is neither runnable nor waiting")
	}
}

func TestToolErrorText(t *testing.T) {
	got := runlog.ToolErrorText("fetch", "boom <1>", true)
	want := `{"tool": "fetch", "error": "tool handler failed: boom <1>", "retryable": true}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestCorruption: every impossible log names its reason and the seq where
// the fold noticed.
func TestCorruption(t *testing.T) {
	ok := func(n int) []runlog.Op {
		ops := make([]runlog.Op, 0, n)
		for _, r := range fullLog()[:n] {
			ops = append(ops, r.Op)
		}
		return ops
	}
	cases := []struct {
		name   string
		log    []runlog.Record
		reason errs.Corruption
		seq    int64
	}{
		{name: "gap in seq", log: func() []runlog.Record {
			l := fullLog()[:3]
			l[2].Seq = 4
			return l
		}(), reason: errs.CorruptNonConsecutiveSeq, seq: 4},
		{name: "no admission", log: logOf(&runlog.AttemptStarted{Attempt: 1}), reason: errs.CorruptMissingAdmission, seq: 1},
		{name: "second admission", log: logOf(admitted(), admitted()), reason: errs.CorruptSecondAdmission, seq: 2},
		{name: "record after settle", log: logOf(admitted(), &runlog.Settled{State: runlog.StatusAborted}, &runlog.MessageQueued{Text: "x"}), reason: errs.CorruptRecordAfterSettle, seq: 3},
		{name: "unknown kind", log: logOf(admitted(), &runlog.Unknown{Name: "teleported"}), reason: errs.CorruptUnknownOperation, seq: 2},
		{name: "finish without start", log: logOf(admitted(), &runlog.AttemptStarted{Attempt: 1}, &runlog.TurnStarted{Turn: 1}, &runlog.ModelCallFinished{Turn: 1}), reason: errs.CorruptNoOpenModelCall, seq: 4},
		{name: "two open model calls", log: logOf(admitted(), &runlog.AttemptStarted{Attempt: 1}, &runlog.TurnStarted{Turn: 1}, &runlog.ModelCallStarted{Turn: 1}, &runlog.ModelCallStarted{Turn: 1}), reason: errs.CorruptMultipleOpenOperations, seq: 5},
		{name: "tool call while another is open", log: logOf(append(ok(7), &runlog.ToolCallStarted{CallID: "c1", Name: "lookup"}, &runlog.ToolCallStarted{CallID: "c2", Name: "fetch"})...), reason: errs.CorruptMultipleOpenOperations, seq: 9},
		{name: "result for a call never issued", log: logOf(append(ok(7), &runlog.ToolCallStarted{CallID: "c9", Name: "lookup"})...), reason: errs.CorruptToolCallMismatch, seq: 8},
		{name: "calls answered out of order", log: logOf(append(ok(7), &runlog.ToolCallStarted{CallID: "c2", Name: "fetch"})...), reason: errs.CorruptCallsOutOfOrder, seq: 8},
		{name: "next turn before every call is answered", log: logOf(append(ok(7), &runlog.TurnStarted{Turn: 2})...), reason: errs.CorruptCallsUnanswered, seq: 8},
		{name: "call answered twice", log: logOf(append(ok(12), &runlog.ToolCallStarted{CallID: "c1", Name: "lookup"})...), reason: errs.CorruptDuplicateToolInvoke, seq: 13},
		{name: "call started twice in one attempt", log: logOf(append(ok(14), &runlog.ToolCallStarted{CallID: "c2", Name: "fetch"})...), reason: errs.CorruptDuplicateToolInvoke, seq: 15},
		{name: "resume without suspension", log: logOf(admitted(), &runlog.AttemptStarted{Attempt: 1}, &runlog.Resumed{Reason: runlog.ReasonQuestion}), reason: errs.CorruptResumeWithoutSuspend, seq: 3},
		{name: "resume for another reason", log: logOf(append(ok(8), &runlog.Resumed{Reason: runlog.ReasonApproval})...), reason: errs.CorruptResumeWithoutSuspend, seq: 9},
		{name: "attempt skipped", log: logOf(admitted(), &runlog.AttemptStarted{Attempt: 1}, &runlog.AttemptStarted{Attempt: 3}), reason: errs.CorruptNonConsecutiveAttempt, seq: 3},
		{name: "turn skipped", log: logOf(admitted(), &runlog.AttemptStarted{Attempt: 1}, &runlog.TurnStarted{Turn: 2}), reason: errs.CorruptNonConsecutiveTurn, seq: 3},
		{name: "model call for another turn", log: logOf(append(ok(3), &runlog.ModelCallStarted{Turn: 2})...), reason: errs.CorruptModelCallTurnMismatch, seq: 4},
		{name: "model call fails without start", log: logOf(append(ok(3), &runlog.ModelCallFailed{Turn: 1})...), reason: errs.CorruptNoOpenModelCall, seq: 4},
		{name: "call id twice in one response", log: logOf(append(ok(6), &runlog.ModelCallFinished{Turn: 1, ToolCalls: []runlog.ToolCall{call("c1", "lookup"), call("c1", "lookup")}})...), reason: errs.CorruptDuplicateCallID, seq: 7},
		{name: "call to another tool", log: logOf(append(ok(7), &runlog.ToolCallStarted{CallID: "c1", Name: "fetch"})...), reason: errs.CorruptToolCallMismatch, seq: 8},
		{name: "call finishes without start", log: logOf(append(ok(7), &runlog.ToolCallFinished{CallID: "c1", Name: "lookup"})...), reason: errs.CorruptNoOpenToolCall, seq: 8},
		{name: "call fails without start", log: logOf(append(ok(7), &runlog.ToolCallFailed{CallID: "c1", Name: "lookup"})...), reason: errs.CorruptNoOpenToolCall, seq: 8},
		{name: "suspended before running", log: logOf(admitted(), &runlog.Suspended{Reason: runlog.ReasonQuestion}), reason: errs.CorruptSuspendWhileNotRun, seq: 2},
		{name: "resume with results not waited for", log: logOf(append(ok(8), &runlog.Resumed{Reason: runlog.ReasonToolResults, Results: []runlog.ToolResult{{CallID: "c1"}, {CallID: "c2"}}})...), reason: errs.CorruptResumeResults, seq: 9},
		{name: "resume lacking results", log: logOf(append(ok(8), &runlog.Resumed{Reason: runlog.ReasonToolResults})...), reason: errs.CorruptResumeResults, seq: 9},
		{name: "consumed a message never queued", log: logOf(append(ok(9), &runlog.MessageConsumed{QueuedSeqs: []int64{9, 4}})...), reason: errs.CorruptMessageNotQueued, seq: 10},
		{name: "delegation started twice", log: logOf(append(ok(22), &runlog.DelegationStarted{DelegationID: "d1", ChildRunID: "run_3"})...), reason: errs.CorruptDuplicateDelegation, seq: 23},
		{name: "delegation for a call never issued", log: logOf(append(ok(21), &runlog.DelegationStarted{DelegationID: "d2", CallID: "c9"})...), reason: errs.CorruptDelegationCall, seq: 22},
		{name: "delegation finished that never started", log: logOf(append(ok(21), &runlog.DelegationFinished{DelegationID: "d9"})...), reason: errs.CorruptDelegationNotRunning, seq: 22},
		{name: "settled in a state that is not final", log: logOf(admitted(), &runlog.Settled{State: runlog.StatusRunning}), reason: errs.CorruptSettleNotFinal, seq: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runlog.Fold("run_1", tc.log)
			var corrupt *errs.CorruptLog
			if !errors.As(err, &corrupt) {
				t.Fatalf("folded without corruption (err %v)", err)
			}
			if corrupt.Reason != tc.reason || corrupt.Seq != tc.seq || corrupt.RunID != "run_1" || corrupt.Detail == "" {
				t.Errorf("got %s at seq %d (%q), want %s at seq %d", corrupt.Reason, corrupt.Seq, corrupt.Detail, tc.reason, tc.seq)
			}
			// The corrupt record is the last: applying it changes nothing.
			before, err := runlog.Fold("run_1", tc.log[:len(tc.log)-1])
			if err != nil {
				t.Fatalf("the log before the corrupt record: %v", err)
			}
			want, _ := json.Marshal(before)
			if err := before.Apply(tc.log[len(tc.log)-1]); err == nil {
				t.Fatal("the corrupt record applied")
			}
			if got, _ := json.Marshal(before); string(got) != string(want) {
				t.Errorf("a corrupt record changed the state:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// TestFoldInPieces: folding a log in random pieces, storing the State as
// JSON between pieces, equals folding it whole.
func TestFoldInPieces(t *testing.T) {
	log := fullLog()
	whole, err := runlog.Fold("run_1", log)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(whole)
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 500; trial++ {
		s := runlog.New("run_1")
		for i := 0; i < len(log); {
			n := 1 + rng.Intn(len(log)-i)
			if err := s.ApplyAll(log[i : i+n]); err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			i += n
			b, _ := json.Marshal(s)
			s = &runlog.State{}
			if err := json.Unmarshal(b, s); err != nil {
				t.Fatal(err)
			}
		}
		got, _ := json.Marshal(s)
		if string(got) != string(want) {
			t.Fatalf("trial %d: pieces differ from whole:\n%s\n%s", trial, got, want)
		}
	}
	// Every prefix also folds the same way through a stored snapshot.
	for n := 1; n <= len(log); n++ {
		direct, err := runlog.Fold("run_1", log[:n])
		if err != nil {
			t.Fatal(err)
		}
		clone := direct.Clone()
		if !reflect.DeepEqual(mustJSON(direct), mustJSON(clone)) {
			t.Fatalf("clone of prefix %d differs", n)
		}
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestEncodeDecode: every record survives the store's encoding.
func TestEncodeDecode(t *testing.T) {
	for _, r := range fullLog() {
		t.Run(r.Op.Kind(), func(t *testing.T) {
			kind, body, err := runlog.Encode(r.Op)
			if err != nil {
				t.Fatal(err)
			}
			back, err := runlog.Decode(kind, body)
			if err != nil {
				t.Fatal(err)
			}
			if mustJSON(back) != mustJSON(r.Op) || back.Kind() != r.Op.Kind() {
				t.Errorf("got %s, want %s", mustJSON(back), mustJSON(r.Op))
			}
		})
	}
	op, err := runlog.Decode("from_the_future", []byte(`{}`))
	if err != nil || op.Kind() != "from_the_future" {
		t.Errorf("unknown kind decoded to %v, %v", op, err)
	}
}
