package catalogue_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/runsvc/runsvc/client"
	"github.com/runsvc/runsvc/internal/catalogue"
	"github.com/runsvc/runsvc/internal/cli"
	"github.com/runsvc/runsvc/internal/errdetails"
)

const repo = "../.."

// TestCommittedFilesAreFresh fails when a committed catalogue file is not
// what the table generates.
func TestCommittedFilesAreFresh(t *testing.T) {
	files := catalogue.Files()
	for _, p := range catalogue.Paths() {
		t.Run(p, func(t *testing.T) {
			got, err := os.ReadFile(filepath.Join(repo, p))
			if err != nil {
				t.Fatalf("%v: run `%s` to generate it", err, catalogue.Regenerate)
			}
			if !bytes.Equal(got, files[p]) {
				t.Fatalf("%s is stale: the errdetails table changed; run `%s` and commit the result", p, catalogue.Regenerate)
			}
		})
	}
}

// TestErrorsCommandListsEveryReason runs `runsvc errors --json` and checks
// it against the table, errors.json and the three clients' constants.
func TestErrorsCommandListsEveryReason(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := cli.Main(context.Background(), []string{"errors", "--json"}, nil, &out, &errOut); code != cli.ExitOK {
		t.Fatalf("runsvc errors --json exited %d: %s", code, errOut.String())
	}
	var doc catalogue.Document
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	table := errdetails.Reasons()
	if len(doc.Reasons) != len(table) || doc.ReasonCount != len(table) {
		t.Fatalf("runsvc errors --json lists %d reasons (reasonCount %d), the table has %d", len(doc.Reasons), doc.ReasonCount, len(table))
	}
	var listed []string
	for _, e := range doc.Reasons {
		listed = append(listed, e.Reason)
	}
	if !slices.Equal(listed, table) {
		t.Fatalf("runsvc errors --json lists %v, the table %v", listed, table)
	}
	committed, err := os.ReadFile(filepath.Join(repo, "errors.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), committed) {
		t.Errorf("runsvc errors --json differs from errors.json: run `%s`", catalogue.Regenerate)
	}
	t.Run("go", func(t *testing.T) {
		if !slices.Equal(client.Reasons, table) || client.CatalogueVersion != doc.Version {
			t.Errorf("client.Reasons %v (version %s), the table %v (version %s)", client.Reasons, client.CatalogueVersion, table, doc.Version)
		}
	})
	t.Run("python", func(t *testing.T) {
		got := clientReasons(t, "python3", "/usr/bin/python3", "-c",
			`import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("reasons", sys.argv[1])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
print(json.dumps({"version": m.VERSION, "reasons": list(m.REASONS), "named": [getattr(m, r) for r in m.REASONS]}))`,
			filepath.Join(repo, "clients/python/runsvc_client/reasons.py"))
		checkClient(t, got, doc)
	})
	t.Run("node", func(t *testing.T) {
		abs, _ := filepath.Abs(filepath.Join(repo, "clients/node/src/reasons.js"))
		got := clientReasons(t, "node", "node", "--input-type=module", "-e",
			`const m = await import(process.argv[1]);
console.log(JSON.stringify({version: m.CATALOGUE_VERSION, reasons: [...m.REASONS], named: m.REASONS.map((r) => m.Reason[r])}));`,
			abs)
		checkClient(t, got, doc)
		var pkg struct {
			Version string `json:"version"`
		}
		raw, err := os.ReadFile(filepath.Join(repo, "clients/node/package.json"))
		if err != nil || json.Unmarshal(raw, &pkg) != nil || pkg.Version != doc.Version {
			t.Errorf("clients/node/package.json version %q (%v), the catalogue's %s: set it by hand", pkg.Version, err, doc.Version)
		}
	})
}

// clientConstants is what a client's generated module holds.
type clientConstants struct {
	Version string   `json:"version"`
	Reasons []string `json:"reasons"`
	Named   []string `json:"named"`
}

// clientReasons runs a client's interpreter to read its constants.
func clientReasons(t *testing.T, tool, bin string, args ...string) clientConstants {
	t.Helper()
	if _, err := exec.LookPath(bin); err != nil {
		if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
			t.Fatalf("RUNSVC_REQUIRE_ALL=1 but %s is not installed", tool)
		}
		t.Skipf("skipped: %s not installed", tool)
	}
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var c clientConstants
	if err := json.Unmarshal(out, &c); err != nil {
		t.Fatalf("%s printed %q: %v", tool, out, err)
	}
	return c
}

func checkClient(t *testing.T, got clientConstants, doc catalogue.Document) {
	t.Helper()
	var want []string
	for _, e := range doc.Reasons {
		want = append(want, e.Reason)
	}
	if got.Version != doc.Version || !slices.Equal(got.Reasons, want) || !slices.Equal(got.Named, want) {
		t.Errorf("constants: version %s, reasons %v, values %v; the catalogue: version %s, %v", got.Version, got.Reasons, got.Named, doc.Version, want)
	}
}

// TestErrorsCommandText checks the readable listing names every reason.
func TestErrorsCommandText(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := cli.Main(context.Background(), []string{"errors"}, nil, &out, &errOut); code != cli.ExitOK {
		t.Fatalf("runsvc errors exited %d: %s", code, errOut.String())
	}
	for _, r := range errdetails.Reasons() {
		if !bytes.Contains(out.Bytes(), []byte("\n"+r+" ")) {
			t.Errorf("runsvc errors does not list %s:\n%s", r, out.String())
		}
	}
	if code := cli.Main(context.Background(), []string{"errors", "extra"}, nil, &out, &errOut); code != cli.ExitUsage {
		t.Errorf("runsvc errors extra exited %d, want %d", code, cli.ExitUsage)
	}
}
