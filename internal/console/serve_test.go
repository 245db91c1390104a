package console_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

// TestConsoleListen: without a keys file the console, like the API,
// serves only on loopback (unless --insecure-no-auth), needs no sign-in
// there, and its address is in the "runsvc serving" line.
func TestConsoleListen(t *testing.T) {
	t.Run("refused off loopback without keys", func(t *testing.T) {
		cfg := server.Config{Listen: "127.0.0.1:0", Data: t.TempDir(), Console: server.Console{Listen: "0.0.0.0:0"}}
		srv, err := server.New(context.Background(), cfg, slog.New(slog.DiscardHandler))
		var ci *errs.ConfigurationInvalid
		if !errors.As(err, &ci) || !strings.Contains(ci.Subject, "console") {
			if srv != nil {
				t.Cleanup(func() { _ = srv.Store().Close() })
			}
			t.Fatalf("got %v, want CONFIGURATION_INVALID about the console address", err)
		}
	})
	t.Run("open on loopback and printed at start", func(t *testing.T) {
		srv := testserver.Start(t, func(c *server.Config) { c.Console.Listen = "127.0.0.1:0" })
		if !strings.HasPrefix(srv.ConsoleURL, "http://127.0.0.1:") {
			t.Fatalf("console URL %q", srv.ConsoleURL)
		}
		resp, err := http.Get(srv.ConsoleURL + "/runs")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "local · default · admin") {
			t.Fatalf("without keys /runs: %d %s", resp.StatusCode, excerpt(string(body)))
		}
		if !strings.Contains(srv.Log.String(), `"console":"`+srv.ConsoleURL+`"`) {
			t.Error(`the "runsvc serving" line does not name the console`)
		}
	})
	t.Run("off unless set", func(t *testing.T) {
		if u := testserver.Start(t).ConsoleURL; u != "" {
			t.Fatalf("console served at %q without --console-listen", u)
		}
	})
}

// TestConsoleOverTLS: with --tls-cert the console is served over HTTPS
// with the same certificate (a client certificate is not asked for, even
// with --tls-client-ca), and its session cookie is Secure.
func TestConsoleOverTLS(t *testing.T) {
	ca := tlstest.NewCA(t, "console")
	pair := ca.Server("runsvc")
	key, entry := tlstest.Key(t, "acme-runner", "acme", "runner")
	keysFile := filepath.Join(t.TempDir(), "keys.json")
	tlstest.WriteKeys(t, keysFile, []auth.Entry{entry})
	srv := testserver.Start(t, func(c *server.Config) {
		c.Security = server.Security{KeysFile: keysFile, TLSCert: pair.CertFile, TLSKey: pair.KeyFile, TLSClientCA: ca.CertFile}
		c.Console.Listen = "127.0.0.1:0"
	})
	if !strings.HasPrefix(srv.ConsoleURL, "https://127.0.0.1:") {
		t.Fatalf("console URL %q", srv.ConsoleURL)
	}
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Transport: &http.Transport{TLSClientConfig: tlstest.ClientConfig(t, ca, nil)},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	s := &site{url: srv.ConsoleURL, client: client}
	token := s.csrf(t)
	resp, _ := s.post(t, "/login", url.Values{"csrf": {token}, "key": {key}})
	if c := sessionCookie(resp); resp.StatusCode != http.StatusSeeOther || !strings.Contains(c, "; Secure") {
		t.Fatalf("sign-in over TLS: %d, cookie %q", resp.StatusCode, c)
	}
	if resp, body := s.get(t, "/runs"); resp.StatusCode != http.StatusOK || !strings.Contains(body, "acme-runner") {
		t.Fatalf("/runs over TLS: %d", resp.StatusCode)
	}
}
