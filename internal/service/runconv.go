package service

import (
	epb "google.golang.org/genproto/googleapis/rpc/errdetails"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/alias"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
)

// statusFromProto is the domain status of each RunState; stateToProto
// reads it backwards.
var statusFromProto = map[runsvcv1.RunState]runlog.Status{
	runsvcv1.RunState_RUN_STATE_QUEUED:    runlog.StatusQueued,
	runsvcv1.RunState_RUN_STATE_RUNNING:   runlog.StatusRunning,
	runsvcv1.RunState_RUN_STATE_SUSPENDED: runlog.StatusSuspended,
	runsvcv1.RunState_RUN_STATE_COMPLETED: runlog.StatusCompleted,
	runsvcv1.RunState_RUN_STATE_FAILED:    runlog.StatusFailed,
	runsvcv1.RunState_RUN_STATE_ABORTED:   runlog.StatusAborted,
	runsvcv1.RunState_RUN_STATE_ABANDONED: runlog.StatusAbandoned,
}

var protoStates = invert(statusFromProto)

// stateToProto returns s's RunState, UNSPECIFIED for an unknown status.
func stateToProto(s runlog.Status) runsvcv1.RunState { return protoStates[s] }

func causeToProto(c runlog.AbortCause) runsvcv1.AbortCause {
	switch c {
	case runlog.CauseInterrupted:
		return runsvcv1.AbortCause_ABORT_CAUSE_INTERRUPTED
	case runlog.CauseDeadline:
		return runsvcv1.AbortCause_ABORT_CAUSE_DEADLINE
	case runlog.CauseReplaced:
		return runsvcv1.AbortCause_ABORT_CAUSE_REPLACED
	}
	return runsvcv1.AbortCause_ABORT_CAUSE_UNSPECIFIED
}

func reasonToProto(r runlog.Reason) runsvcv1.SuspensionReason {
	switch r {
	case runlog.ReasonToolResults:
		return runsvcv1.SuspensionReason_SUSPENSION_REASON_TOOL_RESULTS
	case runlog.ReasonApproval:
		return runsvcv1.SuspensionReason_SUSPENSION_REASON_APPROVAL
	case runlog.ReasonQuestion:
		return runsvcv1.SuspensionReason_SUSPENSION_REASON_QUESTION
	case runlog.ReasonChildren:
		return runsvcv1.SuspensionReason_SUSPENSION_REASON_CHILDREN
	case runlog.ReasonTimer:
		return runsvcv1.SuspensionReason_SUSPENSION_REASON_TIMER
	}
	return runsvcv1.SuspensionReason_SUSPENSION_REASON_UNSPECIFIED
}

func modeToProto(m runlog.MessageMode) runsvcv1.MessageMode {
	if m == runlog.ModeFollowUp {
		return runsvcv1.MessageMode_MESSAGE_MODE_FOLLOW_UP
	}
	return runsvcv1.MessageMode_MESSAGE_MODE_STEER
}

func toolCallToProto(c runlog.ToolCall) *runsvcv1.ToolCall {
	return &runsvcv1.ToolCall{CallId: c.ID, Name: c.Name, Arguments: toStruct(c.Arguments), ProviderCallId: c.ProviderID}
}

// failureReason returns the reason and message a stored failure maps to.
func (s *Service) failureReason(stored *errs.Stored) (string, string) {
	if stored == nil {
		return "", ""
	}
	return stored.Reason, stored.Message
}

