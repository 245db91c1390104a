package httpapi_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestCORS: with --cors-origin, a preflight from that origin is answered
// and allows the headers Connect, gRPC-Web and a bearer key need; another
// origin, or any origin without the flag, is allowed nothing.
func TestCORS(t *testing.T) {
	allowed := "https://app.example"
	withOrigin := testserver.Start(t, testserver.WithHTTP(), func(c *server.Config) { c.HTTP.CORSOrigins = []string{allowed} })
	without := testserver.Start(t, testserver.WithHTTP())
	cases := []struct {
		name   string
		url    string
		origin string
		allow  bool
	}{
		{"the allowed origin", withOrigin.HTTPURL, allowed, true},
		{"another origin", withOrigin.HTTPURL, "https://evil.example", false},
		{"no --cors-origin", without.HTTPURL, allowed, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := http.NewRequestWithContext(ctxT(t), http.MethodOptions, c.url+"/runsvc.v1.RunService/StartRun", nil)
			if err != nil {
				t.Fatal(err)
			}
			r.Header.Set("Origin", c.origin)
			r.Header.Set("Access-Control-Request-Method", "POST")
			r.Header.Set("Access-Control-Request-Headers", "authorization,connect-protocol-version,content-type") // as a browser sends it: lower case, sorted
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			got := resp.Header.Get("Access-Control-Allow-Origin")
			if c.allow != (got == c.origin) || resp.Header.Get("Access-Control-Allow-Credentials") != "" {
				t.Errorf("preflight: HTTP %d, Allow-Origin %q, Allow-Credentials %q", resp.StatusCode, got, resp.Header.Get("Access-Control-Allow-Credentials"))
			}
		})
	}
}

// TestHTTPListenNeedsKeys: without a keys file the HTTP API, like the
// gRPC one, serves only on a loopback address.
func TestHTTPListenNeedsKeys(t *testing.T) {
	cfg := server.Config{Listen: "127.0.0.1:0", Data: t.TempDir(), HTTP: server.HTTP{Listen: "0.0.0.0:0"}}
	_, err := server.New(context.Background(), cfg, slog.New(slog.DiscardHandler))
	var bad *errs.ConfigurationInvalid
	if !errors.As(err, &bad) {
		t.Fatalf("New: %v, want CONFIGURATION_INVALID", err)
	}
}
