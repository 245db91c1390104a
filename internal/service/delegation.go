package service

import (
	"context"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/runs"
)

type delegationServer struct {
	runsvcv1.UnimplementedDelegationServiceServer
	*Service
}

func (s delegationServer) Delegate(ctx context.Context, req *runsvcv1.DelegateRequest) (*runsvcv1.DelegateResponse, error) {
	var bad []errs.FieldViolation
	timeout := durationField("timeout", req.GetTimeout(), &bad)
	if req.GetSpec() == "" {
		bad = append(bad, errs.FieldViolation{Field: "spec", Description: "is required: the delegate Spec's name"})
	}
	if len(bad) > 0 {
		return nil, &errs.InvalidRequest{Violations: bad}
	}
	d, err := s.runs.Delegate(ctx, runs.DelegateRequest{
		Tenant: tenantOf(ctx), ParentRunID: req.GetParentRunId(), Spec: req.GetSpec(), Task: req.GetTask(),
		Async: req.GetAsync(), Timeout: timeout, RequestID: req.GetRequestId(),
	})
	if err != nil {
		return nil, err
	}
	return &runsvcv1.DelegateResponse{Delegation: s.delegationToProto(d)}, nil
}

func (s delegationServer) GetDelegation(ctx context.Context, req *runsvcv1.GetDelegationRequest) (*runsvcv1.GetDelegationResponse, error) {
	d, err := s.runs.GetDelegation(ctx, tenantOf(ctx), req.GetDelegationId())
	if err != nil {
		return nil, err
	}
	return &runsvcv1.GetDelegationResponse{Delegation: s.delegationToProto(d)}, nil
}

func (s delegationServer) AwaitDelegation(ctx context.Context, req *runsvcv1.AwaitDelegationRequest) (*runsvcv1.AwaitDelegationResponse, error) {
	timeout, err := durationArg("timeout", req.GetTimeout())
	if err != nil {
		return nil, err
	}
	if timeout == 0 {
		timeout = runs.DefaultAwaitWait
	}
	if timeout <= runs.MaxDelegationWait {
		timeout = waitLeft(ctx, timeout)
	}
	d, err := s.runs.Await(ctx, tenantOf(ctx), req.GetDelegationId(), timeout)
	if err != nil {
		return nil, err
	}
	return &runsvcv1.AwaitDelegationResponse{Delegation: s.delegationToProto(d)}, nil
}

func (s *Service) delegationToProto(d runs.Delegation) *runsvcv1.Delegation {
	c := d.Child
	return &runsvcv1.Delegation{
		DelegationId: d.DelegationID, ParentRunId: d.ParentRunID, ChildRunId: c.RunID, Spec: c.Spec, Task: c.Input,
		State: stateToProto(c.Status), Answer: c.Answer, Failure: s.statusOf(c.Failure),
		CreateTime: ts(c.CreateTime), SettleTime: ts(c.SettleTime),
	}
}
