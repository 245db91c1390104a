package service

import (
	"context"
	"slices"
	"time"

	"google.golang.org/grpc"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/store"
)

// Waits a caller may ask for.
const (
	defaultWait = 30 * time.Second
	maxWait     = 10 * time.Minute
)

type runServer struct {
	runsvcv1.UnimplementedRunServiceServer
	*Service
}

func (s runServer) StartRun(ctx context.Context, req *runsvcv1.StartRunRequest) (*runsvcv1.StartRunResponse, error) {
	deadline, err := durationArg("deadline", req.GetDeadline())
	if err != nil {
		return nil, err
	}
	strategy, ok := strategyFromProto[req.GetThreadStrategy()]
	if !ok {
		return nil, errs.BadField("thread_strategy", "%v is not a thread strategy", req.GetThreadStrategy())
	}
	var startAt time.Time
	if at := req.GetStartAt(); at != nil {
		if at.CheckValid() != nil {
			return nil, errs.BadField("start_at", "is not a valid timestamp")
		}
		startAt = at.AsTime()
	}
	run, created, err := s.runs.Start(ctx, runs.StartRequest{
		Tenant: tenantOf(ctx), Spec: req.GetSpec(), Version: req.GetVersion(), Input: req.GetInput(),
		RequestID: req.GetRequestId(), Deadline: deadline, TraceParent: traceParentOf(ctx),
		ThreadID: req.GetThreadId(), Strategy: strategy, StartAt: startAt,
		Priority: int(req.GetPriority()), FairnessKey: req.GetFairnessKey(),
		ConcurrencyKey: req.GetConcurrencyKey(), ConcurrencyLimit: int(req.GetConcurrencyLimit()),
		FollowAlias: req.GetFollowAlias(), StickyKey: req.GetStickyKey(),
	})
	if err != nil {
		return nil, err
	}
	return &runsvcv1.StartRunResponse{Run: s.runToProto(run), Created: created, Steered: run.Steered}, nil
}

func (s runServer) GetRun(ctx context.Context, req *runsvcv1.GetRunRequest) (*runsvcv1.GetRunResponse, error) {
	run, err := s.runs.Get(ctx, tenantOf(ctx), req.GetRunId())
	if err != nil {
		return nil, err
	}
	return &runsvcv1.GetRunResponse{Run: s.runToProto(run)}, nil
}

func (s runServer) ListRuns(ctx context.Context, req *runsvcv1.ListRunsRequest) (*runsvcv1.ListRunsResponse, error) {
	q := store.RunQuery{Spec: req.GetSpec(), ParentRunID: req.GetParentRunId(), PageSize: int(req.GetPageSize()), PageToken: req.GetPageToken(), ThreadID: req.GetThreadId(),
		ScheduleID: req.GetScheduleId()}
	if req.GetPageSize() < 0 {
		return nil, errs.BadField("page_size", "must not be negative")
	}
	for i, st := range req.GetStates() {
		status, ok := statusFromProto[st]
		if !ok {
			return nil, errs.BadField("states", "states[%d] = %v is not a run state", i, st)
		}
		// Each state once: the stores read one index range per state.
		if !slices.Contains(q.States, string(status)) {
			q.States = append(q.States, string(status))
		}
	}
	list, next, err := s.runs.List(ctx, tenantOf(ctx), q)
	if err != nil {
		return nil, err
	}
	out := &runsvcv1.ListRunsResponse{NextPageToken: next}
	for _, r := range list {
		out.Runs = append(out.Runs, s.runToProto(r))
	}
	return out, nil
}

func (s runServer) WatchRun(req *runsvcv1.WatchRunRequest, stream grpc.ServerStreamingServer[runsvcv1.WatchRunResponse]) error {
	if req.GetFromSeq() < 0 || req.GetFromOffset() < 0 {
		return errs.BadField("from_seq", "and from_offset must not be negative")
	}
	ctx := stream.Context()
	tenant, runID := tenantOf(ctx), req.GetRunId()
	at := runs.LiveFrom{Offset: req.GetFromOffset()}
	if !req.GetIncludeDeltas() {
		return s.runs.Watch(ctx, tenant, runID, req.GetFromSeq(), func(r runlog.Record) error {
			return s.sendMsg(stream, s.watchedRecord(tenant, runID, r), newWatchRunResponse)
		})
	}
	return s.runs.WatchLive(ctx, tenant, runID, req.GetFromSeq(), at, func(ev runs.Event) error {
		if ev.Delta != nil {
			if ev.Delta.Discarded || ev.Delta.Offset < req.GetFromOffset() {
				return stream.Send(&runsvcv1.WatchRunResponse{Delta: s.deltaToProto(ev.Delta)})
			}
			return s.sendMsg(stream, s.watchDelta(ev.Delta), newWatchRunResponse)
		}
		return s.sendMsg(stream, s.watchedRecord(tenant, runID, *ev.Record), newWatchRunResponse)
	})
}

func (s runServer) StreamText(req *runsvcv1.StreamTextRequest, stream grpc.ServerStreamingServer[runsvcv1.StreamTextResponse]) error {
	return s.streamText(req, stream)
}

// textEnding is how a text stream ends: nothing for an answer, the typed
// error naming the ending otherwise.
func (s runServer) textEnding(runID string, op *runlog.Settled) error {
	reason, message := s.failureReason(op.Failure)
	switch op.State {
	case runlog.StatusCompleted:
		return nil
	case runlog.StatusFailed:
		return &errs.RunFailed{RunID: runID, State: string(op.State), FailureReason: reason, FailureMessage: message}
	case runlog.StatusAborted:
		return &errs.RunAborted{RunID: runID, State: string(op.State), Cause: string(op.AbortCause), FailureReason: reason}
	default:
		return &errs.RunEndedWithoutAnswer{RunID: runID, State: string(op.State), FailureReason: reason}
	}
}

