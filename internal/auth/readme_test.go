package auth

import (
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeListsEveryRolesMethods: the README's table of roles names, for
// each role, exactly the methods the role table grants it besides the
// reads, and the reader's row names exactly the reads.
func TestReadmeListsEveryRolesMethods(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for role, granted := range grants {
		if role == RoleReader {
			granted = reads
		}
		t.Run(role, func(t *testing.T) {
			row := regexp.MustCompile("(?m)^\\| `" + role + "` \\|(.*)\\|$").FindSubmatch(readme)
			if row == nil {
				t.Fatalf("the README has no row for the role %s", role)
			}
			listed := map[string]bool{}
			for _, m := range regexp.MustCompile("`([A-Z][A-Za-z]+)`").FindAllSubmatch(row[1], -1) {
				listed[string(m[1])] = true
			}
			want := map[string]bool{}
			for _, method := range granted {
				want[path.Base(method)] = true
			}
			for name := range want {
				if !listed[name] {
					t.Errorf("the README's %s row does not name %s, which the role may call", role, name)
				}
			}
			for name := range listed {
				if !want[name] {
					t.Errorf("the README's %s row names %s, which the role table does not grant it", role, name)
				}
			}
			if t.Failed() {
				t.Logf("row: %s", strings.TrimSpace(string(row[1])))
			}
		})
	}
}
