package console_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

// bearer sends an API key on a plaintext loopback connection.
type bearer string

func (b bearer) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(b)}, nil
}
func (bearer) RequireTransportSecurity() bool { return false }

// world is a runsvc with a keys file (tenants acme and globex, each with
// admin, runner and reader keys), a policy that asks approval before
// delete_repo, an HTTP tool server for it, and the console.
type world struct {
	srv     *testserver.Server
	keys    map[string]string // "acme/admin" -> key
	deletes atomic.Int32      // calls the delete_repo tool server answered
	runs    runsvcv1.RunServiceClient
	specs   runsvcv1.SpecServiceClient
	toolURL string
}

// startWorld starts the world; opts change the server's configuration.
func startWorld(t testing.TB, opts ...testserver.Option) *world {
	t.Helper()
	w := &world{keys: map[string]string{}}
	dir := t.TempDir()
	var entries []auth.Entry
	for _, tenant := range []string{"acme", "globex"} {
		for _, role := range []string{auth.RoleAdmin, auth.RoleRunner, auth.RoleReader} {
			key, e := tlstest.Key(t, tenant+"-"+role, tenant, role)
			w.keys[tenant+"/"+role] = key
			entries = append(entries, e)
		}
	}
	keysFile := filepath.Join(dir, "keys.json")
	tlstest.WriteKeys(t, keysFile, entries)
	policyFile := filepath.Join(dir, "policy.json")
	rules := `{"rules": [{"tool": "delete_repo", "decision": "require_approval", "reason": "deleting a repository needs a person"}]}`
	if err := os.WriteFile(policyFile, []byte(rules), 0o600); err != nil {
		t.Fatal(err)
	}
	tools := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) {
		w.deletes.Add(1)
		rw.Header().Set("Content-Type", "application/json")
		_, _ = rw.Write([]byte(`{"deleted": true}`))
	}))
	t.Cleanup(tools.Close)
	w.toolURL = tools.URL
	cfg := func(c *server.Config) {
		c.Security.KeysFile = keysFile
		c.PolicyFile = policyFile
		c.Console.Listen = "127.0.0.1:0"
	}
	w.srv = testserver.Start(t, append([]testserver.Option{cfg}, opts...)...)
	conn := w.dial(t, "acme/admin")
	w.runs, w.specs = runsvcv1.NewRunServiceClient(conn), runsvcv1.NewSpecServiceClient(conn)
	for _, sp := range w.specJSON() {
		testserver.Publish(t, w.specs, sp)
	}
	return w
}

// dial connects to the API with one of the world's keys.
func (w *world) dial(t testing.TB, who string) *grpc.ClientConn {
	t.Helper()
	return testserver.Dial(t, w.srv.Addr, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithPerRPCCredentials(bearer(w.keys[who])))
}

// specJSON are acme's Specs: support suspends on a client tool and then
// answers; flaky fails after its tool call with the upstream down and the
// retry budget spent; janitor needs an approval; slow streams its answer
// after a long model call.
func (w *world) specJSON() []string {
	return []string{
		`{"name": "support", "model": {"provider": "scripted", "script": {"turns": [
		  {"text": "Looking it up", "toolCalls": [{"name": "lookup", "arguments": {"q": "order 42"}}], "usage": {"inputTokens": 120, "outputTokens": 8}},
		  {"text": "Order 42 shipped", "usage": {"inputTokens": 150, "outputTokens": 5}}]}},
		  "tools": [{"name": "lookup", "kind": "TOOL_KIND_CLIENT", "description": "Look an order up"}]}`,
		`{"name": "flaky", "limits": {"transientRetryBudget": 1}, "model": {"provider": "scripted", "script": {"turns": [
		  {"toolCalls": [{"name": "lookup", "arguments": {"q": "<b>bold</b>"}}]},
		  {"fail": {"httpStatus": 503, "times": 10, "message": "upstream down"}}]}},
		  "tools": [{"name": "lookup", "kind": "TOOL_KIND_CLIENT", "description": "Look an order up"}]}`,
		fmt.Sprintf(`{"name": "janitor", "model": {"provider": "scripted", "script": {"turns": [
		  {"toolCalls": [{"name": "delete_repo", "arguments": {"repo": "old-site"}}]},
		  {"text": "Deleted"}]}},
		  "tools": [{"name": "delete_repo", "kind": "TOOL_KIND_HTTP", "description": "Delete a repository", "http": {"url": %q}}]}`, w.toolURL+"/delete"),
		`{"name": "slow", "model": {"provider": "scripted", "script": {"turns": [
		  {"text": "streamed answer arrives", "delay": "4s"}]}}}`,
		`{"name": "asker", "model": {"provider": "scripted", "script": {"turns": [
		  {"toolCalls": [{"name": "ask_user", "arguments": {"question": "Which region?"}}]},
		  {"text": "Thanks"}]}},
		  "tools": [{"name": "ask_user", "kind": "TOOL_KIND_BUILTIN", "description": "Ask the user"}]}`,
	}
}

// start starts a Run of spec as acme's admin.
func (w *world) start(t testing.TB, spec string) string {
	t.Helper()
	resp, err := w.runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: spec, Input: "please"})
	if err != nil {
		t.Fatalf("StartRun(%s): %v", spec, err)
	}
	return resp.GetRun().GetRunId()
}

// waitFor waits until the Run is in state, failing the test after 30s.
func (w *world) waitFor(t testing.TB, id string, state runsvcv1.RunState) *runsvcv1.Run {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := w.runs.WaitRun(testserver.Context(t), &runsvcv1.WaitRunRequest{RunId: id, Wait: durationpb.New(time.Second)})
		if err != nil {
			t.Fatalf("WaitRun(%s): %v", id, err)
		}
		if resp.GetRun().GetState() == state {
			return resp.GetRun()
		}
		if time.Now().After(deadline) {
			t.Fatalf("Run %s is %v, want %v", id, resp.GetRun().GetState(), state)
		}
	}
}

// records is the Run's log.
func (w *world) records(t testing.TB, id string) []*runsvcv1.Record {
	t.Helper()
	return testserver.Records(t, w.runs, id)
}
