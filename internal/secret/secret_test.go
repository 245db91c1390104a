package secret_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/secret"
)

var ctx = context.Background()

// assertNotFound checks err is *errs.CredentialNotFound for scope and name
// with the contract's exact message.
func assertNotFound(t *testing.T, err error, scope, name string) {
	t.Helper()
	var nf *errs.CredentialNotFound
	if !errors.As(err, &nf) {
		t.Fatalf("error = %T %v, want *errs.CredentialNotFound", err, err)
	}
	if nf.Scope != scope || nf.Name != name {
		t.Errorf("CredentialNotFound = {Scope: %q, Name: %q}, want {%q, %q}", nf.Scope, nf.Name, scope, name)
	}
	if want := fmt.Sprintf("no credential named '%s' resolved for %s", name, scope); nf.Error() != want {
		t.Errorf("Error() = %q, want %q", nf.Error(), want)
	}
}

func TestScope(t *testing.T) {
	if got, want := secret.Scope("default", "triage"), "tenants/default/specs/triage"; got != want {
		t.Errorf("Scope = %q, want %q", got, want)
	}
}

func TestEnvName(t *testing.T) {
	tests := []struct{ name, want string }{
		{"openai_key", "OPENAI_KEY"},
		{"openai.key", "OPENAI_KEY"},
		{"github-token", "GITHUB_TOKEN"},
		{"Key2", "KEY2"},
		{"a.b-c_d", "A_B_C_D"},
		{"already_UPPER", "ALREADY_UPPER"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := secret.EnvName(tt.name); got != tt.want {
				t.Errorf("EnvName(%q) = %q, want %q", tt.name, got, tt.want)
			}
		})
	}
}

func TestEnv(t *testing.T) {
	const scope = "tenants/default/specs/triage"
	tests := []struct {
		name   string
		env    map[string]string
		prefix string
		cred   string
		want   string // "" means not found
	}{
		{"default prefix", map[string]string{"RUNSVC_SECRET_OPENAI_KEY": "sk-1"}, "", "openai_key", "sk-1"},
		{"default prefix maps punctuation", map[string]string{"RUNSVC_SECRET_GITHUB_APP_TOKEN": "gh-1"}, "", "github.app-token", "gh-1"},
		{"custom prefix", map[string]string{"MYAPP_OPENAI_KEY": "sk-2", "RUNSVC_SECRET_OPENAI_KEY": "wrong"}, "MYAPP_", "openai_key", "sk-2"},
		{"custom prefix ignores the default one", map[string]string{"RUNSVC_SECRET_OPENAI_KEY": "sk-3"}, "MYAPP_", "openai_key", ""},
		{"unset", nil, "", "never_set_credential", ""},
		{"empty is not found", map[string]string{"RUNSVC_SECRET_EMPTY_KEY": ""}, "", "empty_key", ""},
		{"lower-case variable is a different variable", map[string]string{"RUNSVC_SECRET_lower_key": "x"}, "", "lower_key", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			got, err := secret.Env{Prefix: tt.prefix}.Resolve(ctx, scope, tt.cred)
			if tt.want == "" {
				if got != "" {
					t.Errorf("Resolve returned a value %q with its error", got)
				}
				assertNotFound(t, err, scope, tt.cred)
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Resolve(%q) = %q, %v; want %q", tt.cred, got, err, tt.want)
			}
		})
	}
}

