package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
)

// Quota bounds one identity's tenant. Zero means no bound.
type Quota struct {
	// MaxConcurrentRuns bounds the tenant's Runs that have not settled.
	MaxConcurrentRuns int `json:"max_concurrent_runs,omitempty"`
	// StartsPerMinute bounds StartRun calls per minute.
	StartsPerMinute int `json:"starts_per_minute,omitempty"`
}

// Entry is one line of the keys file: an API key (by its SHA-256) or a
// client certificate identity (its CN or a URI SAN), with a tenant, roles
// and quotas.
type Entry struct {
	Name        string   `json:"name,omitempty"`
	KeySHA256   string   `json:"key_sha256,omitempty"`
	Certificate string   `json:"certificate,omitempty"`
	Tenant      string   `json:"tenant"`
	Roles       []string `json:"roles"`
	Quota       Quota    `json:"quota,omitzero"`
	// Robots are the bus robots (Spec names) the caller may send as,
	// besides its Name; "*" is every robot of the tenant.
	Robots []string `json:"robots,omitempty"`
}

// File is the keys file: {"identities": [Entry, ...]}.
type File struct {
	Identities []Entry `json:"identities"`
}

// entry is a checked Entry with its hash decoded.
type entry struct {
	Entry
	hash []byte
}

// Keys is a keys file held in memory, replaced whole when it reloads.
type Keys struct {
	path    string
	log     *slog.Logger
	entries atomic.Pointer[[]entry]
	stamp   atomic.Value // fileStamp
}

type fileStamp struct {
	mod  time.Time
	size int64
}

// LoadKeys reads the keys file at path. A file readable by others than
// its owner, or one that does not parse, is CONFIGURATION_INVALID.
func LoadKeys(path string, log *slog.Logger) (*Keys, error) {
	k := &Keys{path: path, log: log}
	if err := k.load(); err != nil {
		return nil, err
	}
	return k, nil
}

func invalid(path, detail string) error {
	return &errs.ConfigurationInvalid{Subject: "keys file " + path, Description: detail}
}

// CheckPrivate refuses a file that anyone but its owner may read or write.
func CheckPrivate(path, what string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return &errs.ConfigurationInvalid{Subject: what + " " + path, Description: err.Error()}
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return &errs.ConfigurationInvalid{Subject: what + " " + path, Description: fmt.Sprintf("mode %04o lets others read it; chmod 600 %s", fi.Mode().Perm(), path)}
	}
	return nil
}

func (k *Keys) load() error {
	if err := CheckPrivate(k.path, "keys file"); err != nil {
		return err
	}
	fi, err := os.Stat(k.path)
	if err != nil {
		return invalid(k.path, err.Error())
	}
	b, err := os.ReadFile(k.path)
	if err != nil {
		return invalid(k.path, err.Error())
	}
	entries, err := parse(b)
	if err != nil {
		return invalid(k.path, err.Error())
	}
	k.entries.Store(&entries)
	k.stamp.Store(fileStamp{mod: fi.ModTime(), size: fi.Size()})
	return nil
}

func parse(b []byte) ([]entry, error) {
	var f File
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	out := make([]entry, 0, len(f.Identities))
	for i, e := range f.Identities {
		if e.Tenant == "" {
			return nil, fmt.Errorf("identities[%d]: tenant is empty", i)
		}
		if len(e.Roles) == 0 {
			return nil, fmt.Errorf("identities[%d]: no roles", i)
		}
		for _, r := range e.Roles {
			if !slices.Contains(Roles, r) {
				return nil, fmt.Errorf("identities[%d]: unknown role %q (one of %s)", i, r, strings.Join(Roles, ", "))
			}
		}
		var hash []byte
		switch {
		case e.KeySHA256 != "" && e.Certificate == "":
			h, err := hex.DecodeString(e.KeySHA256)
			if err != nil || len(h) != sha256.Size {
				return nil, fmt.Errorf("identities[%d]: key_sha256 is not 64 hex digits", i)
			}
			hash = h
		case e.Certificate != "" && e.KeySHA256 == "":
		default:
			return nil, fmt.Errorf("identities[%d]: give exactly one of key_sha256 and certificate", i)
		}
		out = append(out, entry{Entry: e, hash: hash})
	}
	return out, nil
}

// Watch reloads the file whenever its modification time or size changes,
// checking every interval, until ctx ends, and calls reloaded (when not
// nil) after each reload, so that what was admitted under the previous
// keys can be checked again. A file that no longer parses is logged and
// the previous keys stay.
func (k *Keys) Watch(ctx context.Context, interval time.Duration, reloaded func()) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		fi, err := os.Stat(k.path)
		if err != nil {
			k.log.Warn("keys file unreadable; keeping the previous keys", "path", k.path, "err", err)
			continue
		}
		if old, _ := k.stamp.Load().(fileStamp); old.mod.Equal(fi.ModTime()) && old.size == fi.Size() {
			continue
		}
		if err := k.load(); err != nil {
			k.log.Error("keys file did not reload; keeping the previous keys", "path", k.path, "err", err)
			continue
		}
		k.log.Info("keys file reloaded", "path", k.path, "identities", len(*k.entries.Load()))
		if reloaded != nil {
			reloaded()
		}
	}
}

func (e entry) identity() Identity {
	name := e.Name
	if name == "" && e.Certificate != "" {
		name = e.Certificate
	}
	return Identity{Name: name, Tenant: e.Tenant, Roles: slices.Clone(e.Roles), Quota: e.Quota, Robots: slices.Clone(e.Robots)}
}

// ByKey returns the identity of an API key. Every entry is compared, in
// constant time, whether or not an earlier one matched.
func (k *Keys) ByKey(key string) (Identity, bool) {
	sum := sha256.Sum256([]byte(key))
	var found *entry
	for i, e := range *k.entries.Load() {
		if e.hash != nil && subtle.ConstantTimeCompare(sum[:], e.hash) == 1 {
			found = &(*k.entries.Load())[i]
		}
	}
	if found == nil {
		return Identity{}, false
	}
	return found.identity(), true
}

// ByCertificate returns the identity of the first of names (a client
// certificate's CN and URI SANs) that the file lists.
func (k *Keys) ByCertificate(names []string) (Identity, bool) {
	for _, e := range *k.entries.Load() {
		if e.Certificate != "" && slices.Contains(names, e.Certificate) {
			return e.identity(), true
		}
	}
	return Identity{}, false
}

// Mint returns a new random API key and the keys file entry that admits
// it. The key is shown once; only its hash is stored.
func Mint(name, tenant string, roles []string) (string, Entry, error) {
	for _, r := range roles {
		if !slices.Contains(Roles, r) {
			return "", Entry{}, fmt.Errorf("unknown role %q (one of %s)", r, strings.Join(Roles, ", "))
		}
	}
	if tenant == "" {
		return "", Entry{}, fmt.Errorf("a key needs a tenant")
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", Entry{}, err
	}
	key := "rsk_" + base64.RawURLEncoding.EncodeToString(raw)
	sum := sha256.Sum256([]byte(key))
	return key, Entry{Name: name, KeySHA256: hex.EncodeToString(sum[:]), Tenant: tenant, Roles: roles}, nil
}