func (s *Service) runToProto(r runs.Run) *runsvcv1.Run {
	p := &runsvcv1.Run{
		RunId: r.RunID, Spec: r.Spec, Version: r.Version, State: stateToProto(r.Status), AbortCause: causeToProto(r.AbortCause),
		Failure: s.statusOf(r.Failure), Answer: r.Answer, Input: r.Input, RequestId: r.RequestID,
		ParentRunId: r.ParentRunID, RootRunId: r.RootRunID, DelegationId: r.DelegationID,
		Attempt: int32(r.Attempt), Turn: int32(r.Turn), LastSeq: r.LastSeq,
		CreateTime: ts(r.CreateTime), UpdateTime: ts(r.UpdateTime), SettleTime: ts(r.SettleTime), DeadlineTime: ts(r.Deadline),
		ThreadId: r.ThreadID, ContinuesRunId: r.ContinuesRunID, Waiting: r.Waiting,
		ScheduleId: r.ScheduleID, ScheduleTick: ts(r.ScheduleTick),
		Priority: int32(r.Priority), FairnessKey: r.FairnessKey,
		ConcurrencyKey: r.ConcurrencyKey, ConcurrencyPlace: int32(r.ConcurrencyPlace), ConcurrencySeq: int32(r.ConcurrencySeq),
		WaitingOn: r.WaitingOn, WaitingSince: ts(r.WaitingSince),
		Alias: r.Alias, AliasSide: sideToProto[alias.Side(r.AliasSide)],
		EvaluationId: r.EvaluationID, ReplayOf: r.ReplayOf,
		Usage: &runsvcv1.Usage{
			InputTokens: r.Usage.InputTokens, OutputTokens: r.Usage.OutputTokens, CostUsd: r.Usage.Cost,
			UnpricedCalls: int32(r.Usage.UnpricedCalls), ModelCalls: int32(r.Usage.ModelCalls),
			ToolCalls: int32(r.Usage.ToolCalls), TransientRetries: int32(r.Usage.TransientRetries),
		},
	}
	p.ForkOf = forkToProto(r.Fork)
	if sus := r.Suspension; sus != nil && r.Status == runlog.StatusSuspended {
		ps := &runsvcv1.Suspension{
			Reason: reasonToProto(sus.Reason), ExpireTime: ts(sus.ExpireAt), Question: sus.Question,
			ApprovalReason: sus.ApprovalReason, DelegationIds: sus.DelegationIDs, InDoubt: sus.InDoubt,
			WakeTime: ts(sus.WakeAt),
			Budget:   budgetAskToProto(sus.Budget),
		}
		for _, c := range r.SuspendedCalls {
			if sus.Reason == runlog.ReasonApproval {
				ps.ApprovalCall = toolCallToProto(c)
			} else {
				ps.ToolCalls = append(ps.ToolCalls, toolCallToProto(c))
			}
		}
		p.Suspension = ps
	}
	return p
}

