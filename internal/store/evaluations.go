package store

import (
	"context"
	"time"
)

// Evaluation is a stored evaluation of a candidate Spec Version by replay
// (internal/evaluation). Body is opaque to the store: the evaluation
// package's record of what it replays and how it scores.
type Evaluation struct {
	Tenant       string
	EvaluationID string
	Spec         string
	Version      string
	Body         []byte
	CreateTime   time.Time
}

// Evaluations keeps evaluations. Their replay Runs are ordinary Runs whose
// Run.EvaluationID names them.
type Evaluations interface {
	// PutEvaluation creates an evaluation, or replaces the body of the one
	// with its id.
	PutEvaluation(ctx context.Context, e Evaluation) error
	// GetEvaluation returns an evaluation, found false when the tenant has
	// none with the id.
	GetEvaluation(ctx context.Context, tenant, id string) (Evaluation, bool, error)
	// ListEvaluations lists up to limit of the tenant's evaluations,
	// newest first, those created before (before, beforeID) when
	// beforeID is set.
	ListEvaluations(ctx context.Context, tenant string, before time.Time, beforeID string, limit int) ([]Evaluation, error)
	// DeleteEvaluation deletes an evaluation (not its Runs), found false
	// when there was none.
	DeleteEvaluation(ctx context.Context, tenant, id string) (bool, error)
}
