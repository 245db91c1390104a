// Package secret is the port that resolves the credentials a Spec names.
// A credential that does not resolve is *errs.CredentialNotFound: runsvc
// never falls back to calling without it.
//
// Values resolved here must never be logged, recorded or put in an error.
package secret

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode"

	"github.com/runsvc/runsvc/internal/errs"
)

// Resolver finds a credential's value for a scope, such as
// "tenants/default/specs/triage".
type Resolver interface {
	// Resolve returns the value or *errs.CredentialNotFound.
	Resolve(ctx context.Context, scope, name string) (string, error)
}

// Scope returns the scope of a Spec's credentials.
func Scope(tenant, specName string) string { return "tenants/" + tenant + "/specs/" + specName }

// Env resolves a credential from the environment variable Prefix followed
// by its name in upper case with every other character as '_':
// "openai_key" is RUNSVC_SECRET_OPENAI_KEY.
type Env struct {
	Prefix string
	// Tenant, when set, is the only tenant whose Specs the environment's
	// credentials serve: the operator's own. A server with several tenants
	// sets it, so no tenant's Spec can name the operator's credentials.
	Tenant string
}

// DefaultEnvPrefix is the prefix of credential environment variables.
const DefaultEnvPrefix = "RUNSVC_SECRET_"

// Resolve reads the variable; an unset or empty one is not found.
func (e Env) Resolve(_ context.Context, scope, name string) (string, error) {
	prefix := e.Prefix
	if prefix == "" {
		prefix = DefaultEnvPrefix
	}
	if e.Tenant != "" && !strings.HasPrefix(scope, "tenants/"+e.Tenant+"/") {
		return "", &errs.CredentialNotFound{Scope: scope, Name: name}
	}
	if v := os.Getenv(prefix + EnvName(name)); v != "" {
		return v, nil
	}
	return "", &errs.CredentialNotFound{Scope: scope, Name: name}
}

// EnvName is a credential name as it appears in a variable name.
func EnvName(name string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToUpper(r)
		}
		return '_'
	}, name)
}

// File resolves credentials from a JSON file mapping scopes to names to
// values. A scope may be a Spec's ("tenants/default/specs/triage"), a
// tenant's ("tenants/default") or "*"; the most specific that has the name
// wins.
type File struct {
	scopes map[string]map[string]string
}

// LoadFile reads a secrets file.
func LoadFile(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading secrets file: %w", err)
	}
	f := &File{}
	if err := json.Unmarshal(b, &f.scopes); err != nil {
		return nil, fmt.Errorf("secrets file %s is not a JSON object of scopes to names to values: %v", path, err)
	}
	return f, nil
}

// Resolve looks the name up from the most specific scope out.
func (f *File) Resolve(_ context.Context, scope, name string) (string, error) {
	for s := scope; ; {
		if v := f.scopes[s][name]; v != "" {
			return v, nil
		}
		i := strings.LastIndex(s, "/specs/")
		if i < 0 {
			break
		}
		s = s[:i]
	}
	if v := f.scopes["*"][name]; v != "" {
		return v, nil
	}
	return "", &errs.CredentialNotFound{Scope: scope, Name: name}
}

// Chain tries resolvers in order and returns the first value found.
type Chain []Resolver

// Resolve returns the first resolver's value that is found; other errors
// stop the search.
func (c Chain) Resolve(ctx context.Context, scope, name string) (string, error) {
	for _, r := range c {
		v, err := r.Resolve(ctx, scope, name)
		if err == nil {
			return v, nil
		}
		var notFound *errs.CredentialNotFound
		if !errors.As(err, &notFound) {
			return "", err
		}
	}
	return "", &errs.CredentialNotFound{Scope: scope, Name: name}
}
