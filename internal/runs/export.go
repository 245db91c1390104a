package runs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/logwriter"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// ExportFormat names the export format of docs/export.md; a format change
// that an older import cannot read gets a new name.
const ExportFormat = "runsvc.run.v1"

// exportPage is how many Records an export reads at once.
const exportPage = 500

// ExportHeader is an export's first line: the Run and its Spec Version.
type ExportHeader struct {
	Format string     `json:"format"`
	Run    ExportRun  `json:"run"`
	Spec   ExportSpec `json:"spec"`
}

// ExportRun is the Run's row as the store keeps it, without its tenant.
type ExportRun struct {
	RunID        string    `json:"runId"`
	Spec         string    `json:"spec"`
	Version      string    `json:"version"`
	RequestID    string    `json:"requestId,omitempty"`
	RequestHash  string    `json:"requestHash,omitempty"`
	ParentRunID  string    `json:"parentRunId,omitempty"`
	RootRunID    string    `json:"rootRunId"`
	DelegationID string    `json:"delegationId,omitempty"`
	State        string    `json:"state"`
	LastSeq      int64     `json:"lastSeq"`
	CreateTime   time.Time `json:"createTime"`
	UpdateTime   time.Time `json:"updateTime"`
}

// ExportSpec is the Spec Version the Run runs, its body as stored.
type ExportSpec struct {
	Name       string          `json:"name"`
	Version    string          `json:"version"`
	CreateTime time.Time       `json:"createTime"`
	Body       json.RawMessage `json:"body"`
}

// ExportRecord is one Record line; Body is the Record's stored JSON.
type ExportRecord struct {
	Seq     int64           `json:"seq"`
	Time    time.Time       `json:"time"`
	Attempt int             `json:"attempt"`
	Kind    string          `json:"kind"`
	Body    json.RawMessage `json:"body"`
}

// Export writes a Run's log, as far as it went when the export began,
// with its Spec Version, one JSON line per call of emit (docs/export.md).
// *errs.RunNotFound for an unknown Run.
func (m *Manager) Export(ctx context.Context, tenant, runID string, emit func(line []byte) error) error {
	if runID == "" {
		return errs.BadField("run_id", "is required")
	}
	row, err := m.store.GetRun(ctx, tenant, runID)
	if err != nil {
		return err
	}
	sp, err := m.store.GetSpec(ctx, tenant, row.Spec, row.Version)
	if err != nil {
		return err
	}
	head := ExportHeader{Format: ExportFormat, Run: ExportRun{
		RunID: row.RunID, Spec: row.Spec, Version: row.Version, RequestID: row.RequestID, RequestHash: row.RequestHash,
		ParentRunID: row.ParentRunID, RootRunID: row.RootRunID, DelegationID: row.DelegationID, State: row.Index.State,
		LastSeq: row.LastSeq, CreateTime: row.CreateTime.UTC(), UpdateTime: row.UpdateTime.UTC(),
	}, Spec: ExportSpec{Name: sp.Name, Version: sp.Version, CreateTime: sp.CreateTime.UTC(), Body: sp.Body}}
	if err := emitJSON(emit, head); err != nil {
		return err
	}
	for from := int64(1); from <= row.LastSeq; {
		recs, err := m.store.ReadLog(ctx, tenant, runID, from, exportPage)
		if err != nil {
			return err
		}
		if len(recs) == 0 {
			return fmt.Errorf("run %s: log ends at seq %d before its last seq %d", runID, from-1, row.LastSeq)
		}
		for _, r := range recs {
			if r.Seq > row.LastSeq {
				return nil
			}
			if err := emitJSON(emit, ExportRecord{Seq: r.Seq, Time: r.Time.UTC(), Attempt: r.Attempt, Kind: r.Kind, Body: r.Body}); err != nil {
				return err
			}
			from = r.Seq + 1
		}
	}
	return nil
}

func emitJSON(emit func([]byte) error, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return emit(b)
}

