package client_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// outsideExample is an outside module's use of the package: an Example
// whose output `go test` checks in that module.
const outsideExample = `package outside

import (
	"context"
	"fmt"
	"time"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/runsvc/runsvc/client"
)

func Example() {
	st, _ := status.New(codes.Unavailable, "server overloaded: run admission").WithDetails(
		&edpb.ErrorInfo{Reason: client.ReasonOverloaded, Domain: client.DefaultDomain},
		&edpb.RetryInfo{RetryDelay: durationpb.New(time.Millisecond)},
	)
	calls := 0
	err := client.Retry(context.Background(), client.RetryOptions{}, func(context.Context) error {
		calls++
		if calls == 1 {
			return st.Err()
		}
		return nil
	})
	c := client.Classify(st.Err())
	fmt.Println(c.Reason, c.Retryable, calls, err, len(client.Reasons) > 0)
	// Output: OVERLOADED true 2 <nil> true
}
`

// TestOutsideModule builds a module of its own in a temporary directory,
// with a replace directive to this repository, that imports the package;
// its Example must pass there. It runs offline: GOPROXY=off, and the
// dependencies come from the module cache this repository's build filled.
func TestOutsideModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a second module")
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := "module example.com/outside\n\ngo 1.24\n\nrequire github.com/runsvc/runsvc v0.0.0\n\nreplace github.com/runsvc/runsvc => " + repo + "\n"
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string][]byte{"go.mod": []byte(gomod), "go.sum": sum, "outside_test.go": []byte(outsideExample)} {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-count=1", "-v", "-run", "Example", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOSUMDB=off", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test in the outside module: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: Example") {
		t.Fatalf("the outside module's Example did not pass:\n%s", out)
	}
	t.Logf("outside module:\n%s", out)
}
