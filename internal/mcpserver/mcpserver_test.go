package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

// Specs is what the tests publish: three exposed over MCP, one not.
var Specs = []string{
	`{"name": "helper", "exposure": {"mcp": true, "description": "Answers politely."},
	  "model": {"provider": "scripted", "script": {"turns": [{"text": "Glad to help."}]}}}`,
	`{"name": "hidden", "model": {"provider": "scripted", "script": {"turns": [{"text": "secret"}]}}}`,
	`{"name": "asker", "exposure": {"mcp": true},
	  "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "ask_user", "arguments": {"question": "Which colour?"}}]}, {"text": "Blue it is."}]}},
	  "tools": [{"name": "ask_user", "kind": "TOOL_KIND_BUILTIN"}]}`,
	`{"name": "broken", "exposure": {"mcp": true}, "model": {"provider": "scripted", "script": {"turns": [{"fail": {"httpStatus": 400}}]}}}`,
	`{"name": "shaped", "exposure": {"mcp": true}, "output": {"schema": {"type": "object", "properties": {"colour": {"type": "string"}}, "required": ["colour"]}},
	  "model": {"provider": "scripted", "script": {"turns": [{"text": "{\"colour\": \"blue\"}"}]}}}`,
}

// keyed is a server with a keys file of two tenants, acme and globex.
type keyed struct {
	srv  *testserver.Server
	keys map[string]string // tenant/role → key
}

func startKeyed(t *testing.T) *keyed {
	t.Helper()
	k := &keyed{keys: map[string]string{}}
	var entries []auth.Entry
	for _, tenant := range []string{"acme", "globex"} {
		for _, role := range []string{auth.RoleAdmin, auth.RoleReader} {
			key, e := tlstest.Key(t, tenant+"-"+role, tenant, role)
			k.keys[tenant+"/"+role] = key
			entries = append(entries, e)
		}
	}
	file := filepath.Join(t.TempDir(), "keys.json")
	tlstest.WriteKeys(t, file, entries)
	k.srv = testserver.Start(t, testserver.WithMCP(), func(c *server.Config) { c.Security.KeysFile = file })
	return k
}

