package httpapi_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/runsvc/runsvc/client"
	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// errorCase is one call that fails, made the same way on every protocol.
type errorCase struct {
	name   string
	role   string // the key's role; "" calls without a key
	method string
	req    proto.Message
	reason string
	retry  bool
	// noREST: the request cannot be made over REST (an empty path field).
	noREST bool
}

var errorCases = []errorCase{
	{"a run that does not exist", "reader", "RunService/GetRun", &runsvcv1.GetRunRequest{RunId: "run_does_not_exist"}, "RUN_NOT_FOUND", false, false},
	{"a request without a required field", "reader", "RunService/GetRun", &runsvcv1.GetRunRequest{}, "INVALID_REQUEST", false, true},
	{"no API key", "", "RunService/GetRun", &runsvcv1.GetRunRequest{RunId: "run_x"}, "UNAUTHENTICATED", false, false},
	{"a role that may not publish", "reader", "SpecService/PublishSpec", &runsvcv1.PublishSpecRequest{Spec: &runsvcv1.Spec{Name: "x"}}, "ROLE_DENIED", false, false},
	{"a Spec with 1,000 problems, cut to fit", "admin", "SpecService/PublishSpec", manyProblems(), "SPEC_INVALID", false, false},
	{"a tenant's concurrent Runs spent", "runner", "RunService/StartRun", &runsvcv1.StartRunRequest{Spec: "hello", Input: "again"}, "QUOTA_EXCEEDED", true, false},
}

// manyProblems is a Spec with 1,000 problems (no model, 999 bad
// delegates), whose BadRequest the table cuts to fit the wire.
func manyProblems() *runsvcv1.PublishSpecRequest {
	sp := &runsvcv1.Spec{Name: "many-problems"}
	for range 999 {
		sp.Delegates = append(sp.Delegates, "9")
	}
	return &runsvcv1.PublishSpecRequest{Spec: sp}
}

// TestSameErrorOnEveryProtocol: every case gives, over Connect (JSON and
// binary), gRPC-Web, gRPC on the HTTP port and REST (net/http only), the code, reason, domain, retry
// bit and delay and the details it gives over gRPC: the calls reach the
// same handlers through the same interceptors (authentication, roles,
// quotas, the error table).
func TestSameErrorOnEveryProtocol(t *testing.T) {
	k := startKeyed(t)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(testserver.Dial(t, k.srv.Addr, bearerOpt(k.keys["admin"]))), helloSpec)
	if st, _ := grpcCall(t, k.srv, k.keys["runner"], "RunService/StartRun", &runsvcv1.StartRunRequest{Spec: "hello", Input: "first"}); st != nil {
		t.Fatalf("the first Run: %v", st)
	}
	for _, c := range errorCases {
		t.Run(c.name, func(t *testing.T) {
			want, _ := grpcCall(t, k.srv, k.keys[c.role], c.method, c.req)
			w := client.ClassifyStatus(want)
			if w.Reason != c.reason || w.Retryable != c.retry {
				t.Fatalf("over gRPC: %s retry=%v (%v), want %s retry=%v", w.Reason, w.Retryable, want, c.reason, c.retry)
			}
			for _, p := range rpcProtocols[1:] {
				got, _ := p.call(t, k.srv, k.keys[c.role], c.method, c.req)
				same(t, p.name, got, want)
			}
			if !c.noREST {
				checkREST(t, restCall(t, k.srv, k.keys[c.role], c.method, c.req), want)
			}
		})
	}
}

// TestSuccessOnEveryProtocol: a call that succeeds answers the same over
// every protocol.
func TestSuccessOnEveryProtocol(t *testing.T) {
	k := startKeyed(t)
	for _, p := range rpcProtocols {
		req := &runsvcv1.PublishSpecRequest{Spec: &runsvcv1.Spec{}}
		if err := protoUnmarshalJSON(helloSpec, req.Spec); err != nil {
			t.Fatal(err)
		}
		st, resp := p.call(t, k.srv, k.keys["admin"], "SpecService/PublishSpec", req)
		if st != nil {
			t.Fatalf("%s: %v", p.name, st)
		}
		var out runsvcv1.PublishSpecResponse
		b, _ := proto.Marshal(resp)
		if err := proto.Unmarshal(b, &out); err != nil || out.GetSpec().GetName() != "hello" {
			t.Errorf("%s: %v (%v), want the Spec hello", p.name, &out, err)
		}
	}
	req := &runsvcv1.PublishSpecRequest{Spec: &runsvcv1.Spec{}}
	if err := protoUnmarshalJSON(helloSpec, req.Spec); err != nil {
		t.Fatal(err)
	}
	got := restCall(t, k.srv, k.keys["admin"], "SpecService/PublishSpec", req)
	var out runsvcv1.PublishSpecResponse
	if got.httpStatus != http.StatusOK || protojson.Unmarshal(got.body, &out) != nil || out.GetSpec().GetName() != "hello" {
		t.Errorf("rest: HTTP %d %s, want the Spec hello", got.httpStatus, got.body)
	}
}

// TestOpenAPI: /openapi.json is the generated OpenAPI 3 document, as
// JSON, with the REST paths of the protos' rules, and needs no key.
func TestOpenAPI(t *testing.T) {
	k := startKeyed(t)
	r, err := http.NewRequestWithContext(ctxT(t), http.MethodGet, k.srv.HTTPURL+"/openapi.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := doREST(t, r)
	var doc struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(got.body, &doc); err != nil || got.httpStatus != http.StatusOK {
		t.Fatalf("HTTP %d (%v): %.200s", got.httpStatus, err, got.body)
	}
	if doc.OpenAPI != "3.0.3" || doc.Paths["/v1/runs/{runId}"]["get"] == nil || doc.Paths["/v1/runs/{runId}:resume"]["post"] == nil {
		t.Errorf("openapi %q, paths %v", doc.OpenAPI, len(doc.Paths))
	}
}
