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
}

// TestReadmeWalkthroughs runs each marked README block with bash against
// the built binary, with grpcurl and runsvc on PATH as a user has them.
func TestReadmeWalkthroughs(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(blackbox.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := walkthroughs.FindAllSubmatch(readme, -1)
	if len(blocks) < 2 {
		t.Fatalf("found %d walkthroughs in README.md, want the grpcurl and the CLI one", len(blocks))
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
			addr := blackbox.FreePort(t)
			blackbox.Serve(t, addr, "--data", t.TempDir())
			cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "RUNSVC_ADDR="+addr, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the README's %s walkthrough failed: %v\n%s", name, err, out)
			}
			t.Logf("%s walkthrough output:\n%s", name, out)
		})
	}
}
