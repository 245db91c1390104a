package blackbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/testing/blackbox"
)

// walkthroughs finds the README's bash blocks marked
// <!-- walkthrough:NAME -->, which CI runs verbatim.
var walkthroughs = regexp.MustCompile("(?s)<!-- walkthrough:([a-z]+) -->\n```bash\n(.*?)```")

// walkthroughMust are the commands each walkthrough has to show (issue 16:
// the CLI one uses send, report, tool invoke and memory).
var walkthroughMust = map[string][]string{
	"cli": {"runsvc run send ", "runsvc run report ", "runsvc tool invoke ", "runsvc memory set ", "runsvc memory get "},
	// issue 33: publish, start, resume, watch with SSE, one rich error.
	"curl": {"/v1/specs", "/v1/runs", ":resume", "curl -sSN", "Accept: text/event-stream", "headers.txt"},
}

// walkthroughPrints is what each walkthrough's output has to hold: the curl
// one's SSE stream ends with `event: end`, and its error is AIP-193's body.
var walkthroughPrints = map[string][]string{
	"curl": {"event: end", `"code":400`, `"status":"FAILED_PRECONDITION"`, `"@type":"type.googleapis.com/google.rpc.ErrorInfo"`, `"reason":"RUN_NOT_SUSPENDED"`},
}

// TestReadmeWalkthroughs runs each marked README block with bash against
// the built binary, with grpcurl and runsvc on PATH as a user has them.
func TestReadmeWalkthroughs(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(blackbox.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := walkthroughs.FindAllSubmatch(readme, -1)
	found := map[string]bool{}
	for _, b := range blocks {
		found[string(b[1])] = true
	}
	for _, name := range []string{"grpcurl", "cli", "curl"} {
		if !found[name] {
			t.Fatalf("README.md has no %s walkthrough, want the grpcurl, the CLI and the curl one", name)
		}
	}
	work := t.TempDir()
	bin := filepath.Join(work, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(blackbox.Binary(t), filepath.Join(bin, "runsvc")); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "grpcurl"), "github.com/fullstorydev/grpcurl/cmd/grpcurl").CombinedOutput(); err != nil {
		t.Fatalf("building grpcurl: %v\n%s", err, out)
	}
	for _, b := range blocks {
		name, script := string(b[1]), string(b[2])
		t.Run(name, func(t *testing.T) {
			for _, cmd := range walkthroughMust[name] {
				if !strings.Contains(script, cmd) {
					t.Errorf("the README's %s walkthrough does not use %q", name, cmd)
				}
			}
			out := runWalkthrough(t, script, work, bin)
			for _, want := range walkthroughPrints[name] {
				if !strings.Contains(out, want) {
					t.Errorf("the README's %s walkthrough did not print %q", name, want)
				}
			}
			t.Logf("%s walkthrough output:\n%s", name, out)
		})
	}
}

// runWalkthrough serves runsvc on fresh ports (gRPC and HTTP) and runs
// script with bash in work, RUNSVC_ADDR and RUNSVC_HTTP naming the ports:
// the only things that differ from what the README shows.
func runWalkthrough(t *testing.T, script, work, bin string) string {
	t.Helper()
	addr, httpAddr := blackbox.FreePort(t), blackbox.FreePort(t)
	blackbox.Serve(t, addr, "--data", t.TempDir(), "--http-listen", httpAddr)
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "RUNSVC_ADDR="+addr, "RUNSVC_HTTP="+httpAddr,
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the walkthrough failed: %v\n%s", err, out)
	}
	return string(out)
}
