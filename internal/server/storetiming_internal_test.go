package server

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"testing"

	"github.com/runsvc/runsvc/internal/store"
)

// TestTimedStoreCoversEveryOperation: timedStore declares a timed method
// for every store.Store operation, so a method added to the port later
// is not silently forwarded untimed by the embedding.
func TestTimedStoreCoversEveryOperation(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "storetiming.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
			continue
		}
		if id, ok := fd.Recv.List[0].Type.(*ast.Ident); ok && id.Name == "timedStore" {
			declared[fd.Name.Name] = true
		}
	}
	port := reflect.TypeFor[store.Store]()
	for i := range port.NumMethod() {
		name := port.Method(i).Name
		if name == "Notifier" || name == "Close" || name == "ChecksNewestVersion" {
			continue // not operations on the data
		}
		t.Run(name, func(t *testing.T) {
			if !declared[name] {
				t.Fatalf("timedStore does not time store.Store.%s; add it to storetiming.go", name)
			}
		})
	}
}