// writeSecrets writes a secrets file into a fresh temporary directory.
func writeSecrets(t *testing.T, body string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "secrets.json")
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestFile(t *testing.T) {
	f, err := secret.LoadFile(writeSecrets(t, `{
	  "tenants/default/specs/triage": {"token": "spec-token", "only_spec": "s"},
	  "tenants/default": {"token": "tenant-token", "only_tenant": "t", "shared": "tenant-shared"},
	  "tenants/acme/specs/triage": {"token": "acme-triage"},
	  "*": {"token": "global-token", "shared": "global-shared", "only_global": "g"},
	  "tenants/default/specs/empty": {"token": ""}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		scope string
		cred  string
		want  string // "" means not found
	}{
		{"spec scope wins", "tenants/default/specs/triage", "token", "spec-token"},
		{"spec scope only", "tenants/default/specs/triage", "only_spec", "s"},
		{"falls back to the tenant", "tenants/default/specs/triage", "only_tenant", "t"},
		{"tenant wins over global", "tenants/default/specs/triage", "shared", "tenant-shared"},
		{"falls back to global", "tenants/default/specs/triage", "only_global", "g"},
		{"another spec of the tenant gets the tenant's", "tenants/default/specs/other", "token", "tenant-token"},
		{"another spec does not see a spec's own", "tenants/default/specs/other", "only_spec", ""},
		{"another tenant's spec scope", "tenants/acme/specs/triage", "token", "acme-triage"},
		{"another tenant does not see default's", "tenants/acme/specs/triage", "only_tenant", ""},
		{"another tenant falls back to global", "tenants/acme/specs/other", "token", "global-token"},
		{"tenant scope itself", "tenants/default", "token", "tenant-token"},
		{"empty value falls through to the tenant", "tenants/default/specs/empty", "token", "tenant-token"},
		{"missing everywhere", "tenants/default/specs/triage", "nope", ""},
		{"a spec named specs", "tenants/default/specs/specs", "only_tenant", "t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f.Resolve(ctx, tt.scope, tt.cred)
			if tt.want == "" {
				if got != "" {
					t.Errorf("Resolve returned a value %q with its error", got)
				}
				assertNotFound(t, err, tt.scope, tt.cred)
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Resolve(%s, %s) = %q, %v; want %q", tt.scope, tt.cred, got, err, tt.want)
			}
		})
	}
}

func TestLoadFileErrors(t *testing.T) {
	tests := []struct {
		name string
		body string
	}{
		{"not JSON", `{"*": `},
		{"a list", `[{"token": "x"}]`},
		{"values not strings", `{"*": {"token": 1}}`},
		{"scope not an object", `{"*": "token"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := secret.LoadFile(writeSecrets(t, tt.body))
			if err == nil {
				t.Fatalf("LoadFile accepted %s", tt.body)
			}
			if !strings.Contains(err.Error(), "JSON object") {
				t.Errorf("error %q does not say what the file must hold", err)
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		_, err := secret.LoadFile(filepath.Join(t.TempDir(), "absent.json"))
		if !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("LoadFile = %v, want an error wrapping not-exist", err)
		}
	})
}

// static is a resolver with fixed values that records its calls.
type static struct {
	values map[string]string
	calls  *[]string
	label  string
}

func (s static) Resolve(_ context.Context, scope, name string) (string, error) {
	*s.calls = append(*s.calls, s.label)
	if v, ok := s.values[name]; ok {
		return v, nil
	}
	return "", &errs.CredentialNotFound{Scope: scope, Name: name}
}

// failing is a resolver whose backend is down.
type failing struct {
	err   error
	calls *[]string
	label string
}

func (f failing) Resolve(context.Context, string, string) (string, error) {
	*f.calls = append(*f.calls, f.label)
	return "", f.err
}

// wrappingNotFound is a resolver that reports a miss wrapped with context,
// as errors in this codebase may be.
type wrappingNotFound struct {
	calls *[]string
	label string
}

func (w wrappingNotFound) Resolve(_ context.Context, scope, name string) (string, error) {
	*w.calls = append(*w.calls, w.label)
	return "", fmt.Errorf("vault lookup: %w", &errs.CredentialNotFound{Scope: scope, Name: name})
}

// chainTest is one Resolve through a Chain the case builds, each resolver
// noting its name in calls when asked, and what it must return.
type chainTest struct {
	name      string
	chain     func(calls *[]string) secret.Chain
	cred      string
	want      string
	wantErr   error // nil with want "" means CredentialNotFound
	wantCalls string
}

// errBackendDown is a resolver's failure that is not a miss.
var errBackendDown = errors.New("secret backend unreachable")

// chainTests are TestChain's table cases.
var chainTests = []chainTest{
	{
		name: "first resolver that has it wins",
		chain: func(c *[]string) secret.Chain {
			return secret.Chain{static{map[string]string{"k": "one"}, c, "a"}, static{map[string]string{"k": "two"}, c, "b"}}
		},
		cred: "k", want: "one", wantCalls: "a",
	},
	{
		name: "a miss goes on to the next",
		chain: func(c *[]string) secret.Chain {
			return secret.Chain{static{nil, c, "a"}, static{nil, c, "b"}, static{map[string]string{"k": "three"}, c, "c"}}
		},
		cred: "k", want: "three", wantCalls: "a,b,c",
	},
	{
		name: "a miss everywhere is not found",
		chain: func(c *[]string) secret.Chain {
			return secret.Chain{static{nil, c, "a"}, static{map[string]string{"other": "x"}, c, "b"}}
		},
		cred: "k", wantCalls: "a,b",
	},
	{
		name:  "an empty chain is not found",
		chain: func(*[]string) secret.Chain { return nil },
		cred:  "k", wantCalls: "",
	},
	{
		name: "another error stops the chain",
		chain: func(c *[]string) secret.Chain {
			return secret.Chain{static{nil, c, "a"}, failing{errBackendDown, c, "b"}, static{map[string]string{"k": "never"}, c, "c"}}
		},
		cred: "k", wantErr: errBackendDown, wantCalls: "a,b",
	},
	{
		name: "a wrapped miss is still a miss",
		chain: func(c *[]string) secret.Chain {
			return secret.Chain{wrappingNotFound{c, "a"}, static{map[string]string{"k": "found"}, c, "b"}}
		},
		cred: "k", want: "found", wantCalls: "a,b",
	},
}

func TestChain(t *testing.T) {
	const scope = "tenants/default/specs/triage"
	for _, tt := range chainTests {
		t.Run(tt.name, func(t *testing.T) {
			var calls []string
			got, err := tt.chain(&calls).Resolve(ctx, scope, tt.cred)
			if strings.Join(calls, ",") != tt.wantCalls {
				t.Errorf("resolvers called: %q, want %q", strings.Join(calls, ","), tt.wantCalls)
			}
			switch {
			case tt.want != "":
				if err != nil || got != tt.want {
					t.Errorf("Resolve = %q, %v; want %q", got, err, tt.want)
				}
			case tt.wantErr != nil:
				if !errors.Is(err, tt.wantErr) {
					t.Errorf("Resolve error = %v, want %v", err, tt.wantErr)
				}
				var nf *errs.CredentialNotFound
				if errors.As(err, &nf) {
					t.Errorf("a backend failure was reported as CredentialNotFound")
				}
			default:
				assertNotFound(t, err, scope, tt.cred)
			}
		})
	}
	t.Run("env then file", func(t *testing.T) {
		t.Setenv("RUNSVC_SECRET_FROM_ENV", "env-value")
		f, err := secret.LoadFile(writeSecrets(t, `{"*": {"from_env": "file-value", "from_file": "file-only"}}`))
		if err != nil {
			t.Fatal(err)
		}
		c := secret.Chain{secret.Env{}, f}
		for cred, want := range map[string]string{"from_env": "env-value", "from_file": "file-only"} {
			if got, err := c.Resolve(ctx, scope, cred); err != nil || got != want {
				t.Errorf("Resolve(%s) = %q, %v; want %q", cred, got, err, want)
			}
		}
		_, err = c.Resolve(ctx, scope, "nowhere")
		assertNotFound(t, err, scope, "nowhere")
	})
}

// TestEnvForOneTenant: an Env bound to a tenant serves that tenant's
// Specs only; another tenant's Spec naming the same credential does not
// find it, so the operator's credentials never reach it.
func TestEnvForOneTenant(t *testing.T) {
	t.Setenv("RUNSVC_SECRET_OPERATOR_KEY", "sk-operator")
	tests := []struct {
		name, tenant, scope, want string
	}{
		{"the operator's tenant", "default", "tenants/default/specs/triage", "sk-operator"},
		{"another tenant", "default", "tenants/acme/specs/triage", ""},
		{"a tenant named like a prefix of it", "default", "tenants/defaultx/specs/triage", ""},
		{"unbound serves everyone", "", "tenants/acme/specs/triage", "sk-operator"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := secret.Env{Tenant: tt.tenant}.Resolve(ctx, tt.scope, "operator_key")
			if tt.want == "" {
				assertNotFound(t, err, tt.scope, "operator_key")
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Resolve = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
