package errdetails_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/testing/wirecheck"
)

// reshape returns a copy of a typed error with every string field set by
// str, every []string to n copies of str's value, every violation list to
// n violations and every error field to an error with str's value.
func reshape(err error, str func(field string) string, n int) error {
	v := reflect.ValueOf(err)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return errors.New(str("cause"))
	}
	cp := reflect.New(v.Elem().Type())
	cp.Elem().Set(v.Elem())
	s := cp.Elem()
	errType := reflect.TypeOf((*error)(nil)).Elem()
	for i := 0; i < s.NumField(); i++ {
		f, name := s.Field(i), s.Type().Field(i).Name
		if !f.CanSet() {
			continue
		}
		switch {
		case f.Kind() == reflect.String:
			f.SetString(str(name))
		case f.Type() == reflect.TypeOf([]string(nil)):
			list := make([]string, n)
			for j := range list {
				list[j] = str(name)
			}
			f.Set(reflect.ValueOf(list))
		case f.Type() == reflect.TypeOf([]errs.FieldViolation(nil)):
			vs := make([]errs.FieldViolation, n)
			for j := range vs {
				vs[j] = errs.FieldViolation{Field: fmt.Sprintf("tools[%d].%s", j, str("field")), Description: str("description")}
			}
			f.Set(reflect.ValueOf(vs))
		case f.Type() == errType:
			f.Set(reflect.ValueOf(errors.New(str(name))))
		}
	}
	return cp.Interface().(error)
}

// hostileText is long, mostly multi-byte (three times its bytes once
// percent-encoded), holds '%', a control byte and an invalid UTF-8 byte, and
// ends in whitespace.
func hostileText(string) string {
	return strings.Repeat("ünï%cødé \x01 ", 300) + "\xff tail \n\t "
}

// designBudget is DESIGN.md §4 rule 4's limit, written out rather than
// read from the package under test.
const designBudget = 3072

// measured is one error as the server sent it on a raw HTTP/2 stream.
type measured struct {
	wire    int // len(grpc-message) + len(grpc-status-details-bin)
	status  *status.Status
	message string
}

func sendRaw(t *testing.T, ts *testServer, id string, err error) measured {
	t.Helper()
	ts.runs.set(id, func() error { return err })
	resp, callErr := wirecheck.Call(testContext(t), ts.addr, "/runsvc.v1.RunService/GetRun", &runsvcv1.GetRunRequest{RunId: id})
	if callErr != nil {
		t.Fatalf("raw call: %v", callErr)
	}
	if !resp.TrailersOnly {
		t.Errorf("the error was not Trailers-Only: %d header blocks, %d data frames", len(resp.Headers), resp.DataFrames)
	}
	last := resp.Last()
	bin := last["grpc-status-details-bin"]
	if bin == "" {
		t.Fatalf("no grpc-status-details-bin in %v", last)
	}
	st, decodeErr := wirecheck.DecodeStatus(bin)
	if decodeErr != nil {
		t.Fatalf("grpc-status-details-bin: %v", decodeErr)
	}
	return measured{wire: len(last["grpc-message"]) + len(bin), status: status.FromProto(st), message: st.GetMessage()}
}

// TestEveryReasonWithinTheWireBudget: for every reason, as it is and with
// every field blown up (3,600-byte multi-byte strings, 1,000 violations,
// 1,000-name lists), the error measured on the wire is at most
// WireBudget bytes, keeps its code, reason and metadata keys, decodes in
// the client, and its message never ends in whitespace — also when every
// string field is empty.
func TestEveryReasonWithinTheWireBudget(t *testing.T) {
	ts := startServer(t, errdetails.Options{})
	shapes := []struct {
		name string
		of   func(error) error
	}{
		{"as is", func(err error) error { return err }},
		{"huge", func(err error) error { return reshape(err, hostileText, 1000) }},
		{"empty", func(err error) error { return reshape(err, func(string) string { return "" }, 0) }},
		{"trailing space", func(err error) error { return reshape(err, func(string) string { return "x " }, 1) }},
	}
	largest := map[string]int{}
	for _, tc := range wireCases() {
		t.Run(tc.reason, func(t *testing.T) {
			for _, shape := range shapes {
				t.Run(shape.name, func(t *testing.T) {
					m := sendRaw(t, ts, tc.reason+"/"+shape.name, shape.of(tc.err))
					if m.wire > designBudget {
						t.Errorf("the error takes %d bytes on the wire, over the budget of %d", m.wire, designBudget)
					}
					if m.status.Code() != tc.code {
						t.Errorf("code = %v, want %v", m.status.Code(), tc.code)
					}
					if strings.TrimRightFunc(m.message, unicode.IsSpace) != m.message {
						t.Errorf("message %q ends in whitespace", m.message)
					}
					for _, d := range m.status.Details() {
						if e, bad := d.(error); bad {
							t.Fatalf("a detail does not decode: %v", e)
						}
					}
					c := errdetails.ClassifyStatus(m.status.Proto())
					if c.Reason != tc.reason {
						t.Errorf("reason = %q, want %q", c.Reason, tc.reason)
					}
					if len(c.Metadata) != len(tc.keys) {
						t.Errorf("metadata %v, want the keys %v", c.Metadata, tc.keys)
					}
					largest[shape.name] = max(largest[shape.name], m.wire)
				})
			}
		})
	}
	t.Logf("largest error on the wire, per shape: %v (budget %d)", largest, designBudget)
}

