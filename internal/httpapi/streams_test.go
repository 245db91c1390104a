package httpapi_test

import (
	"errors"
	"io"
	"net/http"
	"testing"

	"connectrpc.com/connect"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

const answerSpec = `{"name": "answer", "model": {"provider": "scripted", "script": {"turns": [{"text": "Hello there."}]}}}`

// streamProtocols are the ways to read a server stream over the HTTP port.
var streamProtocols = []struct {
	name string
	opts []connect.ClientOption
}{
	{"connect+json", []connect.ClientOption{connect.WithProtoJSON()}},
	{"connect+proto", nil},
	{"grpc-web", []connect.ClientOption{connect.WithGRPCWeb()}},
}

// TestStreamsOnEveryProtocol: WatchRun of a settled Run gives, over
// Connect server streaming and gRPC-Web, the Records gRPC gives and ends
// OK; a stream that fails ends with the status gRPC's ends with, details
// and all.
func TestStreamsOnEveryProtocol(t *testing.T) {
	s := testserver.Start(t, testserver.WithHTTP())
	s.Publish(t, answerSpec)
	run := s.Start(t, "answer", "hi")
	s.Settled(t, run.GetRunId())
	want := grpcWatch(t, s, run.GetRunId())
	if want.err != nil || want.records == 0 {
		t.Fatalf("over gRPC: %d Records, %v", want.records, want.err)
	}
	missing := grpcWatch(t, s, "run_does_not_exist")
	for _, p := range streamProtocols {
		got := connectWatch(t, s, run.GetRunId(), p.opts)
		if got.err != nil || got.records != want.records {
			t.Errorf("%s: %d Records (%v), want %d and OK", p.name, got.records, got.err, want.records)
		}
		gone := connectWatch(t, s, "run_does_not_exist", p.opts)
		if gone.err == nil {
			t.Fatalf("%s: a missing Run's stream ended OK", p.name)
		}
		same(t, p.name, gone.err, missing.err)
	}
}

// watched is how a WatchRun stream went: the Records it gave and the
// status it ended with (nil when OK).
type watched struct {
	records int
	err     *spb.Status
}

func grpcWatch(t *testing.T, s *testserver.Server, runID string) watched {
	stream, err := s.Runs.WatchRun(ctxT(t), &runsvcv1.WatchRunRequest{RunId: runID})
	if err != nil {
		t.Fatal(err)
	}
	var w watched
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return w
		}
		if err != nil {
			w.err = status.Convert(err).Proto()
			return w
		}
		if resp.GetRecord() != nil {
			w.records++
		}
	}
}

func connectWatch(t *testing.T, s *testserver.Server, runID string, opts []connect.ClientOption) watched {
	md := methodDesc(t, "RunService/WatchRun")
	c := connect.NewClient[dynamicpb.Message, dynamicpb.Message](http.DefaultClient, s.HTTPURL+"/runsvc.v1.RunService/WatchRun",
		append([]connect.ClientOption{connect.WithSchema(md), connect.WithResponseInitializer(dynamicOutput)}, opts...)...)
	in := dynamicpb.NewMessage(md.Input())
	b, _ := proto.Marshal(&runsvcv1.WatchRunRequest{RunId: runID})
	if err := proto.Unmarshal(b, in); err != nil {
		t.Fatal(err)
	}
	stream, err := c.CallServerStream(ctxT(t), connect.NewRequest(in))
	if err != nil {
		return watched{err: connectStatus(t, err)}
	}
	defer func() { _ = stream.Close() }()
	var w watched
	for stream.Receive() {
		var resp runsvcv1.WatchRunResponse
		b, _ := proto.Marshal(stream.Msg())
		if err := proto.Unmarshal(b, &resp); err != nil {
			t.Fatal(err)
		}
		if resp.GetRecord() != nil {
			w.records++
		}
	}
	if err := stream.Err(); err != nil {
		w.err = connectStatus(t, err)
	}
	return w
}

// TestStreamFailsAfterMessages: StreamText of an interrupted Run sends its
// text and then ends RUN_ABORTED; over Connect and gRPC-Web the same
// messages come and the end carries the same status, details and all (the
// trailers grpc-go sets after a body, which vanguard must find).
func TestStreamFailsAfterMessages(t *testing.T) {
	s := testserver.Start(t, testserver.WithHTTP())
	s.Publish(t, helloSpec)
	run := s.Start(t, "hello", "hi")
	s.Wait(t, run.GetRunId())
	if _, err := s.Runs.InterruptRun(ctxT(t), &runsvcv1.InterruptRunRequest{RunId: run.GetRunId(), Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	s.Settled(t, run.GetRunId())
	want := readStream(t, s, "RunService/StreamText", &runsvcv1.StreamTextRequest{RunId: run.GetRunId()}, nil)
	if want.err == nil || want.records == 0 {
		t.Fatalf("over gRPC: %d messages, %v; want some, then an error", want.records, want.err)
	}
	for _, p := range streamProtocols {
		got := readStream(t, s, "RunService/StreamText", &runsvcv1.StreamTextRequest{RunId: run.GetRunId()}, p.opts)
		if got.records != want.records || got.err == nil {
			t.Fatalf("%s: %d messages (%v), want %d and an error", p.name, got.records, got.err, want.records)
		}
		same(t, p.name, got.err, want.err)
	}
}

// readStream reads a server stream to its end over gRPC (opts nil) or
// connect-go with opts, counting its messages.
func readStream(t *testing.T, s *testserver.Server, method string, req proto.Message, opts []connect.ClientOption) watched {
	md := methodDesc(t, method)
	if opts == nil {
		stream, err := s.Conn.NewStream(ctxT(t), &grpc.StreamDesc{ServerStreams: true}, "/runsvc.v1."+method)
		if err != nil {
			t.Fatal(err)
		}
		if err := stream.SendMsg(req); err != nil {
			t.Fatal(err)
		}
		_ = stream.CloseSend()
		var w watched
		for {
			if err := stream.RecvMsg(dynamicpb.NewMessage(md.Output())); err != nil {
				if !errors.Is(err, io.EOF) {
					w.err = status.Convert(err).Proto()
				}
				return w
			}
			w.records++
		}
	}
	c := connect.NewClient[dynamicpb.Message, dynamicpb.Message](http.DefaultClient, s.HTTPURL+"/runsvc.v1."+method,
		append([]connect.ClientOption{connect.WithSchema(md), connect.WithResponseInitializer(dynamicOutput)}, opts...)...)
	in := dynamicpb.NewMessage(md.Input())
	b, _ := proto.Marshal(req)
	if err := proto.Unmarshal(b, in); err != nil {
		t.Fatal(err)
	}
	stream, err := c.CallServerStream(ctxT(t), connect.NewRequest(in))
	if err != nil {
		return watched{err: connectStatus(t, err)}
	}
	defer func() { _ = stream.Close() }()
	var w watched
	for stream.Receive() {
		w.records++
	}
	if err := stream.Err(); err != nil {
		w.err = connectStatus(t, err)
	}
	return w
}
