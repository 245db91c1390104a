package auth_test

import (
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/errs"
)

func write(t *testing.T, body string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadKeysRefuses(t *testing.T) {
	hash := strings.Repeat("ab", 32)
	cases := []struct {
		name, body string
		mode       os.FileMode
		want       string
	}{
		{"readable by others", `{"identities": []}`, 0o644, "lets others read it"},
		{"not JSON", `{`, 0o600, "unexpected EOF"},
		{"unknown field", `{"identities": [], "keys": []}`, 0o600, "unknown field"},
		{"no tenant", `{"identities": [{"key_sha256": "` + hash + `", "roles": ["admin"]}]}`, 0o600, "tenant is empty"},
		{"no roles", `{"identities": [{"key_sha256": "` + hash + `", "tenant": "a"}]}`, 0o600, "no roles"},
		{"unknown role", `{"identities": [{"key_sha256": "` + hash + `", "tenant": "a", "roles": ["root"]}]}`, 0o600, `unknown role "root"`},
		{"bad hash", `{"identities": [{"key_sha256": "abc", "tenant": "a", "roles": ["admin"]}]}`, 0o600, "64 hex digits"},
		{"key and certificate", `{"identities": [{"key_sha256": "` + hash + `", "certificate": "cn", "tenant": "a", "roles": ["admin"]}]}`, 0o600, "exactly one"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := auth.LoadKeys(write(t, c.body, c.mode), slog.New(slog.NewTextHandler(io.Discard, nil)))
			var ci *errs.ConfigurationInvalid
			if !errors.As(err, &ci) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("LoadKeys: %v, want CONFIGURATION_INVALID saying %q", err, c.want)
			}
		})
	}
}

func TestMintedKeyIsFoundByItsHashOnly(t *testing.T) {
	key, entry, err := auth.Mint("ci", "acme", []string{auth.RoleRunner})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(entry.KeySHA256, key) || len(entry.KeySHA256) != 64 {
		t.Fatalf("entry %+v", entry)
	}
	other, otherEntry, _ := auth.Mint("other", "globex", []string{auth.RoleReader})
	body := `{"identities": [{"name": "ci", "key_sha256": "` + entry.KeySHA256 + `", "tenant": "acme", "roles": ["runner"]},
		{"name": "other", "key_sha256": "` + otherEntry.KeySHA256 + `", "tenant": "globex", "roles": ["reader"]}]}`
	keys, err := auth.LoadKeys(write(t, body, 0o600), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		key, tenant string
		found       bool
	}{{key, "acme", true}, {other, "globex", true}, {key + "x", "", false}, {"", "", false}, {entry.KeySHA256, "", false}}
	for _, c := range cases {
		id, ok := keys.ByKey(c.key)
		if ok != c.found || id.Tenant != c.tenant {
			t.Errorf("ByKey(%.8s...): %+v %v, want tenant %q found %v", c.key, id, ok, c.tenant, c.found)
		}
	}
	if _, _, err := auth.Mint("x", "acme", []string{"root"}); err == nil {
		t.Error("minted a key with an unknown role")
	}
}
