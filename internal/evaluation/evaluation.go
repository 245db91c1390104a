// Package evaluation evaluates a candidate Spec Version by replaying
// recorded Runs on it (DESIGN §13): each recorded, settled Run chosen is
// re-run as a sandboxed replay Run (runlog.Replay; the engine answers its
// tool calls from the recording and fences the others), and the replays
// are scored against their recordings by the evaluators the caller names.
// A Service also gates alias moves on an evaluation's score (Check).
package evaluation

import (
	"context"
	"encoding/json"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/store"
)

// Runs is what a Service needs of the Run manager: replays and judges are
// ordinary Runs in the evaluation's namespace.
type Runs interface {
	Start(ctx context.Context, req runs.StartRequest) (runs.Run, bool, error)
	Get(ctx context.Context, tenant, runID string) (runs.Run, error)
	List(ctx context.Context, tenant string, q store.RunQuery) ([]runs.Run, string, error)
	Delete(ctx context.Context, tenant, runID string, interrupt bool) error
}

// Logs reads Run logs.
type Logs interface {
	ReadLog(ctx context.Context, tenant, runID string, from int64, limit int) ([]store.Record, error)
}

// Deps are what a Service works with.
type Deps struct {
	Store store.Evaluations
	Runs  Runs
	Logs  Logs
	Clock clock.Clock
}

// Service starts, reports, lists and deletes evaluations.
type Service struct{ d Deps }

// New returns a Service.
func New(d Deps) *Service {
	if d.Clock == nil {
		d.Clock = clock.Real{}
	}
	return &Service{d: d}
}

// Request asks for an evaluation of the candidate Spec@Version.
type Request struct {
	Tenant     string
	Spec       string
	Version    string
	Select     Selection
	Evaluators []Evaluator
}

// Selection picks recorded, settled Runs: RunIDs, or those of Spec (the
// candidate's when empty), of ThreadID when set, created in [Start, End)
// when set, newest first, at most Limit (MaxRuns when 0).
type Selection struct {
	RunIDs   []string
	Spec     string
	ThreadID string
	Start    time.Time
	End      time.Time
	Limit    int
}

// MaxRuns bounds the Runs one evaluation replays.
const MaxRuns = 500

// MaxEvaluators bounds the evaluators one evaluation scores each replay
// with.
const MaxEvaluators = 16

// The kinds of Evaluator.
const (
	KindExact      = "exact"
	KindJSONSchema = "json_schema"
	KindRegex      = "regex"
	KindJSONPath   = "json_path"
	KindLLMJudge   = "llm_judge"
)

// Evaluator scores a replay's answer against the recorded one, 0 to 1.
type Evaluator struct {
	Name string `json:"name,omitempty"`
	Kind string `json:"kind"`
	// Schema is KindJSONSchema's JSON Schema.
	Schema json.RawMessage `json:"schema,omitempty"`
	// Pattern is KindRegex's RE2 expression.
	Pattern string `json:"pattern,omitempty"`
	// Path is KindJSONPath's path ($.a.b[0]).
	Path string `json:"path,omitempty"`
	// JudgeSpec and JudgeVersion are KindLLMJudge's Spec.
	JudgeSpec    string `json:"judgeSpec,omitempty"`
	JudgeVersion string `json:"judgeVersion,omitempty"`
}

// Label is the evaluator's name in a report.
func (e Evaluator) Label() string {
	if e.Name != "" {
		return e.Name
	}
	return e.Kind
}

// Outcome is how a Run settled.
type Outcome struct {
	State  string `json:"state"`
	Reason string `json:"reason,omitempty"`
	Answer string `json:"answer,omitempty"`
}

// Usage is what Runs consumed.
type Usage struct {
	InputTokens  int64         `json:"inputTokens,omitempty"`
	OutputTokens int64         `json:"outputTokens,omitempty"`
	Cost         float64       `json:"cost,omitempty"`
	Latency      time.Duration `json:"latency,omitempty"`
}

func (u *Usage) add(o Usage) {
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.Cost += o.Cost
	u.Latency += o.Latency
}

// Item is one recorded Run of an evaluation and its replay, with the
// recording's outcome as it was when the evaluation started.
type Item struct {
	SourceRunID string  `json:"sourceRunId"`
	ReplayRunID string  `json:"replayRunId"`
	Input       string  `json:"input,omitempty"`
	Recorded    Outcome `json:"recorded"`
	Usage       Usage   `json:"usage"`
}

// Evaluation is an evaluation and, from Get, its report.
type Evaluation struct {
	ID         string
	Spec       string
	Version    string
	Evaluators []Evaluator
	CreateTime time.Time
	Items      []Item
	// Done, Summary and Runs are the report, as the replays stand.
	Done    bool
	Summary Summary
	Runs    []RunReport
}
