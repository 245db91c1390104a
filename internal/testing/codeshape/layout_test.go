package codeshape

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// layoutBlock returns the lines of README's Layout section's code block.
func layoutBlock(t *testing.T, root string) []string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "\n## Layout\n")
	if !ok {
		t.Fatal("README.md has no Layout section")
	}
	_, rest, _ = strings.Cut(rest, "```\n")
	block, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("README.md's Layout section has no code block")
	}
	return strings.Split(strings.TrimSpace(block), "\n")
}

// layoutNames returns the paths a layout line names: heads, its first
// column (several joined by ", "), and below, any path with a slash in its
// description, such as "store/storetest", that names a package below one
// of the heads.
func layoutNames(line string) (heads, below []string) {
	line = strings.TrimSpace(line)
	if line == "" {
		return nil, nil
	}
	head, desc := line, ""
	if i := strings.Index(line, "  "); i > 0 {
		head, desc = line[:i], line[i:]
	}
	for _, n := range strings.Split(head, ", ") {
		heads = append(heads, strings.TrimSuffix(strings.TrimSpace(n), "/"))
	}
	for _, w := range strings.FieldsFunc(desc, func(r rune) bool { return strings.ContainsRune(" ,;:()", r) }) {
		if strings.Contains(w, "/") {
			below = append(below, strings.TrimSuffix(w, "/"))
		}
	}
	return heads, below
}

// goPackageDirs lists, relative to root, every directory that holds a
// hand-written Go package.
func goPackageDirs(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	for _, f := range goFiles(t, root) {
		rel, err := filepath.Rel(root, filepath.Dir(f))
		if err != nil {
			t.Fatal(err)
		}
		if rel != "." && !slices.Contains(dirs, rel) {
			dirs = append(dirs, filepath.ToSlash(rel))
		}
	}
	return dirs
}

// TestReadmeLayoutListsEveryPackage checks that README's Layout names
// every Go package of the repository, on a line of its own or as a path
// below a listed one in its description ("store/storetest"), and names
// no directory that does not exist.
func TestReadmeLayoutListsEveryPackage(t *testing.T) {
	root := repoRoot(t)
	var names []string
	for _, line := range layoutBlock(t, root) {
		heads, below := layoutNames(line)
		for _, h := range heads {
			if _, err := os.Stat(filepath.Join(root, h)); err != nil {
				t.Errorf("README's Layout names %s, which does not exist", h)
			}
		}
		names = append(append(names, heads...), below...)
	}
	for _, dir := range goPackageDirs(t, root) {
		named := slices.ContainsFunc(names, func(n string) bool {
			return n == dir || (strings.Contains(n, "/") && strings.HasSuffix(dir, "/"+n))
		})
		if !named {
			t.Errorf("README's Layout does not name the package %s", dir)
		}
	}
}
