package engine

import (
	"context"

	"github.com/runsvc/runsvc/internal/secret"
)

// knowCredentials resolves every credential the Run's Spec names before
// the Run calls anything, so that a scrubbing resolver (secret.Scrubber's
// Watch) knows them all before any tool, server or model can echo one back,
// even through a call that is not given it. A credential that does not
// resolve is left to the call that needs it to report.
func (a *attempt) knowCredentials(ctx context.Context) {
	scope := secret.Scope(a.state.Admission.Tenant, a.spec.Name)
	names := append([]string(nil), a.spec.Credentials...)
	if n := a.spec.Model.APIKeyCredential; n != "" {
		names = append(names, n)
	}
	for _, t := range a.spec.Tools {
		if n := credentialOf(t); n != "" {
			names = append(names, n)
		}
		if t.MCP != nil {
			names = append(names, t.MCP.Credentials()...)
		}
	}
	for _, n := range names {
		_, _ = a.e.Secrets.Resolve(ctx, scope, n)
	}
}
