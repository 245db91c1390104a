package cli

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestTopUsageNamesEveryGroup: `runsvc -h` lists every command group the
// client has.
func TestTopUsageNamesEveryGroup(t *testing.T) {
	usage := (&app{}).topUsage()
	for group := range commands {
		if !slices.Contains(topGroups, group) || !strings.Contains(usage, "runsvc "+group+" ") {
			t.Errorf("runsvc -h does not list the group %s:\n%s", group, usage)
		}
	}
}

// flagLine is one flag's first help line: a one-letter flag with one dash,
// a longer one with two, and the value's placeholder in capitals.
var flagLine = regexp.MustCompile(`^  (-[a-z]|--[a-z][a-z0-9-]+)( [A-Z][A-Z_:]*)?$`)

// TestCommandHelpFlags: every command's -h prints each flag as it is typed
// (-o, --results) with a placeholder that names what the value is, never a
// value itself (--in-doubt OUTCOME, not --in-doubt happened).
func TestCommandHelpFlags(t *testing.T) {
	for group, cmds := range commands {
		for name := range cmds {
			t.Run(group+" "+name, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				if code := Main(context.Background(), []string{group, name, "-h"}, strings.NewReader(""), &stdout, &stderr); code != ExitOK {
					t.Fatalf("exit %d\n%s", code, stderr.String())
				}
				for _, line := range strings.Split(stdout.String(), "\n") {
					if strings.HasPrefix(line, "  -") && !flagLine.MatchString(line) {
						t.Errorf("flag line %q, want -x or --name and an upper-case placeholder", line)
					}
				}
			})
		}
	}
}
