package blackbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/testing/blackbox"
)

// TestServeRefusesUnsafeStarts: `runsvc serve` on a non-loopback address
// without a keys file, or with a keys or secrets file others may read,
// exits 2 saying why, before it listens.
func TestServeRefusesUnsafeStarts(t *testing.T) {
	bin := blackbox.Binary(t)
	dir := t.TempDir()
	loose := filepath.Join(dir, "loose.json")
	if err := os.WriteFile(loose, []byte(`{"identities": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{name: "0.0.0.0 without keys", args: []string{"--listen", "0.0.0.0:0"}, want: []string{"CONFIGURATION_INVALID", "serves only on a loopback address", "--insecure-no-auth"}},
		{name: "keys file others may read", args: []string{"--listen", "127.0.0.1:0", "--keys-file", loose}, want: []string{"CONFIGURATION_INVALID", "lets others read it", "chmod 600"}},
		{name: "secrets file others may read", args: []string{"--listen", "127.0.0.1:0", "--secrets-file", loose}, want: []string{"CONFIGURATION_INVALID", "secrets file"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(bin, append([]string{"serve", "--data", t.TempDir()}, c.args...)...)
			out, err := cmd.CombinedOutput()
			exit, ok := err.(*exec.ExitError)
			if !ok || exit.ExitCode() != 2 {
				t.Fatalf("serve %v: %v, want exit status 2\n%s", c.args, err, out)
			}
			for _, w := range c.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output does not say %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestKeysMint: `runsvc keys mint` prints a key once and an entry that
// holds only its hash.
func TestKeysMint(t *testing.T) {
	out, err := exec.Command(blackbox.Binary(t), "keys", "mint", "--tenant", "acme", "--role", "runner", "--role", "reader", "--name", "ci").CombinedOutput()
	if err != nil {
		t.Fatalf("keys mint: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 4 {
		t.Fatalf("output:\n%s", out)
	}
	key, entry := strings.TrimSpace(lines[1]), strings.TrimSpace(lines[3])
	if !strings.HasPrefix(key, "rsk_") || len(key) < 40 {
		t.Errorf("key %q", key)
	}
	if strings.Contains(entry, key) || !strings.Contains(entry, `"key_sha256":"`) || !strings.Contains(entry, `"roles":["runner","reader"]`) {
		t.Errorf("entry %s", entry)
	}
}
