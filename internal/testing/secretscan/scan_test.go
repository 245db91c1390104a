package secretscan_test

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// theSecret has characters JSON, HTML-safe JSON and URLs all escape.
const theSecret = `sk-scan/Zq8+v3&Kp<1>"Wx`

// forms are the ways theSecret could be written down.
func forms() []string {
	js, _ := json.Marshal(theSecret)
	b := []byte(theSecret)
	all := []string{
		theSecret, string(js[1 : len(js)-1]), strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(js[1 : len(js)-1])),
		url.QueryEscape(theSecret), url.PathEscape(theSecret),
		base64.StdEncoding.EncodeToString(b), base64.URLEncoding.EncodeToString(b),
		base64.RawStdEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b),
	}
	seen := map[string]bool{}
	var out []string
	for _, f := range all {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// occurrences counts theSecret in text, in every form.
func occurrences(text string) int {
	n := 0
	for _, f := range forms() {
		n += strings.Count(text, f)
	}
	return n
}

// scan is where the scan looked and what it found there.
type scan struct {
	seen     map[string]int // occurrences by place
	redacted int            // "[redacted]" in the Records
}

func (s *scan) add(place string, text string) { s.seen[place] += occurrences(text) }

func (s *scan) addProto(place string, m proto.Message) {
	b, err := protojson.Marshal(m)
	if err != nil {
		panic(err)
	}
	s.add(place, string(b))
}

// scanConfig starts runsvc on a store and says how to read the store's
// bytes afterwards.
type scanConfig func(t *testing.T) (opt testserver.Option, storeBytes func(t *testing.T) string)

func onSQLite(t *testing.T) (testserver.Option, func(*testing.T) string) {
	dir := t.TempDir()
	return func(c *server.Config) { c.Data = dir }, func(t *testing.T) string { return dirBytes(t, dir) }
}

func onPostgres(t *testing.T) (testserver.Option, func(*testing.T) string) {
	cluster := pgtest.Start(t)
	dsn := cluster.NewDatabase(t)
	return func(c *server.Config) { c.Store = dsn }, func(t *testing.T) string { return withBytea(t, string(cluster.Dump(t, dsn))) }
}

// byteaHex is a bytea value as pg_dump's COPY data writes it.
var byteaHex = regexp.MustCompile(`\\\\x([0-9a-f]+)`)

// withBytea is a dump followed by its bytea values decoded: the Records'
// bodies are bytea, which pg_dump writes in hex.
func withBytea(t *testing.T, dump string) string {
	var all strings.Builder
	all.WriteString(dump)
	values := byteaHex.FindAllStringSubmatch(dump, -1)
	if len(values) == 0 {
		t.Fatal("the dump holds no bytea value: the Records' bodies are missing from it")
	}
	for _, m := range values {
		b, err := hex.DecodeString(m[1])
		if err != nil {
			t.Fatalf("a bytea value in the dump is not hex: %v", err)
		}
		all.Write(b)
	}
	return all.String()
}

// dirBytes is every file under dir, the database, its -wal and -shm.
func dirBytes(t *testing.T, dir string) string {
	var all strings.Builder
	files := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		all.Write(b)
		files++
		return err
	})
	if err != nil || files == 0 {
		t.Fatalf("reading the store's files in %s: %d files, %v", dir, files, err)
	}
	return all.String()
}

// scanStores are the stores every scan runs on, by subtest name.
var scanStores = []struct {
	name  string
	store scanConfig
}{
	{name: "sqlite", store: onSQLite},
	{name: "postgres", store: onPostgres},
}

// TestSecretScan: after Runs whose tools (http, MCP, worker) and model
// echo the Spec's credential back in every way they can, the credential
// appears 0 times in the server's log, the Records, statuses, reports,
// InvokeTool's answers and the store's bytes.
func TestSecretScan(t *testing.T) {
	for _, tc := range scanStores {
		t.Run(tc.name, func(t *testing.T) {
			s := runScan(t, tc.store, false)
			for place, n := range s.seen {
				if n != 0 {
					t.Errorf("the secret appears %d times in %s", n, place)
				}
			}
			if s.redacted == 0 {
				t.Error("no Record says [redacted]: nothing echoed the secret, so the scan proves nothing")
			}
			t.Logf("occurrences by place: %v; [redacted] in Records: %d", s.seen, s.redacted)
		})
	}
}

// TestSecretScanCanFail: without the scrub the same Runs leak the secret
// into every place the scan looks, so the scan's zeros mean something.
func TestSecretScanCanFail(t *testing.T) {
	for _, tc := range scanStores {
		t.Run(tc.name, func(t *testing.T) {
			s := runScan(t, tc.store, true)
			t.Logf("occurrences by place without the scrub: %v", s.seen)
			for _, place := range []string{"server log", "records", "statuses", "reports", "store bytes", "InvokeTool"} {
				if s.seen[place] == 0 {
					t.Errorf("without the scrub the secret appears 0 times in %s: the scan there cannot fail", place)
				}
			}
		})
	}
}

