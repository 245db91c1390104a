package java_test

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedSourcesAreFresh runs generate.sh into a temporary directory
// and fails when the committed gen/ differs from it, file by file.
func TestGeneratedSourcesAreFresh(t *testing.T) {
	var missing []string
	if _, err := exec.LookPath("protoc"); err != nil {
		missing = append(missing, "protoc")
	}
	plugin := "/usr/bin/grpc_java_plugin"
	if p, err := exec.LookPath("grpc_java_plugin"); err == nil {
		plugin = p
	}
	if _, err := os.Stat(plugin); err != nil {
		missing = append(missing, "grpc_java_plugin")
	}
	if len(missing) > 0 {
		if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
			t.Fatalf("RUNSVC_REQUIRE_ALL=1 but %s missing (apt-get install protobuf-compiler libprotobuf-dev protobuf-compiler-grpc-java-plugin)", strings.Join(missing, ", "))
		}
		t.Skipf("skipped: %s not installed", strings.Join(missing, " and "))
	}
	out := t.TempDir()
	if msg, err := command(".", "sh", "generate.sh", out); err != nil {
		t.Fatalf("generate.sh: %v\n%s", err, msg)
	}
	want, got := tree(t, out), tree(t, "gen")
	for p, body := range want {
		committed, ok := got[p]
		switch {
		case !ok:
			t.Errorf("gen/%s is missing: run clients/java/generate.sh", p)
		case !bytes.Equal(committed, body):
			t.Errorf("gen/%s is stale: run clients/java/generate.sh", p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("gen/%s is not what generate.sh writes: run clients/java/generate.sh", p)
		}
	}
	if len(want) == 0 {
		t.Fatal("generate.sh wrote nothing")
	}
	t.Logf("gen/ holds the %d files generate.sh writes", len(want))
}

// tree reads every file under root by its slash-separated relative path.
func tree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		files[filepath.ToSlash(rel)] = body
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
