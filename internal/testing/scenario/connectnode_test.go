package scenario_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/runsvc/runsvc/internal/testing/scenario"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestScenariosOverConnectNode runs the scenarios file over the Connect
// protocol from npm's @connectrpc/connect-node (internal/testing/connectjs/
// scenarios.mjs), JSON and binary, on descriptors this test writes: every
// scenario must end in the status it does over gRPC, and the details
// @bufbuild/protobuf decodes must be the ones Go decodes from the same
// bytes.
func TestScenariosOverConnectNode(t *testing.T) {
	node := requireConnectJS(t)
	f, err := scenario.Load(repoFile(t, "testdata/scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	descriptors := writeDescriptors(t)
	for _, codec := range []string{"json", "binary"} {
		t.Run(codec, func(t *testing.T) {
			on := startHTTP(t, f)
			if err := (&scenario.Runner{Conn: on[""].Conn, Suite: "connect-" + codec}).Setup(testserver.Context(t), f); err != nil {
				t.Fatal(err)
			}
			results := runNode(t, node, "RUNSVC_DESCRIPTORS="+descriptors, "RUNSVC_SCENARIOS="+repoFile(t, "testdata/scenarios.json"),
				on.Env(), "RUNSVC_SUITE=connect-"+codec, "RUNSVC_CONNECT_CODEC="+codec)
			for _, s := range f.Scenarios {
				t.Run(s.Name, func(t *testing.T) {
					t.Parallel()
					res, ok := results[s.Name]
					if !ok {
						t.Fatal("the Node driver gave no result")
					}
					o := res.outcome(t)
					for _, problem := range s.Problems(o) {
						t.Errorf("over Connect (%s) from Node, %s: %s", codec, s.Reason, problem)
					}
				})
			}
		})
	}
}

// requireConnectJS is node, when it and connectjs's packages are there;
// else the test skips (fails with RUNSVC_REQUIRE_ALL=1).
func requireConnectJS(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(repoFile(t, "internal/testing/connectjs/node_modules/@connectrpc/connect-node"))
	}
	if err != nil {
		if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
			t.Fatalf("RUNSVC_REQUIRE_ALL=1 requires node and internal/testing/connectjs's packages (npm ci there): %v", err)
		}
		t.Skip("skipped: node or internal/testing/connectjs's packages not installed (npm ci in internal/testing/connectjs)")
	}
	return node
}

// writeDescriptors writes runsvc.v1's files and everything they import,
// with google.rpc's details and google.protobuf.Empty, as a
// FileDescriptorSet, dependencies first.
func writeDescriptors(t *testing.T) string {
	t.Helper()
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		for i := 0; i < fd.Imports().Len(); i++ {
			add(fd.Imports().Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
	}
	protoregistry.GlobalFiles.RangeFilesByPackage("runsvc.v1", func(fd protoreflect.FileDescriptor) bool { add(fd); return true })
	for _, name := range []string{"google/rpc/error_details.proto", "google/rpc/status.proto"} {
		fd, err := protoregistry.GlobalFiles.FindFileByPath(name)
		if err != nil {
			t.Fatal(err)
		}
		add(fd)
	}
	add(emptypb.File_google_protobuf_empty_proto)
	b, err := proto.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "runsvc.binpb")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// nodeResult is one line of the Node driver's output.
type nodeResult struct {
	Name     string          `json:"name"`
	Failure  string          `json:"failure"`
	RPC      bool            `json:"rpc"`
	Code     int32           `json:"code"`
	Message  string          `json:"message"`
	Details  []nodeDetail    `json:"details"`
	Pushback *string         `json:"pushback"`
	Status   json.RawMessage `json:"status"`
}

type nodeDetail struct {
	Type  string          `json:"type"`
	Value string          `json:"value"`
	JSON  json.RawMessage `json:"json"`
}

// runNode runs the driver and reads its results by scenario name.
func runNode(t *testing.T, node string, env ...string) map[string]nodeResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, repoFile(t, "internal/testing/connectjs/scenarios.mjs"))
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 10 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node scenarios.mjs: %v\n%s", err, stderr.String())
	}
	results := map[string]nodeResult{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var r nodeResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("the driver's line %q: %v", sc.Text(), err)
		}
		results[r.Name] = r
	}
	return results
}

// outcome is the Node driver's result as the Go runner's Outcome, after
// checking that each detail's JSON from @bufbuild/protobuf is what Go
// decodes from its bytes.
func (r nodeResult) outcome(t *testing.T) scenario.Outcome {
	t.Helper()
	if r.Failure != "" {
		t.Fatalf("the Node driver failed: %s", r.Failure)
	}
	if !r.RPC {
		st := &spb.Status{}
		if err := protojson.Unmarshal(r.Status, st); err != nil {
			t.Fatalf("the status %s: %v", r.Status, err)
		}
		return scenario.Outcome{Status: st}
	}
	st := &spb.Status{Code: r.Code, Message: r.Message}
	for _, d := range r.Details {
		b, err := base64.StdEncoding.DecodeString(d.Value)
		if err != nil {
			t.Fatal(err)
		}
		a := &anypb.Any{TypeUrl: "type.googleapis.com/" + d.Type, Value: b}
		sameDecoding(t, a, d.JSON)
		st.Details = append(st.Details, a)
	}
	o := scenario.Outcome{Status: st, RPC: true}
	if r.Pushback != nil {
		o.Pushback = *r.Pushback
	}
	return o
}

// sameDecoding fails unless the JSON Node decoded a detail to is the
// message Go decodes from its bytes.
func sameDecoding(t *testing.T, a *anypb.Any, fromNode json.RawMessage) {
	t.Helper()
	want, err := a.UnmarshalNew()
	if err != nil {
		t.Fatalf("detail %s: %v", a.TypeUrl, err)
	}
	got := want.ProtoReflect().New().Interface()
	if err := protojson.Unmarshal(fromNode, got); err != nil {
		t.Fatalf("detail %s as Node decoded it, %s: %v", a.TypeUrl, fromNode, err)
	}
	if !proto.Equal(got, want) {
		t.Errorf("detail %s: Node decoded %v, Go %v", a.TypeUrl, got, want)
	}
}
