// Command gen writes the error catalogue's files (errors.json,
// docs/errors.md, the clients' reason constants) from the errdetails
// table. Run it from the repository root: `make catalogue`.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/runsvc/runsvc/internal/catalogue"
)

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	files := catalogue.Files()
	for _, p := range catalogue.Paths() {
		path := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := os.WriteFile(path, files[p], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("wrote", p)
	}
}
