// Package scenario runs testdata/scenarios.json: for every reason a runsvc
// server returns to a client, the calls that provoke it and what the
// status must carry. The Go, Python and Node suites read the same file;
// this package is the Go runner and the checks the others mirror.
package scenario

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/code"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/httpapi"
)

// File is the scenarios file.
type File struct {
	About     string            `json:"about"`
	Specs     []json.RawMessage `json:"specs"`
	Scenarios []Scenario        `json:"scenarios"`
	// Servers are the server settings scenarios name in "server"; a
	// scenario without one runs on the default server (the policy file,
	// no keys file, the Specs published).
	Servers map[string]ServerSetting `json:"servers,omitempty"`
	// InsideOnly are the reasons no client can meet, each with where it
	// is tested instead.
	InsideOnly map[string]InsideOnly `json:"insideOnly,omitempty"`
	// A2AOnly are the reasons only the A2A bindings return (the A2A 1.0
	// error types: no runsvc.v1 call meets them, so no scenario can), each
	// with the tests that provoke them over the wire.
	A2AOnly map[string]InsideOnly `json:"a2aOnly,omitempty"`
}

// InsideOnly says why a reason never reaches a client and which tests
// prove it, each "path/to/file_test.go TestName[/subtest]".
type InsideOnly struct {
	Why   string   `json:"why"`
	Tests []string `json:"tests"`
}

// ServerSetting is a server that differs from the default one. Each
// suite starts one per setting (see package servers); none has the file's
// Specs published: its scenarios publish what they need.
type ServerSetting struct {
	About string `json:"about"`
	// Keys are the keys file's identities, each with the plain API key a
	// scenario's apiKey sends; with none there is no keys file.
	Keys []Key `json:"keys,omitempty"`
	// MaxStreams bounds the streams in flight (admission).
	MaxStreams int `json:"maxStreams,omitempty"`
	// Store "closed": the store is closed once the server is up, as if
	// its database went away.
	Store string `json:"store,omitempty"`
	// StoreFault names a store method ("ListRuns") that fails with an
	// error outside the table, as a bug would.
	StoreFault string `json:"storeFault,omitempty"`
	// CorruptRun puts a Run with a corrupt log in the store; its id is
	// the variable ${corruptRun}.
	CorruptRun bool `json:"corruptRun,omitempty"`
	// MCPServer starts an MCP server on 127.0.0.1 that serves one tool,
	// echo; its URL is the variable ${mcpUrl}.
	MCPServer bool `json:"mcpServer,omitempty"`
	// SilentTools are worker tools a connected worker registers and never
	// answers.
	SilentTools []string `json:"silentTools,omitempty"`
	// MaxAttempts is the server's --max-attempts; 0 is the default.
	MaxAttempts int `json:"maxAttempts,omitempty"`
	// LoseLeases refuses every lease renewal, as if another replica had
	// taken the Run, and makes leases last 1s: an Attempt still working a
	// third of the way into its lease dies, and the Run is claimed again
	// when the lease expires.
	LoseLeases bool `json:"loseLeases,omitempty"`
	// WithoutProviders and WithoutToolKinds leave model providers and
	// tool kinds ("http", "mcp") out of the server.
	WithoutProviders []string `json:"withoutProviders,omitempty"`
	WithoutToolKinds []string `json:"withoutToolKinds,omitempty"`
}

// Key is an identity of a server's keys file and the key that proves it.
type Key struct {
	Key    string   `json:"key"`
	Tenant string   `json:"tenant"`
	Roles  []string `json:"roles"`
	// StartsPerMinute and MaxConcurrentRuns are the tenant's quota.
	StartsPerMinute   int `json:"startsPerMinute,omitempty"`
	MaxConcurrentRuns int `json:"maxConcurrentRuns,omitempty"`
}

