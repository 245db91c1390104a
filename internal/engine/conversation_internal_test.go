package engine

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runlog/logtest"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/store"
)

// TestIncrementalConversationIsTheFullRebuild is issue 30's property:
// for random logs and the golden corpus's, folded a Record at a time
// through Attempts that end, start again from the Engine's kept
// conversation, or start from a fresh fold, the State equals a full fold
// of the log so far and the conversation the model gets equals one
// rebuilt from the whole transcript.
func TestIncrementalConversationIsTheFullRebuild(t *testing.T) {
	logs := goldenLogs(t)
	for i := range 300 {
		rng := rand.New(rand.NewPCG(uint64(i), 30))
		logs["random "+strconv.Itoa(i)] = logtest.Random(rng, "run_r", 5+rng.IntN(120))
	}
	for name, recs := range logs {
		rng := rand.New(rand.NewPCG(uint64(len(recs)), 2))
		e := &Engine{}
		history := []runlog.Message{{Role: runlog.RoleUser, Text: "earlier"}, {Role: runlog.RoleAssistant, Text: "before"}}
		histories := [][]runlog.Message{nil, history, history[:1]}
		sv := &spec.Version{Spec: spec.Spec{Instructions: "Be brief."}}
		runID := recs[0].Op.(*runlog.Admitted).RootRunID
		a := &attempt{held: &held{e: e, lease: &store.Lease{Tenant: "default", RunID: runID}}, spec: sv}
		st := runlog.New(runID)
		for k, r := range recs {
			if err := st.Apply(r); err != nil {
				break // the golden corpus holds corrupt logs too: as far as they fold
			}
			a.state = st
			switch rng.IntN(6) {
			case 0: // the Attempt ends and the next goes on from what it kept
				a.keepConversation()
				a = &attempt{held: a.held, spec: sv, history: a.history}
			case 1: // the next Attempt folds the log afresh (the State was not kept)
				a.keepConversation()
				fresh, err := runlog.Fold(runID, recs[:k+1])
				if err != nil {
					t.Fatalf("%s: a prefix of a log that folds is corrupt: %v", name, err)
				}
				st = fresh
				a = &attempt{held: a.held, spec: sv, history: a.history, state: st}
			case 2: // rarely, the thread's history or the instructions change
				if rng.IntN(8) == 0 {
					a.history = histories[rng.IntN(len(histories))]
					sv.Instructions = []string{"", "Be brief.", "Be long."}[rng.IntN(3)]
				}
			}
			whole, _ := runlog.Fold(runID, recs[:k+1])
			if !sameJSON(t, st, whole) {
				t.Fatalf("%s, record %d: the State folded a Record at a time differs from the full fold", name, k+1)
			}
			want := rebuilt(a, whole)
			if got := a.messages(st); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, record %d (%s): conversation\n got %+v\nwant %+v", name, k+1, r.Op.Kind(), got, want)
			}
		}
	}
}

// rebuilt is the conversation built from the whole transcript, as the
// model got it before it was kept from turn to turn.
func rebuilt(a *attempt, st *runlog.State) []model.Message {
	var msgs []model.Message
	if a.spec.Instructions != "" {
		msgs = append(msgs, model.Message{Role: model.RoleSystem, Text: a.spec.Instructions})
	}
	msgs = append(msgs, summarised(a.history, st)...)
	if len(msgs) == 0 {
		return nil
	}
	return msgs
}

func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	x, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(x, y)
}

// goldenLogs reads every Run's log of the golden corpus
// (testdata/golden/*/records.json), by corpus and Run.
func goldenLogs(t *testing.T) map[string][]runlog.Record {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*", "records.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden corpus: %v", err)
	}
	out := map[string][]runlog.Record{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var rows []struct {
			RunID   string `json:"runId"`
			Seq     int64  `json:"seq"`
			Time    int64  `json:"time"`
			Attempt int    `json:"attempt"`
			Kind    string `json:"kind"`
			Body    string `json:"body"`
		}
		if err := json.Unmarshal(b, &rows); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		byRun := map[string][]store.Record{}
		for _, r := range rows {
			byRun[r.RunID] = append(byRun[r.RunID], store.Record{Seq: r.Seq, Time: time.Unix(0, r.Time).UTC(), Attempt: r.Attempt, Kind: r.Kind, Body: []byte(r.Body)})
		}
		for id, stored := range byRun {
			recs, _ := logwriter.FromStore(id, stored)
			if len(recs) == 0 || recs[0].Seq != 1 {
				continue
			}
			if _, ok := recs[0].Op.(*runlog.Admitted); !ok {
				continue
			}
			out[filepath.Base(filepath.Dir(f))+"/"+id] = recs
		}
	}
	return out
}
