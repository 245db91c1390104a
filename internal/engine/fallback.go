package engine

import (
	"context"
	"errors"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/spec"
)

// chainAnswer is which model of the chain answered a call, and the models
// tried before it with the failures that moved the call on.
type chainAnswer struct {
	model spec.Model
	tried []runlog.ModelFallback
}

// completeChain makes the call on the Spec's model (whose provider is
// primary) and, while it fails in a way the Spec falls back on, on each of
// its fallbacks in order. The last failure is the call's when every model
// failed, or the first one that does not fall back.
func (a *attempt) completeChain(ctx context.Context, turn int, primary model.Model, req model.Request) (model.Response, chainAnswer, error) {
	chain := a.spec.Model.Chain()
	var ans chainAnswer
	for i, m := range chain {
		provider, err := primary, error(nil)
		if i > 0 {
			provider, err = a.fallbackRequest(ctx, m, &req)
		}
		var resp model.Response
		if err == nil {
			obsCtx, observed := a.e.Observer.StartModelCall(ctx, ModelCallInfo{RunID: a.state.RunID, Spec: a.spec.Name, Turn: turn, Model: m})
			resp, err = provider.Complete(obsCtx, req)
			observed(resp, err)
		}
		ans.model = m
		if err == nil || i == len(chain)-1 || ctx.Err() != nil || !fallsBack(a.spec.Model, err) {
			return resp, ans, err
		}
		ans.tried = append(ans.tried, runlog.ModelFallback{Model: m.Name(), Failure: errs.Store(err, "")})
		a.log.Info("model call failed; falling back", "turn", turn, "from", m.Name(), "to", chain[i+1].Name(), "err", err)
	}
	panic("unreachable: a chain holds at least the Spec's model")
}

// fallbackRequest points req at the fallback m, with m's credential, and
// returns m's provider.
func (a *attempt) fallbackRequest(ctx context.Context, m spec.Model, req *model.Request) (model.Model, error) {
	provider, ok := a.e.Models[m.Provider]
	if !ok {
		return nil, &errs.DependencyMissing{Dependency: "model provider " + m.Provider, Description: "this runsvc has no such provider"}
	}
	req.Model, req.APIKey = m, ""
	if name := m.APIKeyCredential; name != "" {
		key, err := a.e.Secrets.Resolve(ctx, secret.Scope(a.state.Admission.Tenant, a.spec.Name), name)
		if err != nil {
			return nil, err
		}
		req.APIKey = key
	}
	return provider, nil
}

// fallsBack reports whether a call that failed with err moves to the next
// model: a transient failure, a rate limit asking to wait longer than
// the Spec's threshold, a missing provider or credential of a fallback,
// and a rejection when the Spec says so. A context-length refusal does
// not: the engine compacts instead.
func fallsBack(m spec.Model, err error) bool {
	var tooLong *model.ContextLengthExceeded
	if errors.As(err, &tooLong) {
		return false
	}
	var (
		failed   *errs.InferenceFailed
		limited  *errs.InferenceRateLimited
		rejected *errs.InferenceRejected
		missing  *errs.DependencyMissing
		noKey    *errs.CredentialNotFound
	)
	switch {
	case errors.As(err, &failed), errors.As(err, &missing), errors.As(err, &noKey):
		return true
	case errors.As(err, &limited):
		return limited.RetryAfter > m.RetryAfterOver()
	case errors.As(err, &rejected):
		return m.FallbackOnRejected
	}
	return false
}
