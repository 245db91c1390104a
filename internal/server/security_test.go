package server_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

// secured is a runsvc with TLS and a keys file, and what a test needs to
// reach it as different callers.
type secured struct {
	srv      *testserver.Server
	ca       *tlstest.CA
	keysFile string
	entries  []auth.Entry
	// keys are API keys by "tenant/role".
	keys map[string]string
	// serverPair is the server's certificate and key files.
	serverPair tlstest.Pair
}

// startSecured starts runsvc with TLS and a key for each tenant and role.
func startSecured(t *testing.T, tenants []string, opts ...testserver.Option) *secured {
	t.Helper()
	return startSecuredWith(t, tenants, nil, opts...)
}

// startSecuredWith is startSecured with edit applied to each key's entry.
func startSecuredWith(t *testing.T, tenants []string, edit func(*auth.Entry), opts ...testserver.Option) *secured {
	t.Helper()
	s := &secured{ca: tlstest.NewCA(t, "test"), keys: map[string]string{}}
	s.keysFile = filepath.Join(t.TempDir(), "keys.json")
	for _, tenant := range tenants {
		for _, role := range auth.Roles {
			key, e := tlstest.Key(t, tenant+"-"+role, tenant, role)
			if edit != nil {
				edit(&e)
			}
			s.keys[tenant+"/"+role] = key
			s.entries = append(s.entries, e)
		}
	}
	tlstest.WriteKeys(t, s.keysFile, s.entries)
	pair := s.ca.Server("runsvc")
	s.serverPair = pair
	sec := func(c *server.Config) {
		c.Security = server.Security{KeysFile: s.keysFile, TLSCert: pair.CertFile, TLSKey: pair.KeyFile, TLSClientCA: s.ca.CertFile}
	}
	s.srv = testserver.Start(t, append([]testserver.Option{sec}, opts...)...)
	return s
}

// conn dials the server over TLS; calls carry token when it is not empty.
func (s *secured) conn(t *testing.T, token string, pair *tlstest.Pair) *grpc.ClientConn {
	t.Helper()
	opts := []grpc.DialOption{grpc.WithTransportCredentials(credentials.NewTLS(tlstest.ClientConfig(t, s.ca, pair)))}
	if token != "" {
		opts = append(opts, grpc.WithPerRPCCredentials(bearer(token)))
	}
	conn, err := grpc.NewClient(s.srv.Addr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

type bearer string

func (b bearer) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(b)}, nil
}
func (bearer) RequireTransportSecurity() bool { return true }

// reasonOf returns the ErrorInfo reason of a call's error, "" for success,
// or the code's name when the status has no ErrorInfo.
func reasonOf(err error) string {
	if err == nil {
		return ""
	}
	st := status.Convert(err)
	for _, d := range st.Details() {
		if info, ok := d.(*edpb.ErrorInfo); ok {
			return info.GetReason()
		}
	}
	return "code:" + st.Code().String()
}

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// helloSpec suspends on the client tool lookup, so its Runs stay unsettled
// until resumed or interrupted.
const helloSpec = `{"name": "hello", "model": {"provider": "scripted", "script": {"turns": [
  {"text": "Let me look.", "toolCalls": [{"name": "lookup", "arguments": {"q": "weather"}}]},
  {"text": "It is sunny."}]}},
  "tools": [{"name": "lookup", "kind": "TOOL_KIND_CLIENT", "description": "Look things up"}]}`

