package a2a_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"testing"

	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protojson"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

const (
	echoSpec   = `{"name": "echo", "exposure": {"a2a": true}, "model": {"provider": "scripted", "script": {"turns": [{"text": "Hello there, friend."}]}}}`
	hiddenSpec = `{"name": "hidden", "model": {"provider": "scripted", "script": {"turns": [{"text": "no"}]}}}`
)

// tenants is a server with a keys file: tenants acme and other, each with
// a runner and publisher key and echo published.
type tenants struct {
	srv         *testserver.Server
	acme, other string
}

func startTenants(t *testing.T) *tenants {
	t.Helper()
	path := filepath.Join(t.TempDir(), "keys.json")
	acme, e1 := tlstest.Key(t, "acme", "acme", auth.RoleRunner, auth.RolePublisher)
	other, e2 := tlstest.Key(t, "other", "other", auth.RoleRunner, auth.RolePublisher)
	tlstest.WriteKeys(t, path, []auth.Entry{e1, e2})
	s := testserver.Start(t, testserver.WithHTTP(), func(c *server.Config) { c.Security.KeysFile = path })
	for _, key := range []string{acme, other} {
		publish(t, s, key, echoSpec, hiddenSpec)
	}
	return &tenants{srv: s, acme: acme, other: other}
}

// publish publishes specs with key.
func publish(t *testing.T, s *testserver.Server, key string, specs ...string) {
	t.Helper()
	ctx := testserver.Context(t)
	if key != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+key)
	}
	for _, j := range specs {
		sp := &runsvcv1.Spec{}
		if err := protojson.Unmarshal([]byte(j), sp); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Specs.PublishSpec(ctx, &runsvcv1.PublishSpecRequest{Spec: sp}); err != nil {
			t.Fatalf("publishing %s: %v", sp.GetName(), err)
		}
	}
}

// reply is an HTTP response: its status, headers and body.
type reply struct {
	code   int
	header http.Header
	body   []byte
}

// do sends one request with key (and extra headers) and reads the reply.
func do(t *testing.T, method, url, key, body string, header ...string) reply {
	t.Helper()
	req, err := http.NewRequestWithContext(testserver.Context(t), method, url, bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = res.Body.Close() }()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{code: res.StatusCode, header: res.Header, body: b}
}

// rpc calls a JSON-RPC method of an agent.
func rpc(t *testing.T, base, agent, key, method, params string, header ...string) reply {
	t.Helper()
	body := `{"jsonrpc": "2.0", "id": 7, "method": "` + method + `", "params": ` + params + `}`
	return do(t, http.MethodPost, base+"/a2a/"+agent, key, body, header...)
}

// errorInfo is the reason and domain of the first ErrorInfo in details.
func errorInfo(details []json.RawMessage) (string, string) {
	for _, d := range details {
		var info struct {
			Type   string `json:"@type"`
			Reason string `json:"reason"`
			Domain string `json:"domain"`
		}
		if json.Unmarshal(d, &info) == nil && info.Type == "type.googleapis.com/google.rpc.ErrorInfo" {
			return info.Reason, info.Domain
		}
	}
	return "", ""
}

// rpcError is a JSON-RPC reply's error: code, reason, domain.
func rpcError(t *testing.T, r reply) (int, string, string) {
	t.Helper()
	var res struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code int               `json:"code"`
			Data []json.RawMessage `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal(r.body, &res); err != nil || res.Error == nil {
		t.Fatalf("not a JSON-RPC error (HTTP %d): %s", r.code, r.body)
	}
	reason, domain := errorInfo(res.Error.Data)
	return res.Error.Code, reason, domain
}

// restError is an HTTP+JSON reply's error: reason, domain.
func restError(t *testing.T, r reply) (string, string) {
	t.Helper()
	var res struct {
		Error *struct {
			Code    int               `json:"code"`
			Details []json.RawMessage `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(r.body, &res); err != nil || res.Error == nil || res.Error.Code != r.code {
		t.Fatalf("not a google.rpc.Status body (HTTP %d): %s", r.code, r.body)
	}
	return errorInfo(res.Error.Details)
}
