package scenario_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/scenario"
	"github.com/runsvc/runsvc/internal/testing/scenario/servers"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

func repoFile(t *testing.T, rel string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestScenarios runs every scenario against a real server through grpc-go
// (the default server, or the one its server setting names), and every
// scenario that ends in an RPC error again through grpcurl.
func TestScenarios(t *testing.T) {
	f, err := scenario.Load(repoFile(t, "testdata/scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Built first: on a loaded machine the build can take longer than
	// the scenarios' context lasts.
	grpcurl := buildGrpcurl(t)
	srv := testserver.Start(t, func(c *server.Config) { c.PolicyFile = repoFile(t, "testdata/policy.json") })
	started := servers.Start(t, f)
	started[""] = &servers.Started{Addr: srv.Addr, Conn: srv.Conn}
	ctx := testserver.Context(t)
	if err := (&scenario.Runner{Conn: srv.Conn, Suite: "go"}).Setup(ctx, f); err != nil {
		t.Fatal(err)
	}
	for _, s := range f.Scenarios {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			on, ok := started[s.Server]
			if !ok {
				t.Fatalf("server setting %q is not in the file's servers", s.Server)
			}
			// Streams a step holds stay open until the grpcurl call is done.
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			r := &scenario.Runner{Conn: on.Conn, Suite: "go", Vars: on.Vars}
			o, err := r.Run(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			problems := s.Problems(o)
			for _, p := range problems {
				t.Errorf("%s: %s", s.Reason, p)
			}
			if len(problems) > 0 {
				t.Logf("the status: %v", o.Status)
			}
			// grpcurl cannot call a method reflection does not list, nor
			// reach reflection past a held stream that fills admission.
			if !o.RPC || !scenario.Declared(o.Method) || holds(s) {
				return
			}
			t.Run("grpcurl", func(t *testing.T) {
				st := viaGrpcurl(t, grpcurl, on.Addr, s.APIKey, o.Method, o.Request)
				c := errdetails.ClassifyStatus(st)
				if c.Reason != s.Reason || scenario.CodeName(c.Code) != s.Code || c.Retryable != s.Retryable {
					t.Errorf("grpcurl saw %s %s retryable=%v, want %s %s retryable=%v", scenario.CodeName(c.Code), c.Reason, c.Retryable, s.Code, s.Reason, s.Retryable)
				}
			})
		})
	}
	t.Run("every reason is covered", func(t *testing.T) {
		for _, p := range scenario.Coverage(f, errdetails.Reasons(), repoFile(t, "")) {
			t.Error(p)
		}
	})
}

// holds reports whether a scenario holds a stream open.
func holds(s scenario.Scenario) bool {
	for _, step := range s.Steps {
		if step.Hold {
			return true
		}
	}
	return false
}

func buildGrpcurl(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "grpcurl")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/fullstorydev/grpcurl/cmd/grpcurl")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building grpcurl: %v\n%s", err, out)
	}
	return bin
}

// viaGrpcurl makes a call with grpcurl and reads the status it prints.
func viaGrpcurl(t *testing.T, grpcurl, addr, apiKey, method, request string) *spb.Status {
	t.Helper()
	args := []string{"-plaintext", "-format-error", "-d", "@"}
	if apiKey != "" {
		// Reflection is authenticated too: the key goes on both.
		args = append(args, "-H", "authorization: Bearer "+apiKey)
	}
	cmd := exec.Command(grpcurl, append(args, addr, "runsvc.v1."+method)...)
	cmd.Stdin = strings.NewReader(request)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("grpcurl: %v (want it to exit non-zero with a status); output: %s %s", err, stdout.String(), stderr.String())
	}
	// A stream prints its messages first: the status is the last object.
	var last json.RawMessage
	dec := json.NewDecoder(io.MultiReader(&stdout, &stderr))
	for {
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break
		}
		last = v
	}
	st := &spb.Status{}
	if err := protojson.Unmarshal(last, st); err != nil {
		t.Fatalf("grpcurl's status %q: %v", last, err)
	}
	return st
}

func TestMain(m *testing.M) {
	os.Exit(m.Run())
}