// Scenario is one reason, provoked.
type Scenario struct {
	Name         string   `json:"name"`
	Reason       string   `json:"reason"`
	Code         string   `json:"code"`
	Retryable    bool     `json:"retryable"`
	MetadataKeys []string `json:"metadataKeys"`
	// Metadata holds values some of the keys must have.
	Metadata map[string]string `json:"metadata,omitempty"`
	// Message is the exact message, where the scenario fixes it.
	Message string `json:"message,omitempty"`
	// Server names the server setting the scenario runs on; empty is the
	// default server.
	Server string `json:"server,omitempty"`
	// APIKey is sent as "authorization: Bearer <key>" on every call.
	APIKey string `json:"apiKey,omitempty"`
	Steps  []Step `json:"steps"`
}

// Step is one action of a scenario.
type Step struct {
	// Call is "Service/Method" in package runsvc.v1.
	Call    string          `json:"call,omitempty"`
	Request json.RawMessage `json:"request,omitempty"`
	// Save maps variables to dotted paths of the response.
	Save map[string]string `json:"save,omitempty"`
	// Until repeats the call until each dotted path has its value.
	Until map[string]string `json:"until,omitempty"`
	// Sleep pauses, e.g. "1.2s".
	Sleep string `json:"sleep,omitempty"`
	// Check names the status to check: "error" for the call's error, or a
	// dotted path of the last response holding a google.rpc.Status.
	Check string `json:"check,omitempty"`
	// Hold opens a server stream, waits for its first message and keeps
	// it open until the scenario's context ends.
	Hold bool `json:"hold,omitempty"`
}

