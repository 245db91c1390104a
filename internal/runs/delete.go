package runs

import (
	"context"
	"errors"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// SettledStates are the states a Run's index shows once it settled.
var SettledStates = []string{
	string(runlog.StatusCompleted), string(runlog.StatusFailed),
	string(runlog.StatusAborted), string(runlog.StatusAbandoned),
}

// interruptWait bounds how long a delete with interrupt waits for the
// interrupted Run to settle.
const interruptWait = 10 * time.Second

// FamilyNamespace is the memory namespace of the Run family rooted at
// rootRunID (memory.Service.FamilyNamespace names the same).
func FamilyNamespace(rootRunID string) string { return "family/" + rootRunID }

// Delete deletes a settled Run for good (store.Lifecycle.DeleteRuns), with
// the family memory it roots when its Spec's retention says so. An active
// Run fails *errs.RunNotSettled and nothing changes, unless interrupt:
// then it is interrupted and deleted once settled. *errs.RunNotFound for
// an unknown Run. Threads (issue 15) do not exist yet; deleting one will
// be DeleteThread over the Runs it lists, each through Delete.
func (m *Manager) Delete(ctx context.Context, tenant, runID string, interrupt bool) error {
	if runID == "" {
		return errs.BadField("run_id", "is required")
	}
	for try := 0; ; try++ {
		row, err := m.store.GetRun(ctx, tenant, runID)
		if err != nil {
			return err
		}
		if !runlog.Status(row.Index.State).Settled() {
			if !interrupt || try > 0 {
				return &errs.RunNotSettled{RunID: runID, State: row.Index.State, Action: "be deleted"}
			}
			if _, err := m.Interrupt(ctx, tenant, runID, "deleted"); err != nil {
				return err
			}
			if _, err := m.WaitSettled(ctx, tenant, runID, interruptWait); err != nil {
				return err
			}
			continue
		}
		deleted, err := m.store.DeleteRuns(ctx, []store.RunDeletion{m.deletion(ctx, row)})
		if err != nil {
			return err
		}
		if len(deleted) == 1 {
			m.deleted.Add(1)
			return nil
		}
		if try >= 3 {
			// Its log kept moving: something still writes to it.
			return &errs.RunNotSettled{RunID: runID, State: row.Index.State, Action: "be deleted while its log grows"}
		}
	}
}

// deletion is what deleting a settled Run removes: the Run, and its
// family's memory when it roots the family and its Spec says so.
func (m *Manager) deletion(ctx context.Context, row store.Run) store.RunDeletion {
	d := store.RunDeletion{Tenant: row.Tenant, RunID: row.RunID, LastSeq: row.LastSeq}
	if row.RootRunID != row.RunID {
		return d
	}
	sv, err := m.specs.Get(ctx, row.Tenant, row.Spec, row.Version)
	if err == nil && sv.Retention != nil && sv.Retention.DeleteMemory {
		d.Namespaces = []string{FamilyNamespace(row.RunID)}
	}
	return d
}

// DeleteSpecRuns deletes every Run of a Spec (any Version), each as Delete
// would, page by page, and returns how many it deleted. Without interrupt
// it fails *errs.RunNotSettled at the first active Run, having deleted the
// settled ones before it; with interrupt it interrupts the active ones.
func (m *Manager) DeleteSpecRuns(ctx context.Context, tenant, specName string, interrupt bool) (int64, error) {
	if _, err := m.specs.Get(ctx, tenant, specName, ""); err != nil {
		return 0, err
	}
	var n int64
	for {
		page, _, err := m.store.ListRuns(ctx, tenant, store.RunQuery{Spec: specName, PageSize: 100})
		if err != nil || len(page) == 0 {
			return n, err
		}
		for _, r := range page {
			err := m.Delete(ctx, tenant, r.RunID, interrupt)
			var nf *errs.RunNotFound
			switch {
			case err == nil:
				n++
			case !errors.As(err, &nf):
				return n, err
			}
		}
	}
}
