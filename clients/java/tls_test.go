package java_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

// TestJavaOverTLS: RunsvcClient reaches a server over TLS with an API key;
// without the key the call is UNAUTHENTICATED, and against another CA the
// handshake fails (test/tls/Tls.java, compiled against the jar alone).
//
// grpc-netty needs ALPN, which Debian's netty-handler has only through
// OpenSSL: netty-tcnative (libnetty-tcnative-java, libnetty-tcnative-jni).
func TestJavaOverTLS(t *testing.T) {
	jar := buildJar(t)
	if _, err := os.Stat("/usr/share/java/netty-tcnative.jar"); err != nil {
		if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
			t.Fatal("RUNSVC_REQUIRE_ALL=1 but netty-tcnative is not installed (apt-get install libnetty-tcnative-java libnetty-tcnative-jni)")
		}
		t.Skip("skipped: libnetty-tcnative-java not installed")
	}
	ca := tlstest.NewCA(t, "java")
	wrong := tlstest.NewCA(t, "java-wrong")
	pair := ca.Server("runsvc")
	keys := filepath.Join(t.TempDir(), "keys.json")
	token, entry := tlstest.Key(t, "java", "acme", auth.RoleAdmin)
	tlstest.WriteKeys(t, keys, []auth.Entry{entry})
	srv := testserver.Start(t, func(c *server.Config) {
		c.Security = server.Security{KeysFile: keys, TLSCert: pair.CertFile, TLSKey: pair.KeyFile}
	})

	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("test", "tls", "Tls.java"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Tls.java"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := command(dir, "javac", "-cp", jar, "Tls.java"); err != nil {
		t.Fatalf("javac -cp runsvc-client.jar Tls.java: %v\n%s", err, out)
	}
	out, err := command(dir, "java", "-cp", jar+string(os.PathListSeparator)+".", "Tls", srv.Addr, ca.CertFile, wrong.CertFile, token)
	if err != nil || !strings.HasSuffix(strings.TrimSpace(out), "OK") {
		t.Fatalf("java Tls: %v\n%s", err, out)
	}
	t.Logf("java Tls:\n%s", out)
}
