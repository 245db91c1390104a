package cli_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

// TestRunOverTLSWithToken: the CLI publishes a Spec and takes a Run to its
// end over TLS with an API key from RUNSVC_TOKEN; the wrong CA, no token
// and a reader's token each fail with a message that says why.
func TestRunOverTLSWithToken(t *testing.T) {
	ca := tlstest.NewCA(t, "cli")
	pair := ca.Server("runsvc")
	keys := filepath.Join(t.TempDir(), "keys.json")
	admin, adminEntry := tlstest.Key(t, "cli-admin", "acme", auth.RoleAdmin)
	reader, readerEntry := tlstest.Key(t, "cli-reader", "acme", auth.RoleReader)
	clientCert := ca.Client("cli-cert", "")
	tlstest.WriteKeys(t, keys, []auth.Entry{adminEntry, readerEntry, {Certificate: "cli-cert", Tenant: "acme", Roles: []string{auth.RoleReader}}})
	srv := testserver.Start(t, func(c *server.Config) {
		c.Security = server.Security{KeysFile: keys, TLSCert: pair.CertFile, TLSKey: pair.KeyFile, TLSClientCA: ca.CertFile}
	})
	c := newClient(t, srv)
	t.Setenv("RUNSVC_TOKEN", admin)
	c.must("--ca", ca.CertFile, "spec", "publish", writeFile(t, "hello.yaml", helloYAML))
	id := strings.TrimSpace(c.must("--ca", ca.CertFile, "run", "start", "hello", "--input", "weather?"))
	c.must("--ca", ca.CertFile, "run", "watch", id, "--until-suspended")
	out := c.must("--ca", ca.CertFile, "run", "resume", id, "--results", `{"call_1_1": "sunny"}`, "--watch")
	contains(t, "stdout", out, "completed: It is sunny.")
	t.Setenv("RUNSVC_TOKEN", "")
	out = c.must("--ca", ca.CertFile, "--cert", clientCert.CertFile, "--key", clientCert.KeyFile, "run", "get", id)
	contains(t, "stdout (mTLS, no token)", out, id)

	wrong := tlstest.NewCA(t, "wrong")
	cases := []struct {
		name   string
		token  string
		args   []string
		stderr []string
	}{
		{name: "wrong CA", token: admin, args: []string{"--ca", wrong.CertFile, "run", "get", id}, stderr: []string{"not signed by a CA this client trusts", "--ca"}},
		{name: "no TLS", token: admin, args: []string{"run", "get", id}, stderr: []string{"cannot reach runsvc"}},
		{name: "no token", token: "", args: []string{"--ca", ca.CertFile, "run", "get", id}, stderr: []string{"UNAUTHENTICATED"}},
		{name: "reader starts a Run", token: reader, args: []string{"--ca", ca.CertFile, "run", "start", "hello"}, stderr: []string{"ROLE_DENIED", "reader"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("RUNSVC_TOKEN", tc.token)
			r := c.run(tc.args...)
			if r.code == 0 {
				t.Fatalf("exit 0, want a failure:\n%s", r.stdout)
			}
			contains(t, "stderr", r.stderr, tc.stderr...)
			t.Logf("stderr: %s", r.stderr)
			if strings.Contains(r.stderr, admin) {
				t.Error("stderr holds the API key")
			}
		})
	}
}
