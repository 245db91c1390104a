package ruby_test

import (
	"path/filepath"
	"testing"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

// TestRubyOverTLS: Runsvc::Client takes a Run to its end over TLS with an
// API key; a wrong CA and a missing key fail (clients/ruby/test/tls.rb).
func TestRubyOverTLS(t *testing.T) {
	requireRuby(t)
	ca := tlstest.NewCA(t, "rb")
	wrong := tlstest.NewCA(t, "rb-wrong")
	pair := ca.Server("runsvc")
	keys := filepath.Join(t.TempDir(), "keys.json")
	token, entry := tlstest.Key(t, "rb", "acme", auth.RoleAdmin)
	tlstest.WriteKeys(t, keys, []auth.Entry{entry})
	srv := testserver.Start(t, func(c *server.Config) {
		c.Security = server.Security{KeysFile: keys, TLSCert: pair.CertFile, TLSKey: pair.KeyFile}
	})
	minitest(t, ".", []string{filepath.Join("test", "tls.rb")}, "RUNSVC_TLS_TARGET="+srv.Addr, "RUNSVC_TLS_CA="+ca.CertFile,
		"RUNSVC_TLS_WRONG_CA="+wrong.CertFile, "RUNSVC_TLS_TOKEN="+token)
}
