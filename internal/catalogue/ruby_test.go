package catalogue_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/catalogue"
)

// rubyReader prints the constants of a reasons.rb (its path is ARGV[0]) as
// clientConstants JSON, with the family of every reason.
const rubyReader = `require "json"
load ARGV[0]
r = Runsvc::Reasons
fam = r::ALL.select { |x| Runsvc::FAMILIES.fetch(x, Object) < Runsvc::Error }
puts JSON.generate({version: Runsvc::CATALOGUE_VERSION, reasons: r::ALL, named: r::ALL.map { |x| r.const_get(x) }, families: fam.size})`

// TestRubyConstants reads clients/ruby's generated reasons.rb with ruby and
// fails when its reasons, their count or the version differ from
// errors.json, or a reason has no Runsvc::Error family. It also feeds it a
// copy missing one reason, to show the check fails then.
func TestRubyConstants(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repo, "errors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc catalogue.Document
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("errors.json: %v", err)
	}
	path, _ := filepath.Abs(filepath.Join(repo, catalogue.RubyPath))
	got := rubyReasons(t, path)
	if problems := rubyDiff(got, doc); len(problems) > 0 {
		t.Errorf("%s differs from the catalogue (run `%s`): %s", catalogue.RubyPath, catalogue.Regenerate, strings.Join(problems, "; "))
	}
	t.Logf("%s: %d reasons, each with a family, version %s", catalogue.RubyPath, len(got.Reasons), got.Version)

	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dropped := doc.Reasons[len(doc.Reasons)-1].Reason
	stale := strings.Replace(string(body), "      "+dropped+",\n", "", 1)
	if stale == string(body) {
		t.Fatalf("%s does not list %s in Reasons::ALL", catalogue.RubyPath, dropped)
	}
	tampered := filepath.Join(t.TempDir(), "reasons.rb")
	if err := os.WriteFile(tampered, []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	if problems := rubyDiff(rubyReasons(t, tampered), doc); len(problems) == 0 {
		t.Errorf("a reasons.rb without %s passes the check", dropped)
	}
}

// rubyConstants is what rubyReader prints.
type rubyConstants struct {
	clientConstants
	Families int `json:"families"`
}

// rubyReasons runs Debian's ruby, with the gem's lib on its load path, to
// read a reasons.rb.
func rubyReasons(t *testing.T, path string) rubyConstants {
	t.Helper()
	const ruby = "/usr/bin/ruby"
	lib, _ := filepath.Abs(filepath.Join(repo, "clients", "ruby", "lib"))
	if _, err := exec.LookPath(ruby); err != nil {
		if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
			t.Fatal("RUNSVC_REQUIRE_ALL=1 but ruby is not installed")
		}
		t.Skip("skipped: ruby not installed")
	}
	out, err := exec.Command(ruby, "-I", lib, "-e", rubyReader, path).Output()
	if err != nil {
		t.Fatalf("ruby: %v", err)
	}
	var c rubyConstants
	if err := json.Unmarshal(out, &c); err != nil {
		t.Fatalf("ruby printed %q: %v", out, err)
	}
	return c
}

// rubyDiff lists how the Ruby constants differ from the catalogue.
func rubyDiff(got rubyConstants, doc catalogue.Document) []string {
	var out []string
	if len(got.Reasons) != doc.ReasonCount || len(got.Named) != doc.ReasonCount {
		out = append(out, "it has "+strconv.Itoa(len(got.Reasons))+" reasons, the catalogue "+strconv.Itoa(doc.ReasonCount))
	}
	if got.Families != doc.ReasonCount {
		out = append(out, strconv.Itoa(got.Families)+" reasons have a Runsvc::Error family, want "+strconv.Itoa(doc.ReasonCount))
	}
	if got.Version != doc.Version {
		out = append(out, "version "+got.Version+", the catalogue's "+doc.Version)
	}
	for i, e := range doc.Reasons {
		if i >= len(got.Reasons) || got.Reasons[i] != e.Reason || got.Named[i] != e.Reason {
			out = append(out, "reason "+strconv.Itoa(i)+" is not "+e.Reason)
			break
		}
	}
	return out
}
