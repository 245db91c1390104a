package service

import (
	"context"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/store"
)

// strategyFromProto maps the wire's thread strategies to the Run
// manager's; unspecified is the Spec's default ("").
var strategyFromProto = map[runsvcv1.ThreadStrategy]string{
	runsvcv1.ThreadStrategy_THREAD_STRATEGY_UNSPECIFIED: "",
	runsvcv1.ThreadStrategy_THREAD_STRATEGY_REJECT:      runs.StrategyReject,
	runsvcv1.ThreadStrategy_THREAD_STRATEGY_ENQUEUE:     runs.StrategyEnqueue,
	runsvcv1.ThreadStrategy_THREAD_STRATEGY_INTERRUPT:   runs.StrategyInterrupt,
	runsvcv1.ThreadStrategy_THREAD_STRATEGY_STEER:       runs.StrategySteer,
}

// strategyToProto is strategyFromProto reversed.
func strategyToProto(s string) runsvcv1.ThreadStrategy {
	for p, name := range strategyFromProto {
		if name == s {
			return p
		}
	}
	return runsvcv1.ThreadStrategy_THREAD_STRATEGY_UNSPECIFIED
}

func threadToProto(t runs.Thread) *runsvcv1.Thread {
	return &runsvcv1.Thread{
		ThreadId: t.ThreadID, ActiveRunId: t.ActiveRunID, LastRunId: t.LastRunID, RunCount: int32(t.Runs),
		CreateTime: ts(t.CreateTime), UpdateTime: ts(t.UpdateTime),
	}
}

func (s runServer) GetThread(ctx context.Context, req *runsvcv1.GetThreadRequest) (*runsvcv1.GetThreadResponse, error) {
	t, err := s.runs.GetThread(ctx, tenantOf(ctx), req.GetThreadId())
	if err != nil {
		return nil, err
	}
	return &runsvcv1.GetThreadResponse{Thread: threadToProto(t)}, nil
}

func (s runServer) ListThreads(ctx context.Context, req *runsvcv1.ListThreadsRequest) (*runsvcv1.ListThreadsResponse, error) {
	if req.GetPageSize() < 0 {
		return nil, errs.BadField("page_size", "must not be negative")
	}
	list, next, err := s.runs.ListThreads(ctx, tenantOf(ctx), store.ThreadQuery{PageSize: int(req.GetPageSize()), PageToken: req.GetPageToken()})
	if err != nil {
		return nil, err
	}
	out := &runsvcv1.ListThreadsResponse{NextPageToken: next}
	for _, t := range list {
		out.Threads = append(out.Threads, threadToProto(t))
	}
	return out, nil
}
