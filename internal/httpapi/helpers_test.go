package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/genproto/googleapis/rpc/code"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/runsvc/runsvc/client"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/httpapi"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/scenario"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

// helloSpec suspends on a client tool: its Run stays unsettled.
const helloSpec = `{"name": "hello", "model": {"provider": "scripted", "script": {"turns": [
  {"text": "Let me look.", "toolCalls": [{"name": "lookup", "arguments": {"q": "weather"}}]},
  {"text": "It is sunny."}]}},
  "tools": [{"name": "lookup", "kind": "TOOL_KIND_CLIENT", "description": "Look things up"}]}`

// keyed is a server with a keys file and the HTTP API: tenant acme, one key
// per role, and at most one unsettled Run, so a second StartRun is
// QUOTA_EXCEEDED (retryable).
type keyed struct {
	srv  *testserver.Server
	keys map[string]string
}

func startKeyed(t *testing.T) *keyed {
	t.Helper()
	k := &keyed{keys: map[string]string{}}
	path := filepath.Join(t.TempDir(), "keys.json")
	var entries []auth.Entry
	for _, role := range auth.Roles {
		key, e := tlstest.Key(t, "acme-"+role, "acme", role)
		e.Quota = auth.Quota{MaxConcurrentRuns: 1}
		k.keys[role] = key
		entries = append(entries, e)
	}
	tlstest.WriteKeys(t, path, entries)
	k.srv = testserver.Start(t, testserver.WithHTTP(), func(c *server.Config) { c.Security.KeysFile = path })
	return k
}

// protocol calls one method of runsvc one way and returns the status it
// ended with (nil on success) and the response.
type protocol struct {
	name string
	call func(t *testing.T, s *testserver.Server, key, method string, req proto.Message) (*spb.Status, proto.Message)
}

// rpcProtocols are gRPC and the three ways to reach the same handlers
// over the HTTP port with an RPC client.
var rpcProtocols = []protocol{
	{"grpc", grpcCall},
	{"connect+json", connectCall(connect.WithProtoJSON())},
	{"connect+proto", connectCall()},
	{"grpc-web", connectCall(connect.WithGRPCWeb())},
	{"grpc on the HTTP port", grpcOnHTTPPort},
}

// grpcOnHTTPPort calls over native gRPC (h2c) on the HTTP port.
func grpcOnHTTPPort(t *testing.T, s *testserver.Server, key, method string, req proto.Message) (*spb.Status, proto.Message) {
	other := *s
	other.Conn = testserver.Dial(t, strings.TrimPrefix(s.HTTPURL, "http://"))
	return grpcCall(t, &other, key, method, req)
}

// methodDesc finds "RunService/GetRun" in runsvc.v1.
func methodDesc(t *testing.T, method string) protoreflect.MethodDescriptor {
	t.Helper()
	svc, name, _ := cutLast(method)
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName("runsvc.v1." + svc + "." + name))
	if err != nil {
		t.Fatalf("no method %s: %v", method, err)
	}
	return d.(protoreflect.MethodDescriptor)
}

func cutLast(s string) (string, string, bool) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return s[:i], s[i+1:], true
		}
	}
	return "", s, false
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// grpcCall calls over native gRPC on --listen.
func grpcCall(t *testing.T, s *testserver.Server, key, method string, req proto.Message) (*spb.Status, proto.Message) {
	md := methodDesc(t, method)
	resp := dynamicpb.NewMessage(md.Output())
	ctx := ctxT(t)
	if key != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+key)
	}
	err := s.Conn.Invoke(ctx, "/runsvc.v1."+method, req, resp, grpc.WaitForReady(false))
	if err != nil {
		return status.Convert(err).Proto(), nil
	}
	return nil, resp
}

// connectCall calls over the HTTP port with connect-go, in the Connect
// protocol (JSON or binary) or, with connect.WithGRPCWeb, gRPC-Web.
func connectCall(opts ...connect.ClientOption) func(*testing.T, *testserver.Server, string, string, proto.Message) (*spb.Status, proto.Message) {
	return func(t *testing.T, s *testserver.Server, key, method string, req proto.Message) (*spb.Status, proto.Message) {
		md := methodDesc(t, method)
		c := connect.NewClient[dynamicpb.Message, dynamicpb.Message](http.DefaultClient, s.HTTPURL+"/runsvc.v1."+method,
			append([]connect.ClientOption{connect.WithSchema(md), connect.WithResponseInitializer(dynamicOutput)}, opts...)...)
		in := dynamicpb.NewMessage(md.Input())
		b, err := proto.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		if err := proto.Unmarshal(b, in); err != nil {
			t.Fatal(err)
		}
		r := connect.NewRequest(in)
		if key != "" {
			r.Header().Set("Authorization", "Bearer "+key)
		}
		resp, err := c.CallUnary(ctxT(t), r)
		if err != nil {
			return connectStatus(t, err), nil
		}
		return nil, resp.Msg
	}
}

func dynamicOutput(spec connect.Spec, msg any) error {
	if d, ok := msg.(*dynamicpb.Message); ok {
		*d = *dynamicpb.NewMessage(spec.Schema.(protoreflect.MethodDescriptor).Output())
	}
	return nil
}

// connectStatus is a connect-go error as the google.rpc.Status it carries.
func connectStatus(t *testing.T, err error) *spb.Status {
	t.Helper()
	var ce *connect.Error
	if !errors.As(err, &ce) {
		t.Fatalf("not a connect error: %v", err)
	}
	st := &spb.Status{Code: int32(ce.Code()), Message: ce.Message()}
	for _, d := range ce.Details() {
		st.Details = append(st.Details, &anypb.Any{TypeUrl: "type.googleapis.com/" + d.Type(), Value: d.Bytes()})
	}
	return st
}

