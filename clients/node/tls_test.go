package node_test

import (
	"path/filepath"
	"testing"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

// TestNodeOverTLS: the Node client (tlsCredentials) takes a Run to its end
// over TLS with an API key; a wrong CA and a missing token fail
// (clients/node/test/tls.test.js).
func TestNodeOverTLS(t *testing.T) {
	node := requireNode(t)
	ca := tlstest.NewCA(t, "node")
	wrong := tlstest.NewCA(t, "node-wrong")
	pair := ca.Server("runsvc")
	keys := filepath.Join(t.TempDir(), "keys.json")
	token, entry := tlstest.Key(t, "node", "acme", auth.RoleAdmin)
	tlstest.WriteKeys(t, keys, []auth.Entry{entry})
	srv := testserver.Start(t, func(c *server.Config) {
		c.Security = server.Security{KeysFile: keys, TLSCert: pair.CertFile, TLSKey: pair.KeyFile}
	})
	nodeTest(t, node, []string{filepath.Join("test", "tls.test.js")}, "RUNSVC_TLS_TARGET="+srv.Addr,
		"RUNSVC_TLS_CA="+ca.CertFile, "RUNSVC_TLS_WRONG_CA="+wrong.CertFile, "RUNSVC_TLS_TOKEN="+token)
}
