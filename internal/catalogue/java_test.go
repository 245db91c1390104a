package catalogue_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/catalogue"
	"github.com/runsvc/runsvc/internal/cli"
	"github.com/runsvc/runsvc/internal/errdetails"
)

// printReasons is a Java program that prints the committed Reasons class
// as JSON: its version, its ALL list, the value of the constant named by
// each value in ALL (so a constant whose value is not its name shows), and
// how many reason constants it declares.
const printReasons = `package dev.runsvc.client;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

public class PrintReasons {
  public static void main(String[] args) throws Exception {
    List<String> named = new ArrayList<>();
    for (String r : Reasons.ALL) {
      try {
        named.add("\"" + Reasons.class.getField(r).get(null) + "\"");
      } catch (NoSuchFieldException e) {
        named.add("\"no constant " + r + "\"");
      }
    }
    int constants = 0;
    for (Field f : Reasons.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class
          && !f.getName().equals("CATALOGUE_VERSION") && !f.getName().equals("DEFAULT_DOMAIN")) {
        constants++;
      }
    }
    List<String> all = new ArrayList<>();
    for (String r : Reasons.ALL) {
      all.add("\"" + r + "\"");
    }
    System.out.println("{\"version\": \"" + Reasons.CATALOGUE_VERSION + "\", \"reasons\": " + all
        + ", \"named\": " + named + ", \"constants\": " + constants + "}");
  }
}
`

// TestJavaReasonsMatchTheCatalogue compiles the Java client's committed
// Reasons class with javac and fails when its reasons, their values, their
// count or its version differ from the catalogue's.
func TestJavaReasonsMatchTheCatalogue(t *testing.T) {
	if _, err := exec.LookPath("javac"); err != nil {
		if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
			t.Fatal("RUNSVC_REQUIRE_ALL=1 but javac is not installed (apt-get install default-jdk-headless)")
		}
		t.Skip("skipped: javac not installed")
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(repo, catalogue.JavaConstantsPath))
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string][]byte{"Reasons.java": src, "PrintReasons.java": []byte(printReasons)} {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "javac", "-d", dir, filepath.Join(dir, "Reasons.java"), filepath.Join(dir, "PrintReasons.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	out, err := exec.CommandContext(ctx, "java", "-cp", dir, "dev.runsvc.client.PrintReasons").Output()
	if err != nil {
		t.Fatalf("java: %v", err)
	}
	var got struct {
		clientConstants
		Constants int `json:"constants"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the Java program printed %q: %v", out, err)
	}
	doc := catalogueDocument(t)
	if n := len(errdetails.Reasons()); len(got.Reasons) != n || got.Constants != n+len(doc.CallerReasons) {
		t.Errorf("Reasons.java has %d reasons in ALL and %d reason constants; the catalogue has %d reasons and %d caller reasons: run `%s`",
			len(got.Reasons), got.Constants, n, len(doc.CallerReasons), catalogue.Regenerate)
	}
	checkClient(t, got.clientConstants, doc)
	t.Logf("Reasons.java: %d reasons, %d constants, version %s", len(got.Reasons), got.Constants, got.Version)
}

// catalogueDocument is what runsvc errors --json prints.
func catalogueDocument(t *testing.T) catalogue.Document {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := cli.Main(context.Background(), []string{"errors", "--json"}, nil, &out, &errOut); code != cli.ExitOK {
		t.Fatalf("runsvc errors --json exited %d: %s", code, errOut.String())
	}
	var doc catalogue.Document
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}
