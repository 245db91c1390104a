package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// printVersion writes the module version, the VCS commit (and whether the
// tree was modified) and the Go version, from the binary's build info.
func printVersion(w io.Writer) {
	version, commit, modified, goVersion := "(devel)", "unknown", "", "unknown"
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
