package main

import (
	"context"
	"fmt"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// echoRuns is the floor: a bare grpc-go server, no interceptors, whose
// GetRun echoes the requested id back. It uses runsvc's generated code so
// that only the work behind GetRun differs.
type echoRuns struct {
	runsvcv1.UnimplementedRunServiceServer
}

// GetRun echoes the request's run id.
func (echoRuns) GetRun(_ context.Context, req *runsvcv1.GetRunRequest) (*runsvcv1.GetRunResponse, error) {
	return &runsvcv1.GetRunResponse{Run: &runsvcv1.Run{RunId: req.GetRunId()}}, nil
}

// floorResult is section 2 of the report.
type floorResult struct {
	// Echo and GetRun hold each side's stat per concurrency.
	Echo   map[int]stat `json:"echo"`
	GetRun map[int]stat `json:"getRun"`
	// Fraction is GetRun's throughput over the echo's, per concurrency.
	Fraction map[int]float64 `json:"fraction"`
	// GetRunResponseBytes is the size of the real GetRun response (a
	// settled Run of the Runs phase's Spec); the echo's is EchoBytes.
	GetRunResponseBytes int `json:"getRunResponseBytes"`
	EchoBytes           int `json:"echoResponseBytes"`
}

func runFloor(ctx context.Context, cfg config) (*floorResult, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	echo := grpc.NewServer()
	runsvcv1.RegisterRunServiceServer(echo, echoRuns{})
	go func() { _ = echo.Serve(lis) }()
	defer echo.Stop()
	echoConn, err := dial(lis.Addr().String())
	if err != nil {
		return nil, err
	}
	defer echoConn.Close()
	echoClient := runsvcv1.NewRunServiceClient(echoConn)

	rs, err := startToolsInproc(ctx, "")
	if err != nil {
		return nil, err
	}
	defer rs.stop()
	run, err := startAndSettle(ctx, rs.runs, "bench-tools")
	if err != nil {
		return nil, err
	}
	id := run.GetRunId()
	got, err := rs.runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: id})
	if err != nil {
		return nil, err
	}
	res := &floorResult{Echo: map[int]stat{}, GetRun: map[int]stat{}, Fraction: map[int]float64{},
		GetRunResponseBytes: proto.Size(got),
		EchoBytes:           proto.Size(&runsvcv1.GetRunResponse{Run: &runsvcv1.Run{RunId: id}})}

	req := &runsvcv1.GetRunRequest{RunId: id}
	vs := []variant{
		{name: "echo", do: func(ctx context.Context) error {
			resp, err := echoClient.GetRun(ctx, req)
			if err == nil && resp.GetRun().GetRunId() != id {
				err = fmt.Errorf("echo answered %q", resp.GetRun().GetRunId())
			}
			return err
		}},
		{name: "getrun", do: func(ctx context.Context) error {
			resp, err := rs.runs.GetRun(ctx, req)
			if err == nil && resp.GetRun().GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
				err = fmt.Errorf("GetRun answered %v", resp.GetRun().GetState())
			}
			return err
		}},
	}
	for _, conc := range cfg.concurrencies {
		progress("floor: concurrency %d", conc)
		stats := interleaved(ctx, vs, conc, cfg.measure, cfg.warm, cfg.rounds)
		res.Echo[conc], res.GetRun[conc] = stats["echo"], stats["getrun"]
		res.Fraction[conc] = ratio(stats["getrun"].PerSec, stats["echo"].PerSec)
	}
	return res, nil
}