func (s *Service) recordToProto(r runlog.Record) *runsvcv1.Record {
	p := &runsvcv1.Record{Seq: r.Seq, Time: ts(r.Time), Attempt: int32(r.Attempt)}
	switch op := r.Op.(type) {
	case *runlog.Admitted:
		p.Body = &runsvcv1.Record_Admitted_{Admitted: &runsvcv1.Record_Admitted{
			Spec: op.Spec, Version: op.Version, Input: op.Input, RequestId: op.RequestID, DeadlineTime: ts(op.Deadline),
			ParentRunId: op.ParentRunID, RootRunId: op.RootRunID, DelegationId: op.DelegationID, Depth: int32(op.Depth),
			ForkOf: forkToProto(op.Fork), StartTime: ts(op.StartAt),
		}}
	case *runlog.AttemptStarted:
		p.Body = &runsvcv1.Record_AttemptStarted_{AttemptStarted: &runsvcv1.Record_AttemptStarted{Attempt: int32(op.Attempt), WorkerId: op.WorkerID}}
	case *runlog.TurnStarted:
		p.Body = &runsvcv1.Record_TurnStarted_{TurnStarted: &runsvcv1.Record_TurnStarted{Turn: int32(op.Turn)}}
	case *runlog.ModelCallStarted:
		p.Body = &runsvcv1.Record_ModelCallStarted_{ModelCallStarted: &runsvcv1.Record_ModelCallStarted{Turn: int32(op.Turn), ReservedTokens: op.ReservedTokens, ReservedCostUsd: op.ReservedCost}}
	case *runlog.ModelCallFinished:
		f := &runsvcv1.Record_ModelCallFinished{Turn: int32(op.Turn), Text: op.Text, InputTokens: op.InputTokens, OutputTokens: op.OutputTokens, CostUsd: op.Cost, Priced: op.Priced}
		for _, c := range op.ToolCalls {
			f.ToolCalls = append(f.ToolCalls, toolCallToProto(c))
		}
		for _, v := range op.OutputViolations {
			f.OutputViolations = append(f.OutputViolations, &epb.BadRequest_FieldViolation{Field: v.Field, Description: v.Description})
		}
		s.modelOfCall(f, op)
		p.Body = &runsvcv1.Record_ModelCallFinished_{ModelCallFinished: f}
	case *runlog.ModelCallFailed:
		p.Body = &runsvcv1.Record_ModelCallFailed_{ModelCallFailed: &runsvcv1.Record_ModelCallFailed{
			Turn: int32(op.Turn), Failure: s.statusOf(&op.Failure), WillRetry: op.WillRetry, RetryAfter: dur(op.RetryAfter),
		}}
	case *runlog.ToolCallStarted:
		p.Body = &runsvcv1.Record_ToolCallStarted_{ToolCallStarted: &runsvcv1.Record_ToolCallStarted{CallId: op.CallID, Name: op.Name}}
	case *runlog.ToolCallFinished:
		p.Body = &runsvcv1.Record_ToolCallFinished_{ToolCallFinished: &runsvcv1.Record_ToolCallFinished{
			CallId: op.CallID, Name: op.Name, Output: toValue(op.Output), Error: s.statusOf(op.Error), Orphaned: op.Orphaned,
			InDoubt: op.InDoubt,
		}}
	case *runlog.ToolCallFailed:
		p.Body = &runsvcv1.Record_ToolCallFailed_{ToolCallFailed: &runsvcv1.Record_ToolCallFailed{
			CallId: op.CallID, Name: op.Name, Error: s.statusOf(&op.Error), RetryAfter: dur(op.RetryAfter),
		}}
	case *runlog.Suspended:
		p.Body = &runsvcv1.Record_Suspended_{Suspended: &runsvcv1.Record_Suspended{
			Reason: reasonToProto(op.Reason), ExpireTime: ts(op.ExpireAt), CallIds: op.CallIDs, Question: op.Question,
			CallId: op.CallID, ApprovalReason: op.ApprovalReason, DelegationIds: op.DelegationIDs,
			InDoubt: op.InDoubt, WakeTime: ts(op.WakeAt), Budget: budgetAskToProto(op.Budget),
		}}
	case *runlog.Resumed:
		res := &runsvcv1.Record_Resumed{Reason: reasonToProto(op.Reason), Answer: op.Answer, Approved: op.Approved, Note: op.Note, Early: op.Early, BudgetLimit: op.BudgetLimit}
		res.InDoubt = inDoubtAnswerToProto(op.InDoubt)
		for _, tr := range op.Results {
			pr := &runsvcv1.ToolResult{CallId: tr.CallID, Output: toValue(tr.Output)}
			if tr.Error != nil {
				pr.Error = &runsvcv1.ToolError{Message: tr.Error.Message, Retryable: tr.Error.Retryable}
			}
			res.ToolResults = append(res.ToolResults, pr)
		}
		p.Body = &runsvcv1.Record_Resumed_{Resumed: res}
	case *runlog.AbortRequested:
		p.Body = &runsvcv1.Record_AbortRequested_{AbortRequested: &runsvcv1.Record_AbortRequested{Cause: causeToProto(op.Cause), Reason: op.Reason}}
	case *runlog.MessageQueued:
		p.Body = &runsvcv1.Record_MessageQueued_{MessageQueued: &runsvcv1.Record_MessageQueued{Text: op.Text, Mode: modeToProto(op.Mode)}}
	case *runlog.MessageConsumed:
		p.Body = &runsvcv1.Record_MessageConsumed_{MessageConsumed: &runsvcv1.Record_MessageConsumed{QueuedSeqs: op.QueuedSeqs}}
	case *runlog.DelegationStarted:
		p.Body = &runsvcv1.Record_DelegationStarted_{DelegationStarted: &runsvcv1.Record_DelegationStarted{
			DelegationId: op.DelegationID, ChildRunId: op.ChildRunID, Spec: op.Spec, Task: op.Task, CallId: op.CallID,
		}}
	case *runlog.DelegationFinished:
		p.Body = &runsvcv1.Record_DelegationFinished_{DelegationFinished: &runsvcv1.Record_DelegationFinished{
			DelegationId: op.DelegationID, ChildRunId: op.ChildRunID, State: stateToProto(op.State), Answer: op.Answer, Failure: s.statusOf(op.Failure),
		}}
	case *runlog.Settled:
		p.Body = &runsvcv1.Record_Settled_{Settled: &runsvcv1.Record_Settled{
			State: stateToProto(op.State), AbortCause: causeToProto(op.AbortCause), Answer: op.Answer, Failure: s.statusOf(op.Failure),
		}}
	default:
		laterKindToProto(p, op)
	}
	return p
}

