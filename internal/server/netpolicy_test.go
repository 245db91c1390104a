package server_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// toolSpec is a Spec whose model calls the http tool at url once, then
// answers "done".
func toolSpec(name, url string) string {
	return fmt.Sprintf(`{"name": %q, "model": {"provider": "scripted", "script": {"turns": [
	  {"toolCalls": [{"name": "fetch", "arguments": {}}]}, {"text": "done"}]}},
	  "tools": [{"name": "fetch", "kind": "TOOL_KIND_HTTP", "http": {"url": %q}}]}`, name, url)
}

// countingTool is an http tool on 127.0.0.1 that counts its calls.
func countingTool(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		_, _ = w.Write([]byte(`{"ok": true}`))
	}))
	t.Cleanup(ts.Close)
	return ts, &calls
}

func allowNetworks(n ...string) testserver.Option {
	return func(c *server.Config) { c.AllowNetworks = n }
}

// toolOutcome is the Run's state and the text of its records.
func toolOutcome(t *testing.T, srv *testserver.Server, specName string) (runsvcv1.RunState, string) {
	t.Helper()
	run := srv.Settled(t, srv.Start(t, specName, "go").GetRunId())
	var b strings.Builder
	for _, r := range srv.Records(t, run.GetRunId()) {
		b.Write([]byte(protojson.Format(r)))
	}
	return run.GetState(), b.String()
}

// TestOutboundNetworkPolicy: the operator's allowed networks decide
// whether an http tool is reached, checked on the address actually dialled
// (redirects included); a refusal is the tool's result and the Run goes on.
func TestOutboundNetworkPolicy(t *testing.T) {
	tool, calls := countingTool(t)
	// A redirect from an allowed address to a refused one (127.0.0.2 is
	// never connected to: the policy refuses before dialling).
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.2:9/", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirect.Close)
	tests := []struct {
		name    string
		allow   []string
		url     string
		reached bool
	}{
		{name: "loopback allowed", allow: []string{"127.0.0.0/8"}, url: tool.URL, reached: true},
		{name: "default policy", url: tool.URL, reached: true},
		// A name resolving to a refused address passes publish and is
		// refused when dialled.
		{name: "only another network", allow: []string{"10.0.0.0/8"}, url: strings.Replace(tool.URL, "127.0.0.1", "localhost", 1)},
		{name: "redirect to a refused address", allow: []string{"127.0.0.1/32"}, url: redirect.URL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := testserver.Start(t, allowNetworks(tt.allow...))
			srv.Publish(t, toolSpec("fetcher", tt.url))
			before := calls.Load()
			state, records := toolOutcome(t, srv, "fetcher")
			if state != runsvcv1.RunState_RUN_STATE_COMPLETED {
				t.Fatalf("Run %v, want COMPLETED (a refusal is the tool's result); records: %s", state, records)
			}
			got := calls.Load() - before
			denied := strings.Contains(records, "ACCESS_DENIED") && strings.Contains(records, "outbound network policy")
			if tt.reached && (got != 1 || denied) {
				t.Fatalf("tool reached %d times, denied %v; want reached once; records: %s", got, denied, records)
			}
			if !tt.reached && (got != 0 || !denied) {
				t.Fatalf("tool reached %d times, denied %v; want refused; records: %s", got, denied, records)
			}
		})
	}
}

// TestMetadataURLRefusedAtPublish: a tool URL naming a cloud metadata
// address is ACCESS_DENIED at publish unless the operator lists it; no
// traffic is sent to it (the check is on the URL's literal address).
func TestMetadataURLRefusedAtPublish(t *testing.T) {
	tests := []struct {
		name   string
		allow  []string
		url    string
		denied bool
	}{
		{name: "IPv4 metadata, default", url: "http://169.254.169.254/latest/meta-data/", denied: true},
		{name: "IPv6 metadata, default", url: "http://[fd00:ec2::254]/", denied: true},
		{name: "metadata with everything allowed", allow: []string{"0.0.0.0/0"}, url: "http://169.254.169.254/", denied: true},
		{name: "outside the allowed networks", allow: []string{"127.0.0.0/8"}, url: "http://192.0.2.1/", denied: true},
		{name: "metadata listed explicitly", allow: []string{"169.254.169.254/32"}, url: "http://169.254.169.254/", denied: false},
		{name: "a host name is checked when dialled", allow: []string{"10.0.0.0/8"}, url: "http://tools.invalid/", denied: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := testserver.Start(t, allowNetworks(tt.allow...))
			sp := &runsvcv1.Spec{}
			if err := protojson.Unmarshal([]byte(toolSpec("meta", tt.url)), sp); err != nil {
				t.Fatal(err)
			}
			_, err := srv.Specs.PublishSpec(testserver.Context(t), &runsvcv1.PublishSpecRequest{Spec: proto.Clone(sp).(*runsvcv1.Spec)})
			if !tt.denied {
				if err != nil {
					t.Fatalf("PublishSpec = %v, want success", err)
				}
				return
			}
			if status.Code(err) != codes.PermissionDenied || reasonOf(err) != "ACCESS_DENIED" {
				t.Fatalf("PublishSpec = %v (reason %q), want PERMISSION_DENIED ACCESS_DENIED", err, reasonOf(err))
			}
		})
	}
}
