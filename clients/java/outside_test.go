package java_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/testing/scenario"
	"github.com/runsvc/runsvc/internal/testing/scenario/servers"
)

// TestOutsideProgram compiles test/outside/Outside.java in a temporary
// directory against nothing but the jar, and runs it against a server
// whose API key may start one Run a minute (the scenario file's "keys"
// setting): it must classify the first Run's failure as BUDGET_EXCEEDED,
// not retryable, and the second start as QUOTA_EXCEEDED, retryable after
// RetryInfo's delay, which Retry waits within its deadline.
func TestOutsideProgram(t *testing.T) {
	jar := buildJar(t)
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("test", "outside", "Outside.java"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Outside.java"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := command(dir, "javac", "-cp", jar, "Outside.java"); err != nil {
		t.Fatalf("javac -cp runsvc-client.jar Outside.java: %v\n%s", err, out)
	}

	f, err := scenario.Load(filepath.Join(repo, "testdata", "scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	keys := f.Servers["keys"]
	key := ""
	for _, k := range keys.Keys {
		if k.StartsPerMinute == 1 {
			key = k.Key
		}
	}
	if key == "" {
		t.Fatal("the scenario file's keys setting has no key allowed one start a minute")
	}
	srv := servers.Start(t, &scenario.File{Servers: map[string]scenario.ServerSetting{"keys": keys}})["keys"]

	out, err := command(dir, "java", "-cp", jar+string(os.PathListSeparator)+".", "Outside", srv.Addr, key)
	if err != nil || !strings.HasSuffix(strings.TrimSpace(out), "OK") {
		t.Fatalf("java Outside: %v\n%s", err, out)
	}
	for _, want := range []string{"reason=BUDGET_EXCEEDED", "retryable=false", "reason=QUOTA_EXCEEDED", "retryable=true", "retry after PT", "reason=SCHEDULE_NOT_FOUND", "reason=ROLE_DENIED"} {
		if !strings.Contains(out, want) {
			t.Errorf("the program's output lacks %q:\n%s", want, out)
		}
	}
	t.Logf("java Outside:\n%s", out)
}

// TestReadmeExample compiles the README's example (the java block after
// <!-- example:java -->) in a temporary directory against the jar alone
// and runs it against a server: it starts a Run that completes and
// classifies the RUN_NOT_SUSPENDED error of resuming it.
func TestReadmeExample(t *testing.T) {
	jar := buildJar(t)
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "<!-- example:java -->\n```java\n")
	src, _, closed := strings.Cut(rest, "\n```\n")
	if !ok || !closed {
		t.Fatal("README.md has no java block after <!-- example:java -->")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Example.java"), []byte(src+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := command(dir, "javac", "-cp", jar, "Example.java"); err != nil {
		t.Fatalf("javac -cp runsvc-client.jar Example.java: %v\n%s", err, out)
	}
	out, err := command(dir, "java", "-cp", jar+string(os.PathListSeparator)+".", "Example", startDefault(t).Addr)
	if err != nil {
		t.Fatalf("java Example: %v\n%s", err, out)
	}
	for _, want := range []string{" RUN_STATE_COMPLETED\n", "FAILED_PRECONDITION RUN_NOT_SUSPENDED retryable=false", "nothing to resume", "read again: RUN_STATE_COMPLETED"} {
		if !strings.Contains(out, want) {
			t.Errorf("the example's output lacks %q:\n%s", want, out)
		}
	}
	t.Logf("java Example:\n%s", out)
}

// TestClassifyAndRetry runs test/dev/runsvc/check: classify of statuses and
// RPC errors built as runsvc, a proxy or a bug would send them, and Retry
// on a clock that its sleeper moves (no server, nothing waits).
func TestClassifyAndRetry(t *testing.T) {
	jar, classes := buildDriver(t)
	out, err := command(".", "java", "-cp", jar+string(os.PathListSeparator)+classes, "dev.runsvc.check.Main")
	if err != nil {
		t.Fatalf("java dev.runsvc.check.Main: %v\n%s", err, out)
	}
	t.Log(strings.TrimSpace(out))
}