// runScan runs the echoing Runs and invocations on a fresh runsvc and
// scans everything it produced.
func runScan(t *testing.T, store scanConfig, noScrub bool) *scan {
	t.Setenv("RUNSVC_SECRET_SCAN_KEY", theSecret)
	opt, storeBytes := store(t)
	srv := testserver.Start(t, opt, func(c *server.Config) { c.DisableScrub = noScrub })
	w := srv.StartWorker(t, "echoer", map[string]testserver.ToolFunc{
		"w_echo": func(map[string]any) (any, *runsvcv1.ToolError) { return "the key is " + leaks(theSecret), nil },
		"w_fail": func(map[string]any) (any, *runsvcv1.ToolError) {
			return nil, &runsvcv1.ToolError{Message: "cannot use " + leaks(theSecret)}
		},
	})
	publishSpecs(t, srv, startHTTPTool(t), startMCP(t))
	s := &scan{seen: map[string]int{}}
	for _, r := range []struct {
		name string
		want runsvcv1.RunState
	}{
		{"scan-tools", runsvcv1.RunState_RUN_STATE_COMPLETED}, {"scan-down", runsvcv1.RunState_RUN_STATE_FAILED},
		{"scan-model", runsvcv1.RunState_RUN_STATE_COMPLETED}, {"scan-refused", runsvcv1.RunState_RUN_STATE_FAILED},
	} {
		run := srv.Settled(t, srv.Start(t, r.name, "go").GetRunId())
		if run.GetState() != r.want {
			t.Errorf("%s settled %v (failure %v), want %v", r.name, run.GetState(), run.GetFailure(), r.want)
		}
		s.addProto("statuses", run)
		got, err := srv.Runs.GetRun(testserver.Context(t), &runsvcv1.GetRunRequest{RunId: run.GetRunId()})
		if err != nil {
			t.Fatal(err)
		}
		s.addProto("statuses", got)
		for _, r := range srv.Records(t, run.GetRunId()) {
			s.addProto("records", r)
			b, _ := protojson.Marshal(r)
			s.redacted += strings.Count(string(b), "[redacted]")
		}
		rep, err := srv.Runs.GetReport(testserver.Context(t), &runsvcv1.GetReportRequest{RunId: run.GetRunId()})
		if err != nil {
			t.Fatal(err)
		}
		s.addProto("reports", rep)
	}
	if w.Calls("w_echo") == 0 || w.Calls("w_fail") == 0 {
		t.Fatalf("the worker's tools were not called (%d, %d)", w.Calls("w_echo"), w.Calls("w_fail"))
	}
	invokeAll(t, srv, s)
	s.add("server log", srv.Log.String())
	s.add("store bytes", storeBytes(t))
	return s
}

// publishSpecs publishes the Specs whose Runs echo the credential.
func publishSpecs(t *testing.T, srv *testserver.Server, httpURL, mcpURL string) {
	tools := fmt.Sprintf(`[
	  {"name": "h", "kind": "TOOL_KIND_HTTP", "http": {"url": %q, "credential": "scan_key"}},
	  {"name": "h_down", "kind": "TOOL_KIND_HTTP", "raiseOnError": true, "http": {"url": %q, "credential": "scan_key"}},
	  {"name": "mirror", "kind": "TOOL_KIND_MCP", "mcp": {"url": %q, "credential": "scan_key"}},
	  {"name": "refuse", "kind": "TOOL_KIND_MCP", "mcp": {"url": %q, "credential": "scan_key"}},
	  {"name": "w_echo", "kind": "TOOL_KIND_WORKER"}, {"name": "w_fail", "kind": "TOOL_KIND_WORKER"}]`, httpURL, httpURL, mcpURL, mcpURL)
	srv.Publish(t, `{"name": "scan-tools", "credentials": [{"name": "scan_key"}], "tools": `+tools+`,
	  "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [
	    {"name": "h", "arguments": {"mode": "result"}}, {"name": "h", "arguments": {"mode": "error"}},
	    {"name": "h", "arguments": {"mode": "status"}}, {"name": "mirror", "arguments": {}},
	    {"name": "refuse", "arguments": {}}, {"name": "w_echo", "arguments": {}}, {"name": "w_fail", "arguments": {}}]},
	    {"text": "done"}]}}}`)
	srv.Publish(t, `{"name": "scan-down", "credentials": [{"name": "scan_key"}], "tools": `+tools+`,
	  "model": {"provider": "scripted", "script": {"turns": [{"toolCalls": [{"name": "h_down", "arguments": {"mode": "unavailable"}}]},
	    {"text": "done"}]}}}`)
	for name, refuse := range map[string]bool{"scan-model": false, "scan-refused": true} {
		srv.Publish(t, fmt.Sprintf(`{"name": %q, "credentials": [{"name": "scan_key"}],
		  "model": {"provider": "openai", "model": "gpt-4o-mini", "baseUrl": %q, "apiKeyCredential": "scan_key"}}`, name, startOpenAI(t, refuse)))
	}
}

// invokeAll calls every echoing tool through InvokeTool and scans the
// answers, failures included.
func invokeAll(t *testing.T, srv *testserver.Server, s *scan) {
	calls := []struct{ spec, tool, mode string }{
		{"scan-tools", "h", "result"}, {"scan-tools", "h", "error"}, {"scan-tools", "h", "status"},
		{"scan-tools", "h", "unavailable"}, {"scan-tools", "mirror", ""}, {"scan-tools", "refuse", ""},
		{"", "w_echo", ""}, {"", "w_fail", ""},
	}
	for _, c := range calls {
		args, _ := structpb.NewStruct(map[string]any{"mode": c.mode})
		resp, err := srv.Tools.InvokeTool(testserver.Context(t), &runsvcv1.InvokeToolRequest{Spec: c.spec, Name: c.tool, Arguments: args})
		if err != nil {
			s.addProto("InvokeTool", status.Convert(err).Proto())
			continue
		}
		s.addProto("InvokeTool", resp)
	}
}