// Load reads a scenarios file.
func Load(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f := &File{}
	if err := json.Unmarshal(b, f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Outcome is the status a scenario produced.
type Outcome struct {
	Status *spb.Status
	// Pushback is the grpc-retry-pushback-ms trailer of an RPC error; empty
	// for a status read from a response.
	Pushback string
	// RPC is true when the status was a call's error.
	RPC bool
	// REST is true when the call was made over REST: the error came as
	// AIP-193 with HTTPStatus and RetryAfter (for an error event of a
	// Server-Sent Events stream: its body's code and its retry field),
	// and there is no pushback trailer.
	REST       bool
	HTTPStatus int
	RetryAfter string
	// Method and Request are the call that produced it, for re-running it
	// through another client.
	Method  string
	Request string
}

// Problems compares an outcome with what the scenario expects and lists
// every difference.
func (s Scenario) Problems(o Outcome) []string {
	var out []string
	if o.Status == nil {
		return []string{"no status"}
	}
	c := errdetails.ClassifyStatus(o.Status)
	if got := CodeName(c.Code); got != s.Code {
		out = append(out, fmt.Sprintf("code %s, want %s", got, s.Code))
	}
	if c.Reason != s.Reason {
		out = append(out, fmt.Sprintf("reason %q, want %q", c.Reason, s.Reason))
	}
	if c.Domain != errdetails.DefaultDomain {
		out = append(out, fmt.Sprintf("domain %q, want %q", c.Domain, errdetails.DefaultDomain))
	}
	var keys []string
	for k := range c.Metadata {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	want := append([]string{}, s.MetadataKeys...)
	sort.Strings(want)
	if strings.Join(keys, ",") != strings.Join(want, ",") {
		out = append(out, fmt.Sprintf("metadata keys %v, want %v", keys, want))
	}
	names := make([]string, 0, len(s.Metadata))
	for k := range s.Metadata {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if got, ok := c.Metadata[k]; !ok || got != s.Metadata[k] {
			out = append(out, fmt.Sprintf("metadata %s=%q, want %q", k, got, s.Metadata[k]))
		}
	}
	if s.Message != "" && c.Message != s.Message {
		out = append(out, fmt.Sprintf("message %q, want %q", c.Message, s.Message))
	}
	if c.Retryable != s.Retryable {
		out = append(out, fmt.Sprintf("retryable %v, want %v", c.Retryable, s.Retryable))
	}
	if o.REST {
		out = append(out, restProblems(o, c)...)
	} else if o.RPC {
		want := "-1"
		if c.Retryable {
			want = strconv.FormatInt(c.RetryDelay.Milliseconds(), 10)
		}
		if o.Pushback != want {
			out = append(out, fmt.Sprintf("pushback trailer %q, want %q", o.Pushback, want))
		}
	}
	return out
}

// restProblems checks a REST error's HTTP status (AIP-193's for its
// code) and Retry-After (present exactly when retryable, the delay in
// whole seconds rounded up).
func restProblems(o Outcome, c errdetails.Classification) []string {
	var out []string
	if want := httpapi.HTTPStatus(c.Code); o.HTTPStatus != want {
		out = append(out, fmt.Sprintf("HTTP status %d, want %d", o.HTTPStatus, want))
	}
	want := ""
	if c.Retryable {
		want = strconv.FormatInt(int64(math.Ceil(c.RetryDelay.Seconds())), 10)
	}
	if o.RetryAfter != want {
		out = append(out, fmt.Sprintf("Retry-After %q, want %q", o.RetryAfter, want))
	}
	return out
}

// CodeName is a code as the scenarios file writes it, NOT_FOUND, or ""
// for a code google.rpc does not name.
func CodeName(c codes.Code) string { return code.Code_name[int32(c)] }

// GoldenRow is one stored row of the records or runs table in the golden
// corpus: written by
// golden_write_test.go (goldenwrite tag), read by internal/service's
// golden tests.
type GoldenRow struct {
	Tenant  string `json:"tenant"`
	RunID   string `json:"runId"`
	Seq     int64  `json:"seq,omitempty"`
	Time    int64  `json:"time,omitempty"`
	Attempt int    `json:"attempt,omitempty"`
	Kind    string `json:"kind,omitempty"`
	State   string `json:"state,omitempty"`
	// Body is the stored bytes, exactly.
	Body string `json:"body"`
}

// Coverage lists what is wrong with f's coverage of reasons (the table's):
// a reason neither provoked by a scenario nor listed (inside-only, or
// A2A-only), one that is both, a listed reason not in the table, and a
// listed test that does not exist under root (its file, and
// "func TestName(" in it).
func Coverage(f *File, reasons []string, root string) []string {
	inTable := map[string]bool{}
	for _, r := range reasons {
		inTable[r] = true
	}
	covered := map[string]bool{}
	for _, s := range f.Scenarios {
		covered[s.Reason] = true
	}
	var out []string
	for _, r := range reasons {
		_, inside := f.InsideOnly[r]
		_, a2a := f.A2AOnly[r]
		switch {
		case !covered[r] && !inside && !a2a:
			out = append(out, fmt.Sprintf("reason %s has no scenario and is not listed in insideOnly (or a2aOnly)", r))
		case covered[r] && (inside || a2a):
			out = append(out, fmt.Sprintf("reason %s has a scenario but is listed in insideOnly (or a2aOnly)", r))
		}
	}
	out = append(out, listedProblems("insideOnly", f.InsideOnly, inTable, root)...)
	return append(out, listedProblems("a2aOnly", f.A2AOnly, inTable, root)...)
}

// listedProblems checks the reasons of one list (insideOnly, a2aOnly):
// each in the table, each with tests that exist.
func listedProblems(list string, listed map[string]InsideOnly, inTable map[string]bool, root string) []string {
	var out []string
	names := make([]string, 0, len(listed))
	for r := range listed {
		names = append(names, r)
	}
	sort.Strings(names)
	for _, r := range names {
		if !inTable[r] {
			out = append(out, fmt.Sprintf("%s reason %s is not in the table", list, r))
		}
		if len(listed[r].Tests) == 0 {
			out = append(out, fmt.Sprintf("%s reason %s names no test", list, r))
		}
		for _, test := range listed[r].Tests {
			if p := testExists(root, test); p != "" {
				out = append(out, fmt.Sprintf("%s reason %s: %s", list, r, p))
			}
		}
	}
	return out
}

// testExists checks "path/to/file_test.go TestName[/subtest]" under root.
func testExists(root, test string) string {
	file, name, ok := strings.Cut(test, " ")
	if !ok {
		return fmt.Sprintf("%q is not \"file TestName\"", test)
	}
	name, _, _ = strings.Cut(name, "/")
	b, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return err.Error()
	}
	if !strings.Contains(string(b), "func "+name+"(") {
		return fmt.Sprintf("%s has no func %s", file, name)
	}
	return ""
}