func (s runServer) WaitRun(ctx context.Context, req *runsvcv1.WaitRunRequest) (*runsvcv1.WaitRunResponse, error) {
	var bad []errs.FieldViolation
	wait := durationField("wait", req.GetWait(), &bad)
	if wait > maxWait {
		bad = append(bad, errs.FieldViolation{Field: "wait", Description: "must be at most " + maxWait.String()})
	}
	if len(bad) > 0 {
		return nil, &errs.InvalidRequest{Violations: bad}
	}
	if wait == 0 {
		wait = defaultWait
	}
	run, err := s.runs.Wait(ctx, tenantOf(ctx), req.GetRunId(), waitLeft(ctx, wait))
	if err != nil {
		return nil, err
	}
	return &runsvcv1.WaitRunResponse{Run: s.runToProto(run)}, nil
}

func (s runServer) SendMessage(ctx context.Context, req *runsvcv1.SendMessageRequest) (*runsvcv1.SendMessageResponse, error) {
	if req.GetRunId() == "" {
		return nil, errs.BadField("run_id", "is required")
	}
	mode := runlog.ModeSteer
	switch req.GetMode() {
	case runsvcv1.MessageMode_MESSAGE_MODE_UNSPECIFIED, runsvcv1.MessageMode_MESSAGE_MODE_STEER:
	case runsvcv1.MessageMode_MESSAGE_MODE_FOLLOW_UP:
		mode = runlog.ModeFollowUp
	default:
		return nil, errs.BadField("mode", "%v is not a message mode", req.GetMode())
	}
	seq, err := s.runs.SendMessage(ctx, tenantOf(ctx), req.GetRunId(), req.GetText(), mode)
	if err != nil {
		return nil, err
	}
	return &runsvcv1.SendMessageResponse{Seq: seq}, nil
}

func (s runServer) ResumeRun(ctx context.Context, req *runsvcv1.ResumeRunRequest) (*runsvcv1.ResumeRunResponse, error) {
	if req.GetRunId() == "" {
		return nil, errs.BadField("run_id", "is required")
	}
	r := runs.Resume{Note: req.GetNote()}
	if req.BudgetLimit != nil {
		limit := req.GetBudgetLimit()
		r.BudgetLimit = &limit
	}
	if req.Approved != nil {
		approved := req.GetApproved()
		r.Approved = &approved
	}
	if req.GetAnswer() != "" {
		answer := req.GetAnswer()
		r.Answer = &answer
	}
	for _, tr := range req.GetToolResults() {
		res := runlog.ToolResult{CallID: tr.GetCallId()}
		if e := tr.GetError(); e != nil {
			res.Error = &runlog.ToolError{Message: e.GetMessage(), Retryable: e.GetRetryable()}
		} else {
			out, err := valueJSON(tr.GetOutput())
			if err != nil {
				return nil, errs.BadField("tool_results.output", "is not a JSON value")
			}
			res.Output = out
		}
		r.Results = append(r.Results, res)
	}
	if d := req.GetInDoubt(); d != nil {
		a, err := inDoubtAnswerFromProto(d)
		if err != nil {
			return nil, err
		}
		r.InDoubt = a
	}
	run, err := s.runs.Resume(ctx, tenantOf(ctx), req.GetRunId(), r)
	if err != nil {
		return nil, err
	}
	return &runsvcv1.ResumeRunResponse{Run: s.runToProto(run)}, nil
}

func (s runServer) InterruptRun(ctx context.Context, req *runsvcv1.InterruptRunRequest) (*runsvcv1.InterruptRunResponse, error) {
	if req.GetRunId() == "" {
		return nil, errs.BadField("run_id", "is required")
	}
	run, err := s.runs.Interrupt(ctx, tenantOf(ctx), req.GetRunId(), req.GetReason())
	if err != nil {
		return nil, err
	}
	return &runsvcv1.InterruptRunResponse{Run: s.runToProto(run)}, nil
}

func (s runServer) GetReport(ctx context.Context, req *runsvcv1.GetReportRequest) (*runsvcv1.GetReportResponse, error) {
	if req.GetRunId() == "" {
		return nil, errs.BadField("run_id", "is required")
	}
	rep, err := s.runs.Report(ctx, tenantOf(ctx), req.GetRunId(), int(req.GetChildDepth()))
	if err != nil {
		return nil, err
	}
	return &runsvcv1.GetReportResponse{Report: s.reportToProto(rep)}, nil
}

func (s runServer) ForkRun(ctx context.Context, req *runsvcv1.ForkRunRequest) (*runsvcv1.ForkRunResponse, error) {
	deadline, err := durationArg("deadline", req.GetDeadline())
	if err != nil {
		return nil, err
	}
	run, created, err := s.runs.Fork(ctx, runs.ForkRequest{
		Tenant: tenantOf(ctx), RunID: req.GetRunId(), Turn: int(req.GetTurn()), AtSeq: req.GetAtSeq(),
		Input: req.GetInput(), Version: req.GetVersion(), RequestID: req.GetRequestId(), Deadline: deadline,
		TraceParent: traceParentOf(ctx),
	})
	if err != nil {
		return nil, err
	}
	return &runsvcv1.ForkRunResponse{Run: s.runToProto(run), Created: created}, nil
}
