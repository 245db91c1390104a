// Package codeshape holds checks over the repository's Go source that
// `make test` runs like any other test: rules from the contributor guide
// that a reviewer would otherwise have to count by hand.
package codeshape

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxFunctionLines is the longest a function may be, counted from its
// declaration line to its closing brace, generated code excepted.
const maxFunctionLines = 80

// skippedDirs are never checked, wherever they are: dependencies, test
// fixtures and VCS data. Directories whose name starts with a dot are
// skipped too.
var skippedDirs = map[string]bool{"node_modules": true, "testdata": true}

// generatedDir is the generated code at the module's root (`make
// generate`); files elsewhere that say they are generated are skipped as
// well.
const generatedDir = "gen"

// longFunc is a function over maxFunctionLines.
type longFunc struct {
	// name is the function's name, a method's as (*Recv).Name or
	// Recv.Name; a function literal outside any function is "func literal
	// at line N".
	name  string
	lines int
}

// repoRoot is the module's root, three directories above this package's.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", root, err)
	}
	return root
}

// goFiles lists every hand-written .go file below root.
func goFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (skippedDirs[name] || strings.HasPrefix(name, ".") || path == filepath.Join(root, generatedDir)) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// longFunctions returns the functions and methods of f, and the function
// literals outside them, that are longer than maxFunctionLines; nothing
// for a generated file.
func longFunctions(fset *token.FileSet, f *ast.File) []longFunc {
	if ast.IsGenerated(f) {
		return nil
	}
	length := func(n ast.Node) int {
		return fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1
	}
	var long []longFunc
	for _, decl := range f.Decls {
		if fn, ok := decl.(*ast.FuncDecl); ok {
			if fn.Body != nil && length(fn) > maxFunctionLines {
				long = append(long, longFunc{funcName(fn), length(fn)})
			}
			continue
		}
		// A function literal inside a function is no longer than the
		// function; one in a package-level var is checked on its own.
		ast.Inspect(decl, func(n ast.Node) bool {
			if lit, ok := n.(*ast.FuncLit); ok {
				if length(lit) > maxFunctionLines {
					name := fmt.Sprintf("func literal at line %d", fset.Position(lit.Pos()).Line)
					long = append(long, longFunc{name, length(lit)})
				}
				return false
			}
			return true
		})
	}
	return long
}

// funcName is fn's name, with its receiver's type for a method:
// (*T).Name or T.Name, without type parameters.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	typ, star := fn.Recv.List[0].Type, false
	for {
		switch x := typ.(type) {
		case *ast.StarExpr:
			typ, star = x.X, true
			continue
		case *ast.IndexExpr:
			typ = x.X
			continue
		case *ast.IndexListExpr:
			typ = x.X
			continue
		case *ast.ParenExpr:
			typ = x.X
			continue
		}
		break
	}
	recv := "?"
	if id, ok := typ.(*ast.Ident); ok {
		recv = id.Name
	}
	if star {
		return "(*" + recv + ")." + fn.Name.Name
	}
	return recv + "." + fn.Name.Name
}

// TestNoLongFunctions fails for every function or method longer than
// maxFunctionLines outside gen/.
func TestNoLongFunctions(t *testing.T) {
	root := repoRoot(t)
	fset := token.NewFileSet()
	files := goFiles(t, root)
	if len(files) < 50 {
		t.Fatalf("found only %d Go files under %s; the walk is wrong", len(files), root)
	}
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("parse %s: %v", path, err)
			continue
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			t.Fatal(err)
		}
		for _, fn := range longFunctions(fset, f) {
			t.Errorf("%s: %s is %d lines (at most %d)", filepath.ToSlash(rel), fn.name, fn.lines, maxFunctionLines)
		}
	}
}

// TestLongFunctions checks the check on source written for it: it must
// catch what it is meant to, or TestNoLongFunctions could pass by
// finding nothing.
func TestLongFunctions(t *testing.T) {
	// body returns a function body of n lines in all, braces included.
	body := func(n int) string { return "{\n" + strings.Repeat("\t_ = 0\n", n-2) + "}\n" }
	tests := []struct {
		name string
		src  string
		want []string // "name lines" of each long function
	}{
		{"at the limit", "package p\nfunc f() " + body(80), nil},
		{"one over", "package p\nfunc f() " + body(81), []string{"f 81"}},
		{"doc comment not counted", "package p\n// f.\n// More.\nfunc f() " + body(80), nil},
		{"signature lines counted", "package p\nfunc f(\n\ta int,\n) " + body(79), []string{"f 81"}},
		{"method on a pointer", "package p\ntype T struct{}\nfunc (t *T) m() " + body(81), []string{"(*T).m 81"}},
		{"method on a value", "package p\ntype T struct{}\nfunc (T) m() " + body(90), []string{"T.m 90"}},
		{"generic method", "package p\ntype T[P any] struct{}\nfunc (t *T[P]) m() " + body(81), []string{"(*T).m 81"}},
		{"generic method, two parameters", "package p\ntype T[P, Q any] struct{}\nfunc (t T[P, Q]) m() " + body(81), []string{"T.m 81"}},
		{"package-level func literal", "package p\nvar f = func() " + body(81), []string{"func literal at line 2 81"}},
		{"short funcs", "package p\nfunc f() " + body(3) + "func g() " + body(80), nil},
		{"generated", "// Code generated by x. DO NOT EDIT.\n\npackage p\nfunc f() " + body(200), nil},
		{"declaration only", "package p\nfunc f()\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "p.go", tt.src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, fn := range longFunctions(fset, f) {
				got = append(got, fmt.Sprintf("%s %d", fn.name, fn.lines))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("long functions %q, want %q", got, tt.want)
			}
		})
	}
}