// laterKindToProto sets p's body for the Record kinds added after the
// first ones.
func laterKindToProto(p *runsvcv1.Record, op runlog.Op) {
	switch op := op.(type) {
	case *runlog.HistoryCompacted:
		p.Body = compactedToProto(op)
	case *runlog.A2ATask:
		p.Body = a2aTaskToProto(op)
	}
}

func (s *Service) reportToProto(r runs.Report) *runsvcv1.Report {
	p := &runsvcv1.Report{Run: s.runToProto(r.Run), Finished: r.Finished, Duration: dur(r.Duration), Records: r.Records}
	for _, c := range r.ToolCalls {
		p.ToolCalls = append(p.ToolCalls, &runsvcv1.ToolCallReport{Call: toolCallToProto(c.Call), Output: toValue(c.Output), Error: s.statusOf(c.Error), Turn: int32(c.Turn), InDoubt: c.InDoubt})
	}
	for _, c := range r.Children {
		p.Children = append(p.Children, s.reportToProto(c))
	}
	return p
}

func forkToProto(f *runlog.ForkOrigin) *runsvcv1.ForkOrigin {
	if f == nil {
		return nil
	}
	return &runsvcv1.ForkOrigin{RunId: f.RunID, Seq: f.Seq, Turn: int32(f.Turn)}
}

func a2aTaskToProto(op *runlog.A2ATask) *runsvcv1.Record_A2ATask_ {
	return &runsvcv1.Record_A2ATask_{A2ATask: &runsvcv1.Record_A2ATask{
		CallId: op.CallID, TaskId: op.TaskID, ContextId: op.ContextID, Replies: int32(op.Replies),
		Question: op.Question, QuestionId: op.QuestionID, Answered: op.Answered,
	}}
}

func compactedToProto(op *runlog.HistoryCompacted) *runsvcv1.Record_HistoryCompacted_ {
	return &runsvcv1.Record_HistoryCompacted_{HistoryCompacted: &runsvcv1.Record_HistoryCompacted{
		Turn: int32(op.Turn), ThroughTurn: int32(op.ThroughTurn), Messages: int32(op.Messages), Summary: op.Summary,
		AfterRefusal: op.AfterRefusal, InputTokens: op.InputTokens, OutputTokens: op.OutputTokens,
		HistoryMessages: int32(op.HistoryMessages),
	}}
}

// budgetAskToProto converts a budget approval's ask, or nil.
func budgetAskToProto(b *runlog.BudgetAsk) *runsvcv1.BudgetAsk {
	if b == nil {
		return nil
	}
	return &runsvcv1.BudgetAsk{Dimension: b.Dimension, Spent: b.Spent, Reserve: b.Reserve, Limit: b.Limit}
}

// modelOfCall sets which model answered a call, the models it left and
// its rate-limit wait.
func (s *Service) modelOfCall(f *runsvcv1.Record_ModelCallFinished, op *runlog.ModelCallFinished) {
	f.Model, f.RateLimitWait = op.Model, dur(op.RateLimitWait)
	for _, fb := range op.Fallbacks {
		f.Fallbacks = append(f.Fallbacks, &runsvcv1.Record_ModelFallback{Model: fb.Model, Failure: s.statusOf(&fb.Failure)})
	}
}
