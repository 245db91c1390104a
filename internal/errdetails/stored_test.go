package errdetails_test

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
)

// storedKeys are the only keys a stored failure has (docs/storage.md).
var storedKeys = map[string]bool{
	"v": true, "code": true, "reason": true, "message": true, "metadata": true, "details": true,
	"retryable": true, "retryAfter": true, "modelText": true, "modelRetryable": true,
}

// TestStoredFailuresReadBackOverTheWire stores every reason as a Run does,
// writes it as JSON, reads it back and sends it from a real server: the
// client sees exactly the status the typed error maps to.
func TestStoredFailuresReadBackOverTheWire(t *testing.T) {
	errs.SetFailureEncoder(errdetails.StoredFailure)
	ts := startServer(t, errdetails.Options{})
	client := ts.dial(t)
	m := errdetails.New(errdetails.Options{})
	for _, tc := range wireCases() {
		t.Run(tc.reason, func(t *testing.T) {
			stored := errs.Store(tc.err, "err_0123456789abcdef")
			b, err := json.Marshal(stored)
			if err != nil {
				t.Fatal(err)
			}
			var keys map[string]json.RawMessage
			if err := json.Unmarshal(b, &keys); err != nil {
				t.Fatal(err)
			}
			for k := range keys {
				if !storedKeys[k] {
					t.Errorf("stored failure has key %q, not in the schema: %s", k, b)
				}
			}
			if typ := reflect.TypeOf(errs.Typed(tc.err)); typ != nil && strings.Contains(string(b), `"`+typ.Elem().Name()+`"`) {
				t.Errorf("stored failure names the Go type %s: %s", typ.Elem().Name(), b)
			}
			var back errs.Stored
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			id := "stored-" + tc.reason
			ts.runs.set(id, func() error { return back.Err() })
			_, err = client.GetRun(testContext(t), &runsvcv1.GetRunRequest{RunId: id})
			checkStatus(t, tc, err)
			want := m.Describe(errs.Typed(tc.err)).Status.Proto()
			if tc.reason == "INTERNAL" {
				want = m.Describe(&errs.Internal{ErrorID: "err_0123456789abcdef"}).Status.Proto()
			}
			if got := status.Convert(err).Proto(); !proto.Equal(got, want) {
				t.Errorf("stored status differs from the mapped one:\n got %v\nwant %v", got, want)
			}
		})
	}
}

// TestStoredFailureIgnoresTheTable reads a failure written by a build
// whose table and types are gone (a reason and a type name this build
// does not have): it reads back exactly as stored.
func TestStoredFailureIgnoresTheTable(t *testing.T) {
	pre, err := anypb.New(&edpb.PreconditionFailure{Violations: []*edpb.PreconditionFailure_Violation{{Type: "OLD", Subject: "s", Description: "d"}}})
	if err != nil {
		t.Fatal(err)
	}
	preBytes, err := proto.Marshal(pre)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		json string
	}{
		{"a retired reason", `{"v":2,"code":9,"reason":"RETIRED_REASON","message":"gone","metadata":{"oldKey":"x"},"details":["` + b64(preBytes) + `"]}`},
		{"a stray version 1 kind", `{"v":2,"code":9,"reason":"RETIRED_REASON","message":"gone","metadata":{"oldKey":"x"},"details":["` + b64(preBytes) + `"],"kind":"TypeThatNoLongerExists","fields":{"X":1}}`},
	}
	ts := startServer(t, errdetails.Options{})
	client := ts.dial(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s errs.Stored
			if err := json.Unmarshal([]byte(tc.json), &s); err != nil {
				t.Fatal(err)
			}
			ts.runs.set(tc.name, func() error { return s.Err() })
			_, err := client.GetRun(testContext(t), &runsvcv1.GetRunRequest{RunId: tc.name})
			st := status.Convert(err)
			if st.Code() != codes.FailedPrecondition || st.Message() != "gone" {
				t.Fatalf("status = %v %q, want FAILED_PRECONDITION %q", st.Code(), st.Message(), "gone")
			}
			c := errdetails.Classify(err)
			if c.Reason != "RETIRED_REASON" || c.Domain != errdetails.DefaultDomain || c.Metadata["oldKey"] != "x" || len(c.Metadata) != 1 {
				t.Errorf("ErrorInfo = %s/%s %v, want runsvc/RETIRED_REASON {oldKey: x}", c.Domain, c.Reason, c.Metadata)
			}
			var names []string
			for _, d := range st.Details() {
				names = append(names, string(proto.MessageName(d.(proto.Message)).Name()))
				if p, ok := d.(*edpb.PreconditionFailure); ok && p.GetViolations()[0].GetType() != "OLD" {
					t.Errorf("precondition = %v, want the stored one", p)
				}
			}
			sort.Strings(names)
			if strings.Join(names, ",") != "ErrorInfo,PreconditionFailure" {
				t.Errorf("details = %v, want ErrorInfo and the stored PreconditionFailure", names)
			}
		})
	}
}

func b64(b []byte) string {
	s, _ := json.Marshal(b)
	return strings.Trim(string(s), `"`)
}