// TestLongBadRequestIsCut: a thousand violations, and 200,000 (a hostile
// request's every entry wrong), arrive as INVALID_ARGUMENT within the wire
// budget, as many kept as fit, the cut stated in the last violation.
func TestLongBadRequestIsCut(t *testing.T) {
	ts := startServer(t, errdetails.Options{})
	for _, total := range []int{1000, 200_000} {
		t.Run(fmt.Sprint(total), func(t *testing.T) { checkLongBadRequest(t, ts, total) })
	}
}

func checkLongBadRequest(t *testing.T, ts *testServer, total int) {
	vs := make([]errs.FieldViolation, total)
	for i := range vs {
		vs[i] = errs.FieldViolation{Field: fmt.Sprintf("tools[%d].name", i), Description: "must match ^[a-zA-Z0-9_-]{1,64}$ and be unique within the Spec"}
	}
	m := sendRaw(t, ts, "long", &errs.SpecInvalid{Spec: "huge", Violations: vs})
	if m.status.Code() != 3 {
		t.Fatalf("code = %v", m.status.Code())
	}
	if m.wire > designBudget {
		t.Errorf("the error takes %d bytes on the wire, want at most %d", m.wire, designBudget)
	}
	c := errdetails.ClassifyStatus(m.status.Proto())
	if c.Reason != "SPEC_INVALID" || c.Metadata["violationCount"] != fmt.Sprint(total) {
		t.Errorf("reason %s, violationCount %s", c.Reason, c.Metadata["violationCount"])
	}
	var br *edpb.BadRequest
	for _, d := range m.status.Details() {
		if b, ok := d.(*edpb.BadRequest); ok {
			br = b
		}
	}
	if br == nil {
		t.Fatal("no BadRequest")
	}
	n := len(br.GetFieldViolations())
	for i, v := range br.GetFieldViolations()[:n-1] {
		if want := fmt.Sprintf("tools[%d].name", i); v.GetField() != want || v.GetDescription() != vs[i].Description {
			t.Errorf("violation %d = %v, want %s: %s unchanged", i, v, want, vs[i].Description)
		}
	}
	last := br.GetFieldViolations()[n-1].GetDescription()
	want := fmt.Sprintf("%d more violations were cut to keep the error under %d bytes", total-(n-1), errdetails.WireBudget)
	if n < 10 || last != want {
		t.Errorf("%d violations kept, last says %q, want %q", n-1, last, want)
	}
	// One more violation would not have fitted: the cut keeps all it can.
	if m.wire+115 < designBudget {
		t.Errorf("only %d of %d bytes used: the cut kept fewer violations than fit", m.wire, designBudget)
	}
	t.Logf("%d violations kept of %d, %d bytes on the wire", n-1, total, m.wire)
}

// TestToolNotFoundWithoutTools: with no tools to list, the seed's message
// says "none" rather than ending in a space that grpc-js would drop the
// whole message for.
func TestToolNotFoundWithoutTools(t *testing.T) {
	ts := startServer(t, errdetails.Options{})
	cases := []struct {
		available []string
		want      string
	}{
		{nil, "Tool not found: x. Available tools: none"},
		{[]string{}, "Tool not found: x. Available tools: none"},
		{[]string{"search"}, "Tool not found: x. Available tools: search"},
	}
	for i, tc := range cases {
		t.Run(fmt.Sprint(tc.available), func(t *testing.T) {
			m := sendRaw(t, ts, fmt.Sprint("tools-", i), &errs.ToolNotFound{Name: "x", Available: tc.available})
			if m.message != tc.want {
				t.Errorf("message = %q, want %q", m.message, tc.want)
			}
		})
	}
}

// TestDebugInfoWithinTheWireBudget: with the debug flag, an INTERNAL error
// whose cause is huge still fits, its DebugInfo shortened, not dropped.
func TestDebugInfoWithinTheWireBudget(t *testing.T) {
	ts := startServer(t, errdetails.Options{Debug: true})
	m := sendRaw(t, ts, "debug", errors.New(hostileText("cause")+strings.Repeat("x", 20000)))
	if m.wire > designBudget {
		t.Errorf("the error takes %d bytes on the wire, over the budget of %d", m.wire, designBudget)
	}
	var debug *edpb.DebugInfo
	for _, d := range m.status.Details() {
		if v, ok := d.(*edpb.DebugInfo); ok {
			debug = v
		}
	}
	if c := errdetails.ClassifyStatus(m.status.Proto()); c.Reason != "INTERNAL" || debug == nil || debug.GetDetail() == "" {
		t.Errorf("reason %s, DebugInfo %v: want INTERNAL with a shortened DebugInfo", c.Reason, debug)
	}
}
