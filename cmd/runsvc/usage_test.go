package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/cli"
)

// TestUsageNamesEveryClientGroup: `runsvc -h` lists every command group
// the client's own help lists (thread included), so no group is only found
// by guessing.
func TestUsageNamesEveryClientGroup(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := cli.Main(context.Background(), []string{"-h"}, strings.NewReader(""), &stdout, &stderr); code != cli.ExitOK {
		t.Fatalf("runsvc -h through the client: exit %d\n%s", code, stderr.String())
	}
	groups := regexp.MustCompile(`(?m)^  runsvc ([a-z]+) `).FindAllStringSubmatch(stdout.String(), -1)
	if len(groups) == 0 {
		t.Fatalf("the client's help lists no group:\n%s", stdout.String())
	}
	for _, g := range groups {
		if !strings.Contains(usage, "\n  runsvc "+g[1]+" ") {
			t.Errorf("runsvc -h does not list %s:\n%s", g[1], usage)
		}
	}
}
