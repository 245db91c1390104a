package scenario_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/scenario"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// unprovokable are reasons in the table that no client call can provoke on
// a healthy single server, and where each is tested instead.
var unprovokable = map[string]string{
	"SPEC_UNBUILDABLE":   "every Spec that validates can be built by this server; errdetails wire test",
	"DEPENDENCY_MISSING": "every tool kind and provider is compiled in; errdetails wire test",
	"UNAUTHENTICATED":    "scenarios run without a keys file: internal/server/authn tests",
	"STORE_UNAVAILABLE":  "needs the store down: postgres outage tests",
	"OVERLOADED":         "needs saturation: admission test",
	"SEQ_CONFLICT":       "between writers, never sent to clients: store conformance suite",
	"LEASE_LOST":         "between workers, never sent to clients: store conformance suite",
	"LOG_CORRUPT":        "needs a corrupted store: engine corruption test",
	"INTERNAL":           "needs a bug: errdetails panic test",
	"METHOD_NOT_FOUND":   "the runners call only runsvc.v1's own methods: server TestUndecodableRequests",
	"ROLE_DENIED":        "scenarios run without a keys file: internal/server/authn tests",
	"MCP_REJECTED":       "scenario servers run no stdio MCP server and reach no MCP server that refuses: mcptool TestPublishImportFailures, TestStdioFailures, TestExecuteFailures",
	"QUOTA_EXCEEDED":     "scenarios run without a keys file: internal/server/authn quota test",
	"TOOL_IN_DOUBT":      "needs a crash mid-call: blackbox TestCallsInDoubtAfterACrash",
}

func repoFile(t *testing.T, rel string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestScenarios runs every scenario against a real server through grpc-go,
// and every scenario that ends in an RPC error again through grpcurl.
func TestScenarios(t *testing.T) {
	f, err := scenario.Load(repoFile(t, "testdata/scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Built first: on a loaded machine the build can take longer than
	// the scenarios' context lasts.
	grpcurl := buildGrpcurl(t)
	srv := testserver.Start(t, func(c *server.Config) { c.PolicyFile = repoFile(t, "testdata/policy.json") })
	r := &scenario.Runner{Conn: srv.Conn, Suite: "go"}
	ctx := testserver.Context(t)
	if err := r.Setup(ctx, f); err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, s := range f.Scenarios {
		covered[s.Reason] = true
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			o, err := r.Run(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range s.Problems(o) {
				t.Errorf("%s: %s", s.Reason, p)
			}
			if !o.RPC {
				return
			}
			t.Run("grpcurl", func(t *testing.T) {
				st := viaGrpcurl(t, grpcurl, srv.Addr, o.Method, o.Request)
				c := errdetails.ClassifyStatus(st)
				if c.Reason != s.Reason || scenario.CodeName(c.Code) != s.Code || c.Retryable != s.Retryable {
					t.Errorf("grpcurl saw %s %s retryable=%v, want %s %s retryable=%v", scenario.CodeName(c.Code), c.Reason, c.Retryable, s.Code, s.Reason, s.Retryable)
				}
			})
		})
	}
	t.Run("every reason is covered", func(t *testing.T) {
		for _, reason := range errdetails.Reasons() {
			if !covered[reason] && unprovokable[reason] == "" {
				t.Errorf("reason %s has no scenario and is not listed as unprovokable", reason)
			}
			if covered[reason] && unprovokable[reason] != "" {
				t.Errorf("reason %s has a scenario but is listed as unprovokable", reason)
			}
		}
	})
}

func buildGrpcurl(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "grpcurl")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/fullstorydev/grpcurl/cmd/grpcurl")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building grpcurl: %v\n%s", err, out)
	}
	return bin
}

// viaGrpcurl makes a call with grpcurl and reads the status it prints.
func viaGrpcurl(t *testing.T, grpcurl, addr, method, request string) *spb.Status {
	t.Helper()
	cmd := exec.Command(grpcurl, "-plaintext", "-format-error", "-d", "@", addr, "runsvc.v1."+method)
	cmd.Stdin = strings.NewReader(request)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("grpcurl: %v (want it to exit non-zero with a status); output: %s %s", err, stdout.String(), stderr.String())
	}
	// A stream prints its messages first: the status is the last object.
	var last json.RawMessage
	dec := json.NewDecoder(io.MultiReader(&stdout, &stderr))
	for {
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break
		}
		last = v
	}
	st := &spb.Status{}
	if err := protojson.Unmarshal(last, st); err != nil {
		t.Fatalf("grpcurl's status %q: %v", last, err)
	}
	return st
}

func TestMain(m *testing.M) {
	os.Exit(m.Run())
}
