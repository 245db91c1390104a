package server_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestHeartbeatsOnIdleStreams: on a suspended Run's WatchRun and
// StreamText, a request's heartbeat_interval, or else the server's
// --heartbeat-interval, brings heartbeat messages while nothing else
// flows; with neither, none comes.
func TestHeartbeatsOnIdleStreams(t *testing.T) {
	const beat = 150 * time.Millisecond
	cases := []struct {
		name      string
		serverDef time.Duration
		asked     *durationpb.Duration
		want      bool
	}{
		{"asked for", 0, durationpb.New(beat), true},
		{"server default", beat, nil, true},
		{"the request's wins over the server's", time.Hour, durationpb.New(beat), true},
		{"neither", 0, nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := testserver.Start(t, func(c *server.Config) { c.Ops.HeartbeatInterval = tc.serverDef })
			run := srv.Wait(t, srv.Start(t, publishIdle(t, srv), "go").GetRunId())
			if run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED {
				t.Fatalf("run %v, want suspended", run.GetState())
			}
			streams := map[string]func(ctx context.Context) (*timestamppb.Timestamp, error){
				"WatchRun": func(ctx context.Context) (*timestamppb.Timestamp, error) {
					stream, err := srv.Runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: run.GetRunId(), FromSeq: run.GetLastSeq() + 1, HeartbeatInterval: tc.asked})
					if err != nil {
						return nil, err
					}
					m, err := stream.Recv()
					return m.GetHeartbeatTime(), err
				},
				"StreamText": func(ctx context.Context) (*timestamppb.Timestamp, error) {
					stream, err := srv.Runs.StreamText(ctx, &runsvcv1.StreamTextRequest{RunId: run.GetRunId(), HeartbeatInterval: tc.asked})
					if err != nil {
						return nil, err
					}
					for {
						m, err := stream.Recv()
						if err != nil || m.GetHeartbeatTime() != nil {
							return m.GetHeartbeatTime(), err
						}
					}
				},
			}
			for name, first := range streams {
				t.Run(name, func(t *testing.T) {
					ctx, cancel := context.WithTimeout(testserver.Context(t), 20*beat)
					defer cancel()
					hb, err := first(ctx)
					switch {
					case tc.want && (err != nil || hb == nil):
						t.Errorf("no heartbeat within %v: %v", 20*beat, err)
					case !tc.want && hb != nil:
						t.Errorf("a heartbeat came unasked at %v", hb.AsTime())
					case !tc.want && status.Code(err) != codes.DeadlineExceeded:
						// It stays open until the caller's deadline (which
						// runsvc answers just before it passes).
						t.Errorf("the idle stream ended before the caller's deadline: %v", err)
					}
				})
			}
		})
	}
}
