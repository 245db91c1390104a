// Package servers starts the servers of testdata/scenarios.json's server
// settings, in process, for the Go suites and for the Python and Node
// suites the Go tests run (which find them through ServersEnv).
package servers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/testing/scenario"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// ServersEnv is the environment variable that tells the Python and Node
// suites where each server setting's server listens: a JSON object of
// setting name to {"addr": "127.0.0.1:port", "vars": {...}}.
const ServersEnv = "RUNSVC_SCENARIO_SERVERS"

// Started is the server of one setting.
type Started struct {
	Addr string            `json:"addr"`
	Vars map[string]string `json:"vars,omitempty"`
	Conn *grpc.ClientConn  `json:"-"`
	// HTTPURL is where the server's HTTP API listens, when Start was
	// given testserver.WithHTTP.
	HTTPURL string `json:"httpUrl,omitempty"`
}

// Servers are the started servers by setting name.
type Servers map[string]*Started

// Env is ServersEnv=<the servers as JSON>, for a suite's environment.
func (s Servers) Env() string {
	b, _ := json.Marshal(s)
	return ServersEnv + "=" + string(b)
}

// Start starts an in-process server for every setting of f, each on its
// own free 127.0.0.1 port with its own store; they stop when the test
// ends. Every server also gets opts (testserver.WithHTTP for the HTTP
// API).
func Start(t testing.TB, f *scenario.File, opts ...testserver.Option) Servers {
	t.Helper()
	names := make([]string, 0, len(f.Servers))
	for name := range f.Servers {
		names = append(names, name)
	}
	sort.Strings(names)
	out := Servers{}
	for _, name := range names {
		out[name] = startSetting(t, name, f.Servers[name], opts)
	}
	return out
}

func startSetting(t testing.TB, name string, set scenario.ServerSetting, opts []testserver.Option) *Started {
	t.Helper()
	opt, err := option(t, set)
	if err != nil {
		t.Fatalf("server setting %s: %v", name, err)
	}
	srv := testserver.Start(t, append([]testserver.Option{opt}, opts...)...)
	st := &Started{Addr: srv.Addr, Vars: map[string]string{}, Conn: srv.Conn, HTTPURL: srv.HTTPURL}
	if set.CorruptRun {
		st.Vars["corruptRun"] = corruptRun(t, srv)
	}
	if set.MCPServer {
		st.Vars["mcpUrl"] = startMCP(t)
	}
	if len(set.SilentTools) > 0 {
		silentWorker(t, srv, set.SilentTools)
	}
	switch set.Store {
	case "":
	case "closed":
		if err := srv.Store.Close(); err != nil {
			t.Fatalf("server setting %s: closing the store: %v", name, err)
		}
	default:
		t.Fatalf("server setting %s: store %q is not \"closed\"", name, set.Store)
	}
	return st
}

// option is the configuration a setting changes.
func option(t testing.TB, set scenario.ServerSetting) (testserver.Option, error) {
	keys := ""
	if len(set.Keys) > 0 {
		var err error
		if keys, err = keysFile(t.TempDir(), set.Keys); err != nil {
			return nil, err
		}
	}
	var wrap func(store.Store) store.Store
	switch set.StoreFault {
	case "":
	case "ListRuns":
		wrap = func(s store.Store) store.Store { return faultyStore{s} }
	default:
		return nil, errors.New("storeFault " + set.StoreFault + " is not one of: ListRuns")
	}
	if set.LoseLeases {
		if wrap != nil {
			return nil, errors.New("loseLeases and storeFault do not go together")
		}
		wrap = func(s store.Store) store.Store { return leaseLosingStore{s} }
	}
	return func(c *server.Config) {
		c.Security.KeysFile = keys
		c.MaxStreams = set.MaxStreams
		c.WrapStore = wrap
		c.Engine.MaxAttempts = set.MaxAttempts
		if set.LoseLeases {
			c.Engine.LeaseTTL = time.Second
		}
		for _, p := range set.WithoutProviders {
			if c.Models == nil {
				c.Models = model.Providers{}
			}
			c.Models[p] = nil
		}
		for _, k := range set.WithoutToolKinds {
			c.WithoutToolKinds = append(c.WithoutToolKinds, spec.Kind(k))
		}
	}, nil
}

