package server_test

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"google.golang.org/protobuf/proto"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/proxytest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// rejectedRegistrations is a grpcio client that registers, count times,
// a worker naming no tools, each on a stream it half-closes after the
// register message, and prints the status codes it read, by name.
const rejectedRegistrations = `import base64, collections, json, sys
import grpc
addr, msg, count = sys.argv[1], base64.b64decode(sys.argv[2]), int(sys.argv[3])
with grpc.insecure_channel(addr) as ch:
    serve = ch.stream_stream("/runsvc.v1.ToolService/ServeTools", request_serializer=lambda b: b, response_deserializer=lambda b: b)
    codes = collections.Counter()
    for _ in range(count):
        try:
            for _ in serve(iter([msg]), timeout=20):
                pass
            codes["OK"] += 1
        except grpc.RpcError as e:
            codes[e.code().name] += 1
print(json.dumps(codes))
`

// TestRejectedRegistrationThroughHAProxy: a ServeTools stream whose
// registration is refused ends so that grpcio, through Debian's HAProxy,
// reads the refusal every time (INVALID_ARGUMENT), never CANCELLED: the
// server waits for the client's half-close before the status ends the
// stream, so no reset overtakes it.
func TestRejectedRegistrationThroughHAProxy(t *testing.T) {
	const python, calls = "/usr/bin/python3", 40
	if err := exec.Command(python, "-c", "import grpc").Run(); err != nil {
		if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
			t.Fatalf("RUNSVC_REQUIRE_ALL=1 but python3-grpcio is not installed: %v", err)
		}
		t.Skipf("python3-grpcio is not installed: %v", err)
	}
	srv := testserver.Start(t)
	proxy := proxytest.HAProxy(t, srv.Addr)
	msg, err := proto.Marshal(&runsvcv1.ServeToolsRequest{Message: &runsvcv1.ServeToolsRequest_Register_{Register: &runsvcv1.ServeToolsRequest_Register{WorkerName: "empty"}}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(testserver.Context(t), python, "-c", rejectedRegistrations, proxy, base64.StdEncoding.EncodeToString(msg), "40").Output()
	if err != nil {
		t.Fatalf("the grpcio client failed: %v", err)
	}
	var codes map[string]int
	if err := json.Unmarshal(out, &codes); err != nil {
		t.Fatalf("the grpcio client printed %q: %v", out, err)
	}
	if codes["INVALID_ARGUMENT"] != calls {
		t.Errorf("%d rejected registrations through HAProxy read %v, want INVALID_ARGUMENT every time (0 CANCELLED)", calls, codes)
	}
}