func TestUnauthenticatedCallers(t *testing.T) {
	s := startSecured(t, []string{"acme"})
	stranger := s.ca.Client("stranger", "spiffe://test/stranger")
	cases := []struct {
		name  string
		conn  *grpc.ClientConn
		ctx   func(context.Context) context.Context
		inLog string
	}{
		{name: "no credentials", conn: s.conn(t, "", nil), inLog: "no API key"},
		{name: "forged key", conn: s.conn(t, "rsk_forged-key-value", nil), inLog: "not in the keys file"},
		{name: "not a bearer header", conn: s.conn(t, "", nil), ctx: func(c context.Context) context.Context {
			return metadata.AppendToOutgoingContext(c, "authorization", "Basic dXNlcjpwYXNz")
		}, inLog: "not 'Bearer"},
		{name: "a made-up tenant header", conn: s.conn(t, "", nil), ctx: func(c context.Context) context.Context {
			return metadata.AppendToOutgoingContext(c, "x-tenant", "acme", "tenant", "acme")
		}, inLog: "no API key"},
		{name: "a client certificate the keys file does not list", conn: s.conn(t, "", &stranger), inLog: "certificate's identity is not in the keys file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := ctxT(t)
			if c.ctx != nil {
				ctx = c.ctx(ctx)
			}
			_, err := runsvcv1.NewRunServiceClient(c.conn).ListRuns(ctx, &runsvcv1.ListRunsRequest{})
			if got := reasonOf(err); got != "UNAUTHENTICATED" {
				t.Fatalf("ListRuns: reason %q (%v), want UNAUTHENTICATED", got, err)
			}
			if status.Code(err) != codes.Unauthenticated {
				t.Errorf("code %v, want Unauthenticated", status.Code(err))
			}
			if !strings.Contains(s.srv.Log.String(), c.inLog) {
				t.Errorf("log has no line saying %q", c.inLog)
			}
		})
	}
	if strings.Contains(s.srv.Log.String(), "rsk_forged-key-value") {
		t.Error("the log holds the presented key")
	}
}

func TestHealthStaysOpen(t *testing.T) {
	s := startSecured(t, []string{"acme"})
	resp, err := healthpb.NewHealthClient(s.conn(t, "", nil)).Check(ctxT(t), &healthpb.HealthCheckRequest{})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health check without credentials: %v", err)
	}
}

func TestSafeDefaults(t *testing.T) {
	dir := t.TempDir()
	loose := filepath.Join(dir, "loose.json")
	if err := os.WriteFile(loose, []byte(`{"identities": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		cfg  server.Config
		want string
	}{
		{name: "no keys on 0.0.0.0", cfg: server.Config{Listen: "0.0.0.0:0"}, want: "serves only on a loopback address"},
		{name: "no keys on an empty host", cfg: server.Config{Listen: ":0"}, want: "serves only on a loopback address"},
		{name: "keys file readable by others", cfg: server.Config{Listen: "127.0.0.1:0", Security: server.Security{KeysFile: loose}}, want: "lets others read it"},
		{name: "secrets file readable by others", cfg: server.Config{Listen: "127.0.0.1:0", SecretsFile: loose}, want: "lets others read it"},
		{name: "half a TLS configuration", cfg: server.Config{Listen: "127.0.0.1:0", Security: server.Security{TLSCert: loose}}, want: "go together"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.Data = t.TempDir()
			srv, err := server.New(context.Background(), c.cfg, discardLog())
			if err == nil {
				_ = srv.Store().Close()
				t.Fatal("server started")
			}
			var ci *errs.ConfigurationInvalid
			if !errors.As(err, &ci) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want CONFIGURATION_INVALID saying %q", err, c.want)
			}
		})
	}
}

// TestDataFilesOwnerOnly: the data directory is 0700 and the database
// files 0600, even when the directory existed with looser modes.
func TestDataFilesOwnerOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	srv := testserver.Start(t, func(c *server.Config) { c.Data = dir })
	testserver.Publish(t, srv.Specs, helloSpec)
	srv.Start(t, "hello", "hi")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("data directory mode %04o, want 0700", fi.Mode().Perm())
	}
	if len(entries) == 0 {
		t.Fatal("no database file")
	}
	for _, e := range entries {
		info, _ := e.Info()
		if info.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s mode %04o, want owner-only", e.Name(), info.Mode().Perm())
		}
	}
}

// TestUnknownMethodWithIdentity: an authenticated caller of a method the
// server does not serve hears METHOD_NOT_FOUND whatever its role; without
// an identity it hears UNAUTHENTICATED, so nothing is told to strangers.
func TestUnknownMethodWithIdentity(t *testing.T) {
	s := startSecured(t, []string{"acme"})
	cases := []struct{ name, token, reason string }{
		{"reader", s.keys["acme/reader"], "METHOD_NOT_FOUND"},
		{"worker", s.keys["acme/worker"], "METHOD_NOT_FOUND"},
		{"no identity", "", "UNAUTHENTICATED"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := s.conn(t, c.token, nil).Invoke(ctxT(t), "/runsvc.v1.RunService/NoSuchMethod", &healthpb.HealthCheckRequest{}, &healthpb.HealthCheckResponse{})
			if got := reasonOf(err); got != c.reason {
				t.Fatalf("reason %q (%v), want %s", got, err, c.reason)
			}
		})
	}
}
