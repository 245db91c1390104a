package service

import (
	"context"
	"errors"
	"io"

	"google.golang.org/grpc"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
)

func (s runServer) DeleteRun(ctx context.Context, req *runsvcv1.DeleteRunRequest) (*runsvcv1.DeleteRunResponse, error) {
	tenant := tenantOf(ctx)
	switch {
	case req.GetRunId() != "" && req.GetSpec() != "":
		return nil, errs.BadField("spec", "set run_id or spec, not both")
	case req.GetThreadId() != "" && (req.GetRunId() != "" || req.GetSpec() != ""):
		return nil, errs.BadField("thread_id", "set only one of run_id, spec and thread_id")
	case req.GetThreadId() != "":
		n, err := s.runs.DeleteThread(ctx, tenant, req.GetThreadId(), req.GetInterrupt())
		if err != nil {
			return nil, err
		}
		return &runsvcv1.DeleteRunResponse{DeletedCount: n}, nil
	case req.GetSpec() != "":
		n, err := s.runs.DeleteSpecRuns(ctx, tenant, req.GetSpec(), req.GetInterrupt())
		if err != nil {
			return nil, err
		}
		return &runsvcv1.DeleteRunResponse{DeletedCount: n}, nil
	case req.GetRunId() == "":
		return nil, errs.BadField("run_id", "is required: the Run to delete (or set spec or thread_id to delete every Run of a Spec or thread)")
	}
	if err := s.runs.Delete(ctx, tenant, req.GetRunId(), req.GetInterrupt()); err != nil {
		return nil, err
	}
	return &runsvcv1.DeleteRunResponse{DeletedCount: 1}, nil
}

func (s runServer) ExportRun(req *runsvcv1.ExportRunRequest, stream grpc.ServerStreamingServer[runsvcv1.ExportRunResponse]) error {
	ctx := stream.Context()
	return s.runs.Export(ctx, tenantOf(ctx), req.GetRunId(), func(line []byte) error {
		return stream.Send(&runsvcv1.ExportRunResponse{Line: string(line)})
	})
}

func (s runServer) ImportRun(stream grpc.ClientStreamingServer[runsvcv1.ImportRunRequest, runsvcv1.ImportRunResponse]) error {
	ctx := stream.Context()
	run, created, err := s.runs.Import(ctx, tenantOf(ctx), func() ([]byte, error) {
		req, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		if err != nil {
			return nil, err
		}
		return []byte(req.GetLine()), nil
	})
	if err != nil {
		return err
	}
	return stream.SendAndClose(&runsvcv1.ImportRunResponse{Run: s.runToProto(run), Created: created})
}
