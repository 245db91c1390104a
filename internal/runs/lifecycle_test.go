package runs_test

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/spec"
)

// export is a Run's export, one line each.
func (h *harness) export(t *testing.T, runID string) [][]byte {
	t.Helper()
	var lines [][]byte
	if err := h.m.Export(ctxOf(t), tenant, runID, func(line []byte) error {
		lines = append(lines, bytes.Clone(line))
		return nil
	}); err != nil {
		t.Fatalf("Export(%s): %v", runID, err)
	}
	return lines
}

// importLines imports an export's lines into h.
func (h *harness) importLines(t *testing.T, lines [][]byte) (runs.Run, bool, error) {
	t.Helper()
	i := 0
	return h.m.Import(ctxOf(t), tenant, func() ([]byte, error) {
		if i == len(lines) {
			return nil, io.EOF
		}
		i++
		return lines[i-1], nil
	})
}

// TestExportImport: a settled Run exported from one store and imported
// into another reads the same there (its row and its log); importing it
// again returns the same Run; the import is read-only; an active Run's
// export is refused; the import's export is the export.
func TestExportImport(t *testing.T) {
	src, dst := newHarness(t), newHarness(t)
	active := src.start(t, "look this up", "", "")
	activeLines := src.export(t, active.RunID)
	src.finish(t, active.RunID, 2)
	lines := src.export(t, active.RunID)

	if _, _, err := dst.importLines(t, activeLines); !isA[*errs.InvalidRequest](err) {
		t.Errorf("importing an active Run: %v, want InvalidRequest", err)
	}
	run, created, err := dst.importLines(t, lines)
	if err != nil || !created {
		t.Fatalf("Import = created %v, %v", created, err)
	}
	want := src.get(t, active.RunID)
	if got := dst.get(t, run.RunID); got.Status != want.Status || got.Answer != want.Answer || got.LastSeq != want.LastSeq || !got.CreateTime.Equal(want.CreateTime) {
		t.Errorf("imported Run %+v, want %+v", got, want)
	}
	if !sameLog(src.rawLog(t, run.RunID), dst.rawLog(t, run.RunID)) {
		t.Error("the imported log differs from the exported one")
	}
	if again, created, err := dst.importLines(t, lines); err != nil || created || again.RunID != run.RunID {
		t.Errorf("importing again = %s created %v, %v; want the same Run, not created", again.RunID, created, err)
	}
	if _, err := dst.m.SendMessage(ctxOf(t), tenant, run.RunID, "more", runlog.ModeFollowUp); !isA[*errs.RunAlreadySettled](err) {
		t.Errorf("SendMessage to the import: %v, want RunAlreadySettled", err)
	}
	again := dst.export(t, run.RunID)
	if len(again) != len(lines) {
		t.Fatalf("the import's export has %d lines, the export %d", len(again), len(lines))
	}
	for i := range lines {
		if !bytes.Equal(again[i], lines[i]) {
			t.Errorf("line %d of the import's export differs:\n%s\n%s", i+1, again[i], lines[i])
		}
	}
}

// TestDeleteRun: an active Run is not deleted unless interrupt, which
// settles it first; a settled one is deleted and then not found; an
// unknown one is not found.
func TestDeleteRun(t *testing.T) {
	h := newHarness(t)
	ctx := ctxOf(t)
	active := h.start(t, "one", "", "")
	if err := h.m.Delete(ctx, tenant, active.RunID, false); !isA[*errs.RunNotSettled](err) {
		t.Fatalf("deleting an active Run: %v, want RunNotSettled", err)
	}
	if got := h.get(t, active.RunID); got.Settled() {
		t.Errorf("a refused delete left the Run %s", got.Status)
	}
	if err := h.m.Delete(ctx, tenant, active.RunID, true); err != nil {
		t.Fatalf("deleting an active Run with interrupt: %v", err)
	}
	settled := h.start(t, "two", "", "")
	h.finish(t, settled.RunID, 1)
	if err := h.m.Delete(ctx, tenant, settled.RunID, false); err != nil {
		t.Fatalf("deleting a settled Run: %v", err)
	}
	for _, id := range []string{active.RunID, settled.RunID, "run_missing"} {
		if _, err := h.m.Get(ctx, tenant, id); !isA[*errs.RunNotFound](err) {
			t.Errorf("Get(%s) after delete: %v, want RunNotFound", id, err)
		}
		if err := h.m.Delete(ctx, tenant, id, false); !isA[*errs.RunNotFound](err) {
			t.Errorf("Delete(%s) again: %v, want RunNotFound", id, err)
		}
	}
}

