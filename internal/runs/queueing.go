package runs

import (
	"context"
	"fmt"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

// MaxFairnessKeyBytes bounds a StartRun's fairness key.
const MaxFairnessKeyBytes = 128

// queueing is where a new Run queues for a worker: its priority, its
// fairness key and that key's stride (store.NewRun.FairStride).
type queueing struct {
	Priority    int
	FairnessKey string
	Stride      int64
	// Keyed is the Run's concurrency key, its limit and mode.
	Keyed keyed
}

// queueing is the claim order of the Run req starts: its priority (the
// default when it names none), its fairness key (the tenant when it names
// none) and the key's stride by its weight.
func (m *Manager) queueing(req StartRequest) queueing {
	q := queueing{Priority: req.Priority, FairnessKey: req.FairnessKey, Stride: store.DefaultStride}
	if q.Priority == 0 {
		q.Priority = store.DefaultPriority
	}
	if q.FairnessKey == "" {
		q.FairnessKey = req.Tenant
	}
	if w := m.weights[q.FairnessKey]; w > 1 {
		q.Stride = max(store.DefaultStride/int64(w), 1)
	}
	return q
}

// inherit gives a delegated child Run that names no priority and no
// fairness key its parent's, so that a Run's sub-agents queue as it does;
// a parent that cannot be read leaves the defaults.
func (m *Manager) inherit(ctx context.Context, req StartRequest) StartRequest {
	if req.Parent == nil || req.Priority != 0 || req.FairnessKey != "" {
		return req
	}
	if parent, err := m.store.GetRun(ctx, req.Tenant, req.Parent.RunID); err == nil {
		req.Priority, req.FairnessKey = parent.Priority, parent.FairnessKey
	}
	return req
}

// queueViolations are what is wrong with a start's priority and fairness
// key.
func queueViolations(req StartRequest) []errs.FieldViolation {
	var bad []errs.FieldViolation
	if req.Priority != 0 && (req.Priority < store.MinPriority || req.Priority > store.MaxPriority) {
		bad = append(bad, errs.FieldViolation{Field: "priority", Description: fmt.Sprintf("is %d; it must be between %d and %d, or 0 for the default %d",
			req.Priority, store.MinPriority, store.MaxPriority, store.DefaultPriority)})
	}
	if len(req.FairnessKey) > MaxFairnessKeyBytes {
		bad = append(bad, errs.FieldViolation{Field: "fairness_key", Description: fmt.Sprintf("is %d bytes; at most %d are allowed", len(req.FairnessKey), MaxFairnessKeyBytes)})
	}
	return bad
}