// same fails unless two statuses classify alike: code, reason, domain,
// metadata keys, retry bit and delay.
func same(t *testing.T, label string, got, want *spb.Status) {
	t.Helper()
	g, w := client.ClassifyStatus(got), client.ClassifyStatus(want)
	if g.Code != w.Code || g.Reason != w.Reason || g.Domain != w.Domain || g.Retryable != w.Retryable || g.RetryDelay != w.RetryDelay {
		t.Errorf("%s: got %v %s/%s retry=%v %v, want %v %s/%s retry=%v %v", label,
			g.Code, g.Domain, g.Reason, g.Retryable, g.RetryDelay, w.Code, w.Domain, w.Reason, w.Retryable, w.RetryDelay)
	}
	if len(g.Metadata) != len(w.Metadata) {
		t.Errorf("%s: metadata %v, want %v", label, g.Metadata, w.Metadata)
	}
	if len(got.GetDetails()) != len(want.GetDetails()) {
		t.Errorf("%s: %d details, want %d", label, len(got.GetDetails()), len(want.GetDetails()))
	}
	if g.Metadata["violationCount"] != w.Metadata["violationCount"] {
		t.Errorf("%s: violationCount %q, want %q", label, g.Metadata["violationCount"], w.Metadata["violationCount"])
	}
	if n := errdetails.WireSize(got); n > 3072 {
		t.Errorf("%s: the status is %d bytes on gRPC's wire, over 3,072", label, n)
	}
}

// bearerOpt sends key as a bearer token on every gRPC call.
func bearerOpt(key string) grpc.DialOption {
	return grpc.WithUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		return invoker(metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+key), method, req, reply, cc, opts...)
	})
}

func protoUnmarshalJSON(s string, m proto.Message) error { return protojson.Unmarshal([]byte(s), m) }

// restReply is a REST response: its HTTP status, Retry-After, and the
// AIP-193 error body read back as a google.rpc.Status (nil on success).
type restReply struct {
	httpStatus int
	retryAfter string
	status     *spb.Status
	body       []byte
}

// restCall calls a method over REST with net/http only, at the path its
// google.api.http rule gives, filling the path from req and sending the
// rule's body as JSON.
func restCall(t *testing.T, s *testserver.Server, key, method string, req proto.Message) restReply {
	t.Helper()
	verb, path, body, err := scenario.RESTRequest(strings.TrimPrefix(method, "/runsvc.v1."), req)
	if err != nil {
		t.Fatal(err)
	}
	r, err := http.NewRequestWithContext(ctxT(t), verb, s.HTTPURL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		r.Header.Set("Authorization", "Bearer "+key)
	}
	return doREST(t, r)
}

// doREST sends r and reads the reply.
func doREST(t *testing.T, r *http.Request) restReply {
	t.Helper()
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	return doRESTBody(t, resp)
}

// doRESTBody reads a REST reply.
func doRESTBody(t *testing.T, resp *http.Response) restReply {
	t.Helper()
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	out := restReply{httpStatus: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), body: b}
	if resp.StatusCode != http.StatusOK {
		out.status = aip193Status(t, b)
	}
	return out
}

// aip193Status reads an AIP-193 error body, failing the test when it is
// not one.
func aip193Status(t *testing.T, b []byte) *spb.Status {
	t.Helper()
	var body struct {
		Error struct {
			Code    int               `json:"code"`
			Message string            `json:"message"`
			Status  string            `json:"status"`
			Details []json.RawMessage `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(b, &body); err != nil || body.Error.Status == "" {
		t.Fatalf("not an AIP-193 error body (%v): %s", err, b)
	}
	code, ok := codeByName[body.Error.Status]
	if !ok {
		t.Fatalf("status %q is no google.rpc.Code: %s", body.Error.Status, b)
	}
	if body.Error.Code != httpapi.HTTPStatus(code) {
		t.Errorf("error.code %d, want %d for %s", body.Error.Code, httpapi.HTTPStatus(code), body.Error.Status)
	}
	st := &spb.Status{Code: int32(code), Message: body.Error.Message}
	for _, d := range body.Error.Details {
		a := &anypb.Any{}
		if err := protojson.Unmarshal(d, a); err != nil {
			t.Fatalf("detail %s: %v", d, err)
		}
		st.Details = append(st.Details, a)
	}
	return st
}

var codeByName = func() map[string]codes.Code {
	m := map[string]codes.Code{}
	for c := codes.OK; c <= codes.Unauthenticated; c++ {
		m[strings.ToUpper(code.Code_name[int32(c)])] = c
	}
	return m
}()

// checkREST fails unless a REST reply carries the status want (as same
// does) with the HTTP status AIP-193 gives its code and Retry-After
// exactly when it is retryable, in whole seconds.
func checkREST(t *testing.T, got restReply, want *spb.Status) {
	t.Helper()
	if got.status == nil {
		t.Fatalf("rest: HTTP %d %s, want an error", got.httpStatus, got.body)
	}
	same(t, "rest", got.status, want)
	w := client.ClassifyStatus(want)
	if got.httpStatus != httpapi.HTTPStatus(w.Code) {
		t.Errorf("rest: HTTP %d, want %d for %v", got.httpStatus, httpapi.HTTPStatus(w.Code), w.Code)
	}
	wantAfter := ""
	if w.Retryable {
		wantAfter = strconv.Itoa(int(math.Ceil(w.RetryDelay.Seconds())))
	}
	if got.retryAfter != wantAfter {
		t.Errorf("rest: Retry-After %q, want %q", got.retryAfter, wantAfter)
	}
}
