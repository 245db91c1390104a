package httpapi_test

import (
	"io"
	"net/http"
	"testing"

	"connectrpc.com/connect"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// BenchmarkGetRun is a unary GetRun of an existing Run over gRPC
// (--listen), Connect (binary and JSON) and REST on the HTTP port: the
// cost of the HTTP surface as a ratio of gRPC.
func BenchmarkGetRun(b *testing.B) {
	s := testserver.Start(b, testserver.WithHTTP())
	s.Publish(b, answerSpec)
	run := s.Start(b, "answer", "hi")
	req := &runsvcv1.GetRunRequest{RunId: run.GetRunId()}
	b.Run("grpc", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Runs.GetRun(b.Context(), req); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, p := range []struct {
		name string
		opts []connect.ClientOption
	}{{"connect+proto", nil}, {"connect+json", []connect.ClientOption{connect.WithProtoJSON()}}} {
		c := connect.NewClient[runsvcv1.GetRunRequest, runsvcv1.GetRunResponse](http.DefaultClient, s.HTTPURL+"/runsvc.v1.RunService/GetRun", p.opts...)
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.CallUnary(b.Context(), connect.NewRequest(req)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("rest", func(b *testing.B) {
		for b.Loop() {
			resp, err := http.Get(s.HTTPURL + "/v1/runs/" + run.GetRunId())
			if err != nil || resp.StatusCode != http.StatusOK {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}
	})
}
