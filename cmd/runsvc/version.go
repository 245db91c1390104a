package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// stampedCommit and stampedModified ("true" for a modified tree) are
// stamped by `make build` (-ldflags -X) from git: the build info has no
// commit when GOFLAGS holds -buildvcs=false.
var stampedCommit, stampedModified string

// printVersion writes the module version, the VCS commit (and whether the
// tree was modified) and the Go version, from the binary's build info, or
// from what make stamped when the build info has no commit.
func printVersion(w io.Writer) {
	version, commit, modified, goVersion := "(devel)", "unknown", "", "unknown"
	if stampedCommit != "" {
		commit = stampedCommit
	}
	if stampedModified == "true" {
		modified = " (modified)"
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
		if v := bi.Main.Version; v != "" {
			version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = " (modified)"
				}
			}
		}
	}
	fmt.Fprintf(w, "runsvc %s\ncommit %s%s\n%s\n", version, commit, modified, goVersion)
}