// bearerTransport adds an API key to every request.
type bearerTransport struct{ key string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.key != "" {
		r.Header.Set("Authorization", "Bearer "+b.key)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// connect opens an MCP session with key; elicit, when set, answers
// elicitations.
func connect(t *testing.T, url, key string, opts *mcp.ClientOptions) (*mcp.ClientSession, error) {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearerTransport{key}}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}

func publish(t *testing.T, k *keyed, tenant string) {
	t.Helper()
	conn := testserver.Dial(t, k.srv.Addr, grpcBearer(k.keys[tenant+"/admin"]))
	for _, sp := range Specs {
		testserver.Publish(t, specClient(conn), sp)
	}
}

func call(t *testing.T, cs *mcp.ClientSession, name, message string) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"message": message}})
	if err != nil {
		t.Fatalf("tools/call %s: %v", name, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// TestSpecsAsTools: acme's exposed Specs are its MCP tools (not the
// unexposed one, not globex's); a call starts a Run and answers with its
// answer, its structured output, or a tool error naming a failed Run; a
// question is elicited from a client that can answer it and is a tool
// error naming the Run for one that cannot; a missing or unknown key is
// refused.
func TestSpecsAsTools(t *testing.T) {
	k := startKeyed(t)
	publish(t, k, "acme")
	url := k.srv.MCPURL
	if _, err := connect(t, url, "", nil); err == nil {
		t.Fatal("a session without a key opened")
	}
	if _, err := connect(t, url, "not-a-key", nil); err == nil {
		t.Fatal("a session with an unknown key opened")
	}
	cs, err := connect(t, url, k.keys["acme/admin"], &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		if req.Params.Message != "Which colour?" {
			return &mcp.ElicitResult{Action: "decline"}, nil
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": "blue"}}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if want := []string{"asker", "broken", "helper", "shaped"}; !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	t.Run("answer", func(t *testing.T) {
		res := call(t, cs, "helper", "hello")
		if res.IsError || text(res) != "Glad to help." || res.Meta[MetaRunID] == nil {
			t.Fatalf("helper: %+v %q", res, text(res))
		}
	})
	t.Run("structured", func(t *testing.T) {
		res := call(t, cs, "shaped", "a colour")
		raw, _ := json.Marshal(res.StructuredContent)
		if res.IsError || string(raw) != `{"colour":"blue"}` {
			t.Fatalf("shaped: %s, isError %v", raw, res.IsError)
		}
	})
	t.Run("failed Run", func(t *testing.T) {
		res := call(t, cs, "broken", "hi")
		if !res.IsError || !strings.Contains(text(res), "ended FAILED") || !strings.Contains(text(res), "run") {
			t.Fatalf("broken: %+v %q", res, text(res))
		}
	})
	t.Run("elicitation", func(t *testing.T) {
		res := call(t, cs, "asker", "pick")
		if res.IsError || text(res) != "Blue it is." {
			t.Fatalf("asker with elicitation: %q, isError %v", text(res), res.IsError)
		}
	})
	t.Run("no elicitation", func(t *testing.T) {
		plain, err := connect(t, url, k.keys["acme/admin"], nil)
		if err != nil {
			t.Fatal(err)
		}
		res := call(t, plain, "asker", "pick")
		id, _ := res.Meta[MetaRunID].(string)
		if !res.IsError || id == "" || !strings.Contains(text(res), id) || !strings.Contains(text(res), "Which colour?") {
			t.Fatalf("asker without elicitation: %q, isError %v", text(res), res.IsError)
		}
	})
}

// TestIsolation: globex sees none of acme's tools and cannot call them;
// acme's reader is refused by the API's roles.
func TestIsolation(t *testing.T) {
	k := startKeyed(t)
	publish(t, k, "acme")
	url := k.srv.MCPURL
	t.Run("tenants", func(t *testing.T) {
		other, err := connect(t, url, k.keys["globex/admin"], nil)
		if err != nil {
			t.Fatal(err)
		}
		tools, err := other.ListTools(context.Background(), nil)
		if err != nil || len(tools.Tools) != 0 {
			t.Fatalf("globex lists %v (%v), want none of acme's", tools, err)
		}
		if _, err := other.CallTool(context.Background(), &mcp.CallToolParams{Name: "helper", Arguments: map[string]any{"message": "x"}}); err == nil {
			t.Fatal("globex called acme's helper")
		}
	})
	t.Run("roles", func(t *testing.T) {
		reader, err := connect(t, url, k.keys["acme/reader"], nil)
		if err != nil {
			t.Fatal(err)
		}
		res := call(t, reader, "helper", "hello")
		if !res.IsError || !strings.Contains(text(res), "ROLE_DENIED") {
			t.Fatalf("a reader's call: %q, isError %v", text(res), res.IsError)
		}
	})
}

const MetaRunID = "runsvc/run-id"

// TestOnHTTPSurface: --mcp-path serves the same server on the HTTP API,
// beside the API's own routes.
func TestOnHTTPSurface(t *testing.T) {
	s := testserver.Start(t, testserver.WithHTTP(), func(c *server.Config) { c.MCP.Path = "/mcp" })
	s.Publish(t, Specs[0])
	cs, err := connect(t, s.HTTPURL+"/mcp", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res := call(t, cs, "helper", "hello"); res.IsError || text(res) != "Glad to help." {
		t.Fatalf("helper on the HTTP surface: %q, isError %v", text(res), res.IsError)
	}
	resp, err := http.Get(s.HTTPURL + "/v1/specs")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the API beside it: %v %v", resp, err)
	}
	_ = resp.Body.Close()
}
