package runlog_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
)

// fuzzRecords reads a log written one record a line as `kind {json body}`,
// numbered from seq 1; a line starting `@N ` takes seq N instead. Lines
// whose body does not decode are dropped, as a store would refuse them.
func fuzzRecords(data []byte) []runlog.Record {
	base := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	var out []runlog.Record
	for i, line := range bytes.Split(data, []byte("\n")) {
		seq := int64(i + 1)
		if rest, ok := bytes.CutPrefix(line, []byte("@")); ok {
			num, after, _ := bytes.Cut(rest, []byte(" "))
			n, err := strconv.ParseInt(string(num), 10, 64)
			if err != nil {
				continue
			}
			seq, line = n, after
		}
		kind, body, _ := bytes.Cut(line, []byte(" "))
		op, err := runlog.Decode(string(kind), body)
		if err != nil {
			continue
		}
		out = append(out, runlog.Record{Seq: seq, Time: base.Add(time.Duration(i) * time.Second), Op: op})
	}
	return out
}

// FuzzFold: any sequence of records folds, or is *errs.CorruptLog; it
// never panics, and folding in two pieces through a stored State equals
// folding it whole.
func FuzzFold(f *testing.F) {
	f.Add([]byte(`admitted {"tenant":"default","spec":"s","version":"v1","input":"hi","rootRunId":"run_1"}
attempt_started {"attempt":1,"workerId":"w1"}
turn_started {"turn":1}
model_call_started {"turn":1}
model_call_finished {"turn":1,"text":"done"}
settled {"state":"COMPLETED","answer":"done"}`))
	f.Add([]byte("admitted {}\n@5 turn_started {\"turn\":1}"))
	f.Add([]byte("from_the_future {}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		records := fuzzRecords(data)
		whole, err := runlog.Fold("run_1", records)
		var corrupt *errs.CorruptLog
		if err != nil && !errors.As(err, &corrupt) {
			t.Fatalf("fold failed with %T %v, not CorruptLog", err, err)
		}
		if err != nil || len(records) < 2 {
			return
		}
		half := len(records) / 2
		first, err := runlog.Fold("run_1", records[:half])
		if err != nil {
			t.Fatalf("a prefix of a good log is corrupt: %v", err)
		}
		stored, err := json.Marshal(first)
		if err != nil {
			t.Fatalf("state does not encode: %v", err)
		}
		resumed := &runlog.State{}
		if err := json.Unmarshal(stored, resumed); err != nil {
			t.Fatalf("stored state does not decode: %v", err)
		}
		if err := resumed.ApplyAll(records[half:]); err != nil {
			t.Fatalf("the rest of a good log is corrupt after a stored state: %v", err)
		}
		want, _ := json.Marshal(whole)
		got, _ := json.Marshal(resumed)
		if !bytes.Equal(want, got) {
			t.Fatalf("pieces differ from whole:\n%s\n%s", got, want)
		}
	})
}