// Import reads an export, one line per call of next (io.EOF after the
// last), into the tenant as a settled Run with the export's id, log and
// Spec Version; being settled, it takes no more work (read-only). The
// same export imported again returns the Run with created false. An
// export that does not decode, whose log does not fold to a settled Run,
// or whose Run id or request id another Run holds here is
// *errs.InvalidRequest.
func (m *Manager) Import(ctx context.Context, tenant string, next func() ([]byte, error)) (Run, bool, error) {
	head, recs, err := readExport(next)
	if err != nil {
		return Run{}, false, err
	}
	st, err := foldImport(head, recs)
	if err != nil {
		return Run{}, false, err
	}
	if existing, err := m.store.GetRun(ctx, tenant, head.Run.RunID); err == nil {
		return m.sameImport(ctx, existing, head, recs)
	} else if !isRunNotFound(err) {
		return Run{}, false, err
	}
	if _, err := m.specs.Import(ctx, "line[1].spec", store.Spec{
		Tenant: tenant, Name: head.Spec.Name, Version: head.Spec.Version, Body: head.Spec.Body, CreateTime: head.Spec.CreateTime,
	}); err != nil {
		return Run{}, false, err
	}
	h := head.Run
	row, created, err := m.store.CreateRun(ctx, store.NewRun{Run: store.Run{
		Tenant: tenant, RunID: h.RunID, Spec: h.Spec, Version: h.Version, RequestID: h.RequestID, RequestHash: h.RequestHash,
		ParentRunID: h.ParentRunID, RootRunID: h.RootRunID, DelegationID: h.DelegationID,
		CreateTime: h.CreateTime, UpdateTime: h.UpdateTime, Index: logwriter.Index(st),
	}, Records: recs, Ends: logwriter.Ends(recs)})
	if err != nil {
		return Run{}, false, err
	}
	m.started(h.Spec, created)
	if !created {
		return Run{}, false, errs.BadField("line[1].run.requestId", "request id %q started run %s here already", h.RequestID, row.RunID)
	}
	run, err := fromStoreRun(row)
	return run, true, err
}

// readExport decodes an export's lines.
func readExport(next func() ([]byte, error)) (ExportHeader, []store.Record, error) {
	var head ExportHeader
	first, err := next()
	if errors.Is(err, io.EOF) {
		return head, nil, errs.BadField("line[1]", "is missing: the export is empty")
	}
	if err != nil {
		return head, nil, err
	}
	if err := strictJSON(first, &head); err != nil || head.Format != ExportFormat {
		return head, nil, errs.BadField("line[1]", "is not a %s header: %v", ExportFormat, err)
	}
	var recs []store.Record
	for n := 2; ; n++ {
		line, err := next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return head, nil, err
		}
		var r ExportRecord
		if err := strictJSON(line, &r); err != nil {
			return head, nil, errs.BadField(fmt.Sprintf("line[%d]", n), "is not a record: %v", err)
		}
		if r.Seq != int64(len(recs))+1 {
			return head, nil, errs.BadField(fmt.Sprintf("line[%d].seq", n), "is %d, expected %d: seqs run from 1 without gaps", r.Seq, len(recs)+1)
		}
		recs = append(recs, store.Record{Seq: r.Seq, Time: r.Time, Attempt: r.Attempt, Kind: r.Kind, Body: r.Body})
	}
	if int64(len(recs)) != head.Run.LastSeq || len(recs) == 0 {
		return head, nil, errs.BadField("line[1].run.lastSeq", "is %d but the export has %d records", head.Run.LastSeq, len(recs))
	}
	return head, recs, nil
}

func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// foldImport folds an export's log: it must fold cleanly to a settled Run
// of the header's id, Spec and Version.
func foldImport(head ExportHeader, recs []store.Record) (*runlog.State, error) {
	h := head.Run
	if h.RunID == "" || h.Spec != head.Spec.Name || h.Version != head.Spec.Version {
		return nil, errs.BadField("line[1].run", "must name the run and the Spec Version in line[1].spec")
	}
	decoded, err := logwriter.FromStore(h.RunID, recs)
	if err != nil {
		return nil, errs.BadField("log", "does not decode: %v", err)
	}
	st := runlog.New(h.RunID)
	if err := st.ApplyAll(decoded); err != nil {
		return nil, errs.BadField("log", "does not fold: %v", err)
	}
	if !st.Settled() {
		return nil, errs.BadField("line[1].run.state", "the Run is %s: only a settled Run can be imported", st.Status)
	}
	if st.Admission == nil || st.Admission.Spec != h.Spec || st.Admission.Version != h.Version {
		return nil, errs.BadField("log", "its admission does not name the Spec Version of line[1]")
	}
	return st, nil
}

// sameImport returns the Run an identical earlier import created, or
// *errs.InvalidRequest when the Run here is another one.
func (m *Manager) sameImport(ctx context.Context, existing store.Run, head ExportHeader, recs []store.Record) (Run, bool, error) {
	bad := errs.BadField("line[1].run.runId", "run %s exists here with another log", existing.RunID)
	if existing.LastSeq != head.Run.LastSeq || existing.Version != head.Run.Version {
		return Run{}, false, bad
	}
	have, err := m.store.ReadLog(ctx, existing.Tenant, existing.RunID, 1, 0)
	if err != nil {
		return Run{}, false, err
	}
	for i, r := range have {
		w := recs[i]
		if r.Seq != w.Seq || !r.Time.Equal(w.Time) || r.Kind != w.Kind || !bytes.Equal(r.Body, w.Body) {
			return Run{}, false, bad
		}
	}
	run, err := fromStoreRun(existing)
	return run, false, err
}

func isRunNotFound(err error) bool {
	var nf *errs.RunNotFound
	return errors.As(err, &nf)
}
