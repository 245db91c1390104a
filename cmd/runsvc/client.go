package main

import (
	"fmt"
	"os"
)

func client(cmd string, _ []string) int {
	fmt.Fprintf(os.Stderr, "runsvc: unknown command %q\n\n%s", cmd, usage)
	return 2
}