// keysFile writes the keys file of keys into dir, readable by its owner
// only, and returns its path.
func keysFile(dir string, keys []scenario.Key) (string, error) {
	var f auth.File
	for _, k := range keys {
		sum := sha256.Sum256([]byte(k.Key))
		f.Identities = append(f.Identities, auth.Entry{
			Name: k.Tenant + "-" + k.Roles[0], KeySHA256: hex.EncodeToString(sum[:]), Tenant: k.Tenant, Roles: k.Roles,
			Quota: auth.Quota{StartsPerMinute: k.StartsPerMinute, MaxConcurrentRuns: k.MaxConcurrentRuns},
		})
	}
	b, err := json.Marshal(f)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "keys.json")
	return path, os.WriteFile(path, b, 0o600)
}

// faultyStore fails ListRuns with an error the table does not know, as a
// bug in the store would.
type faultyStore struct{ store.Store }

func (faultyStore) ListRuns(context.Context, string, store.RunQuery) ([]store.Run, string, error) {
	return nil, "", errors.New("injected store fault: /var/lib/runsvc/runsvc.db is not a database")
}

// leaseLosingStore refuses every lease renewal, as a store whose lease
// another replica took would: each Attempt that renews its lease dies.
type leaseLosingStore struct{ store.Store }

func (leaseLosingStore) Renew(_ context.Context, l *store.Lease, _ time.Time, _ time.Duration) error {
	return &errs.LeaseLost{RunID: l.RunID, WorkerID: l.Owner}
}

// corruptSpec suspends for a client tool, so its log stays still.
const corruptSpec = `{"name": "scn-corrupt", "model": {"provider": "scripted", "script": {"turns": [
 {"toolCalls": [{"name": "lookup", "arguments": {}}]}, {"text": "never"}]}},
 "tools": [{"name": "lookup", "kind": "TOOL_KIND_CLIENT"}]}`

// corruptRun starts a Run that suspends, then appends a second admitted
// Record to its log straight into the store, as a buggy writer would, and
// returns the Run's id.
func corruptRun(t testing.TB, srv *testserver.Server) string {
	t.Helper()
	srv.Publish(t, corruptSpec)
	run := srv.Wait(t, srv.Start(t, "scn-corrupt", "hi").GetRunId())
	if run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED {
		t.Fatalf("the Run to corrupt is %v, want suspended", run.GetState())
	}
	ctx := testserver.Context(t)
	row, err := srv.Store.GetRun(ctx, store.DefaultTenant, run.GetRunId())
	if err != nil {
		t.Fatal(err)
	}
	first, err := srv.Store.ReadLog(ctx, store.DefaultTenant, run.GetRunId(), 1, 1)
	if err != nil || len(first) != 1 {
		t.Fatalf("first record %+v %v", first, err)
	}
	again := store.Record{Seq: row.LastSeq + 1, Time: time.Now(), Kind: first[0].Kind, Body: first[0].Body}
	if err := srv.Store.Append(ctx, store.Append{Tenant: store.DefaultTenant, RunID: run.GetRunId(), Records: []store.Record{again}, Index: row.Index}); err != nil {
		t.Fatal(err)
	}
	return run.GetRunId()
}

// startMCP serves a real MCP server with one tool, echo, over streamable
// HTTP on 127.0.0.1 and returns its URL.
func startMCP(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	empty := mcp.NewServer(&mcp.Implementation{Name: "scn-echo", Version: "v0"}, nil)
	mcp.AddTool(empty, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, in struct {
		Text string `json:"text"`
	}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
	})
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return empty }, nil))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() { _ = hs.Close() })
	return "http://" + ln.Addr().String() + "/mcp"
}

// silentWorker connects a worker that registers tools and never answers
// their calls (until the test ends).
func silentWorker(t testing.TB, srv *testserver.Server, tools []string) {
	t.Helper()
	stop := make(chan struct{})
	never := func(map[string]any) (any, *runsvcv1.ToolError) {
		<-stop
		return nil, &runsvcv1.ToolError{Message: "the test ended"}
	}
	funcs := map[string]testserver.ToolFunc{}
	for _, name := range tools {
		funcs[name] = never
	}
	srv.StartWorker(t, "scn-silent", funcs)
	t.Cleanup(func() { close(stop) })
}