// TestDeleteThread: a thread with an active or waiting Run is not deleted
// unless interrupt; then every Run of it and the thread go.
func TestDeleteThread(t *testing.T) {
	h := newHarness(t)
	ctx := ctxOf(t)
	first := h.start(t, "one", "th", "")
	h.finish(t, first.RunID, 1)
	second := h.start(t, "two", "th", "")
	waiting := h.start(t, "three", "th", runs.StrategyEnqueue)
	if _, err := h.m.DeleteThread(ctx, tenant, "th", false); !isA[*errs.RunNotSettled](err) {
		t.Fatalf("deleting a busy thread: %v, want RunNotSettled", err)
	}
	if got := h.get(t, first.RunID); got.RunID != first.RunID {
		t.Fatalf("a refused thread delete removed %s", first.RunID)
	}
	n, err := h.m.DeleteThread(ctx, tenant, "th", true)
	if err != nil || n != 3 {
		t.Fatalf("DeleteThread with interrupt = %d, %v; want 3 Runs", n, err)
	}
	for _, id := range []string{first.RunID, second.RunID, waiting.RunID} {
		if _, err := h.m.Get(ctx, tenant, id); !isA[*errs.RunNotFound](err) {
			t.Errorf("Get(%s) after the thread's delete: %v, want RunNotFound", id, err)
		}
	}
	if _, err := h.m.GetThread(ctx, tenant, "th"); !isA[*errs.ThreadNotFound](err) {
		t.Errorf("GetThread after delete: %v, want ThreadNotFound", err)
	}
	if _, err := h.m.DeleteThread(ctx, tenant, "th", false); !isA[*errs.ThreadNotFound](err) {
		t.Errorf("deleting it again: %v, want ThreadNotFound", err)
	}
}

// TestSweep: the sweep deletes settled Runs past their retention (the
// Spec's when it sets one, else the server's) and keeps the rest, active
// Runs whatever their age included.
func TestSweep(t *testing.T) {
	h := newHarness(t)
	h.publish(t, spec.Spec{Name: "brief", Retention: &spec.Retention{SettledRuns: time.Minute}, Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "ok"}}}})
	old := h.start(t, "old", "", "")
	h.finish(t, old.RunID, 1)
	brief, _, err := h.m.Start(ctxOf(t), runs.StartRequest{Tenant: tenant, Spec: "brief", Input: "brief"})
	if err != nil {
		t.Fatal(err)
	}
	h.finish(t, brief.RunID, 1)
	active := h.start(t, "active", "", "")
	h.clk.Advance(30 * time.Minute)
	recent := h.start(t, "recent", "", "")
	h.finish(t, recent.RunID, 1)

	sw := h.m.NewSweeper(runs.SweepConfig{Retention: 20 * time.Minute, Batch: 1, Pause: -1}, nil)
	n, err := sw.Sweep(ctxOf(t))
	if err != nil || n != 2 {
		t.Fatalf("Sweep = %d, %v; want the 2 Runs past their retention", n, err)
	}
	for id, kept := range map[string]bool{old.RunID: false, brief.RunID: false, active.RunID: true, recent.RunID: true} {
		_, err := h.m.Get(ctxOf(t), tenant, id)
		if gone := isA[*errs.RunNotFound](err); gone == kept || (err != nil && !gone) {
			t.Errorf("after the sweep, Get(%s) = %v; want kept %v", id, err, kept)
		}
	}
	if n, err := sw.Sweep(ctxOf(t)); err != nil || n != 0 {
		t.Errorf("a second sweep = %d, %v; want nothing to delete", n, err)
	}
}
