package blackbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/testing/blackbox"
)

// TestReadmeHeadingsStandAlone: outside code blocks every heading of the
// README follows a blank line, so a sentence left over from an edit cannot
// sit glued to the next section's title.
func TestReadmeHeadingsStandAlone(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(blackbox.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(readme), "\n")
	fenced := false
	for i, line := range lines {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced || i == 0 || !strings.HasPrefix(line, "#") {
			continue
		}
		if prev := lines[i-1]; strings.TrimSpace(prev) != "" {
			t.Errorf("README.md:%d: the heading %q follows %q, not a blank line", i+1, line, prev)
		}
	}
}
