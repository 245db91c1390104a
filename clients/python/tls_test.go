package python_test

import (
	"path/filepath"
	"testing"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

// TestPythonOverTLS: the Python client (runsvc_client.connect.channel)
// takes a Run to its end over TLS with an API key; a wrong CA and a
// missing token fail (clients/python/tests/test_tls.py).
func TestPythonOverTLS(t *testing.T) {
	requirePython(t)
	ca := tlstest.NewCA(t, "py")
	wrong := tlstest.NewCA(t, "py-wrong")
	pair := ca.Server("runsvc")
	keys := filepath.Join(t.TempDir(), "keys.json")
	token, entry := tlstest.Key(t, "py", "acme", auth.RoleAdmin)
	tlstest.WriteKeys(t, keys, []auth.Entry{entry})
	srv := testserver.Start(t, func(c *server.Config) {
		c.Security = server.Security{KeysFile: keys, TLSCert: pair.CertFile, TLSKey: pair.KeyFile}
	})
	unittest(t, "test_tls.py", "RUNSVC_TLS_TARGET="+srv.Addr, "RUNSVC_TLS_CA="+ca.CertFile,
		"RUNSVC_TLS_WRONG_CA="+wrong.CertFile, "RUNSVC_TLS_TOKEN="+token)
}
