package service

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/testing/scenario"
)

// updateGolden rewrites the expected files. Only a change that means to
// alter what old Runs read may use it, and the diff says what changed.
var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden/*/expected.json")

// goldenRow is one stored row of the corpus (see
// internal/testing/scenario/golden_write_test.go, built with the goldenwrite tag, which wrote it).
type goldenRow = scenario.GoldenRow

// goldenRun is what one stored Run reads as: what a client sees of its
// records and its row, and what the reducer folds its log into.
type goldenRun struct {
	Tenant  string `json:"tenant"`
	RunID   string `json:"runId"`
	Corrupt any    `json:"corrupt,omitempty"`
	Records []any  `json:"records"`
	Fold    any    `json:"fold"`
	Row     any    `json:"row,omitempty"`
}

// TestGoldenCorpus reads every stored Run of testdata/golden, written by
// the build before the stored format was versioned, and holds this build
// to reading it exactly as that build did: the same records and Run as a
// client sees them, and the same folded state.
func TestGoldenCorpus(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden corpus: %v", err)
	}
	errs.SetFailureEncoder(errdetails.StoredFailure)
	s := &Service{mapper: errdetails.New(errdetails.Options{})}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			got := s.readCorpus(t, dir, false)
			if again := s.readCorpus(t, dir, true); !bytes.Equal(got, again) {
				t.Errorf("%s reads differently once its records are written again in this build's format:\n%s", dir, firstDiff(again, got))
			}
			want := filepath.Join(dir, "expected.json")
			if *updateGolden {
				if err := os.WriteFile(want, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			expected, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, expected) {
				_ = os.WriteFile(filepath.Join(t.TempDir(), "got.json"), got, 0o644)
				t.Errorf("%s reads differently from %s:\n%s", dir, want, firstDiff(got, expected))
			}
		})
	}
}

func readRows(t *testing.T, path string) []goldenRow {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var rows []goldenRow
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// readCorpus reads one corpus directory into its expected form; rewrite
// first encodes every record again in this build's format and decodes it.
func (s *Service) readCorpus(t *testing.T, dir string, rewrite bool) []byte {
	t.Helper()
	return s.readCorpusRows(t, readRows(t, filepath.Join(dir, "records.json")), readRows(t, filepath.Join(dir, "runs.json")), rewrite)
}

// readCorpusRows reads stored rows into their expected form.
func (s *Service) readCorpusRows(t *testing.T, records, runRows []goldenRow, rewrite bool) []byte {
	t.Helper()
	byRun := map[string][]goldenRow{}
	var order []string
	for _, r := range records {
		key := r.Tenant + "/" + r.RunID
		if byRun[key] == nil {
			order = append(order, key)
		}
		byRun[key] = append(byRun[key], r)
	}
	rowOf := map[string]goldenRow{}
	for _, r := range runRows {
		rowOf[r.Tenant+"/"+r.RunID] = r
	}
	var out []goldenRun
	for _, key := range order {
		out = append(out, s.readRun(t, byRun[key], rowOf[key], rewrite))
	}
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

func (s *Service) readRun(t *testing.T, rows []goldenRow, row goldenRow, rewrite bool) goldenRun {
	t.Helper()
	g := goldenRun{Tenant: rows[0].Tenant, RunID: rows[0].RunID}
	var records []runlog.Record
	for _, r := range rows {
		op := decode(t, r.Kind, []byte(r.Body))
		if rewrite {
			kind, body, err := runlog.Encode(op)
			if err != nil {
				t.Fatal(err)
			}
			op = decode(t, kind, body)
		}
		rec := runlog.Record{Seq: r.Seq, Time: time.Unix(0, r.Time).UTC(), Attempt: r.Attempt, Op: op}
		records = append(records, rec)
		g.Records = append(g.Records, protoJSON(t, s.recordToProto(rec)))
	}
	st, err := runlog.Fold(g.RunID, records)
	if err != nil {
		g.Corrupt = protoJSON(t, s.mapper.Proto(err))
	}
	g.Fold = s.foldView(t, st)
	if len(row.Body) > 0 {
		var sum logwriter.Summary
		if err := json.Unmarshal([]byte(row.Body), &sum); err != nil {
			t.Fatalf("%s summary: %v", row.RunID, err)
		}
		if rewrite {
			b, err := json.Marshal(sum)
			if err != nil {
				t.Fatal(err)
			}
			sum = logwriter.Summary{}
			if err := json.Unmarshal(b, &sum); err != nil {
				t.Fatal(err)
			}
		}
		g.Row = protoJSON(t, s.runToProto(runs.Run{Tenant: row.Tenant, RunID: row.RunID, Summary: sum}))
	}
	return g
}

func decode(t *testing.T, kind string, body []byte) runlog.Op {
	t.Helper()
	op, err := runlog.Decode(kind, body)
	if err != nil {
		t.Fatalf("%s record: %v", kind, err)
	}
	return op
}

// foldView is a folded State as the engine and clients use it, with every
// stored failure as the status a client sees and every tool result as the
// text the model sees.
func (s *Service) foldView(t *testing.T, st *runlog.State) map[string]any {
	t.Helper()
	v := map[string]any{
		"seq": st.Seq, "status": st.Status, "abortCause": st.AbortCause, "abort": st.Abort,
		"attempt": st.Attempt, "turn": st.Turn, "createTime": st.CreateTime, "updateTime": st.UpdateTime,
		"settleTime": st.SettleTime, "answer": st.Answer, "usage": st.Usage, "transcript": st.Transcript,
		"suspension": st.Suspension, "queued": st.Queued, "toolCallsIssued": st.ToolCallsIssued,
		"runnable": st.Runnable(), "wakeAt": st.WakeAt(), "turnState": turnView(st),
	}
	if st.Failure != nil {
		v["failure"] = protoJSON(t, s.statusOf(st.Failure))
	}
	if c := st.NextCall(); c != nil {
		v["nextCall"] = c.ID
	}
	var calls []map[string]any
	for _, c := range st.Calls {
		cv := map[string]any{
			"call": c.ToolCall, "turn": c.Turn, "ordinal": c.Ordinal, "finished": c.Finished,
			"output": c.Output, "orphaned": c.Orphaned, "result": c.Result, "answer": c.Answer,
			"approval": c.Approval, "delegationId": c.DelegationID,
		}
		if c.Error != nil {
			cv["error"] = protoJSON(t, s.statusOf(c.Error))
		}
		if c.Finished {
			cv["modelSees"] = runlog.ResultText(c.Name, c.Output, c.Error)
		}
		calls = append(calls, cv)
	}
	v["calls"] = calls
	var dels []map[string]any
	for _, d := range st.Delegations {
		dv := map[string]any{"started": d.DelegationStarted}
		if f := d.Finished; f != nil {
			dv["state"], dv["answer"] = f.State, f.Answer
			if f.Failure != nil {
				dv["failure"] = protoJSON(t, s.statusOf(f.Failure))
			}
		}
		dels = append(dels, dv)
	}
	v["delegations"] = dels
	return v
}

// turnView is where the current turn stands, as the engine reads it.
func turnView(st *runlog.State) map[string]any {
	v := map[string]any{
		"final": st.Final(), "turnAnswered": st.TurnAnswered(), "turnFailures": st.TurnFailures, "lastText": st.LastText,
	}
	if st.Open != nil {
		v["open"] = st.Open
	}
	var started []int
	for _, c := range st.Calls {
		started = append(started, c.StartedAttempt)
	}
	v["callsStartedIn"] = started
	return v
}

// protoJSON renders m as plain JSON, stable across protojson's
// deliberately unstable spacing.
func protoJSON(t *testing.T, m proto.Message) any {
	t.Helper()
	if m == nil {
		return nil
	}
	b, err := protojson.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := 0; i < len(g) && i < len(w); i++ {
		if !bytes.Equal(g[i], w[i]) {
			lo := max(0, i-3)
			return "line " + itoa(i+1) + "\n got: " + string(bytes.Join(g[lo:min(len(g), i+3)], []byte("\n"))) + "\nwant: " + string(bytes.Join(w[lo:min(len(w), i+3)], []byte("\n")))
		}
	}
	return "lengths differ"
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
