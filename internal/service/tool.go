package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"google.golang.org/grpc"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/schema"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/toolworkers"
)

type toolServer struct {
	runsvcv1.UnimplementedToolServiceServer
	*Service
}

func (s toolServer) ListTools(ctx context.Context, req *runsvcv1.ListToolsRequest) (*runsvcv1.ListToolsResponse, error) {
	byName := map[string]*runsvcv1.ToolInfo{}
	for _, name := range spec.Builtins {
		byName[name] = &runsvcv1.ToolInfo{Name: name, Kind: runsvcv1.ToolKind_TOOL_KIND_BUILTIN}
	}
	served, err := s.hub.AllTools(ctx, tenantOf(ctx))
	if err != nil {
		return nil, err
	}
	for _, t := range served {
		byName[t.Name] = &runsvcv1.ToolInfo{
			Name: t.Name, Kind: runsvcv1.ToolKind_TOOL_KIND_WORKER, Description: t.Description,
			Parameters: toStruct(t.Parameters), Workers: int32(t.Workers),
		}
	}
	if req.GetSpec() != "" {
		sv, err := s.specs.Get(ctx, tenantOf(ctx), req.GetSpec(), req.GetVersion())
		if err != nil {
			return nil, err
		}
		for _, t := range sv.Tools {
			info := &runsvcv1.ToolInfo{Name: t.Name, Kind: kindToProto(t.Kind), Description: t.Description, Parameters: toStruct(t.Parameters)}
			if w, ok := byName[t.Name]; ok && t.Kind == spec.KindWorker {
				info.Workers = w.Workers
				if info.Description == "" {
					info.Description = w.Description
				}
			}
			byName[t.Name] = info
		}
	}
	out := &runsvcv1.ListToolsResponse{}
	for _, t := range byName {
		out.Tools = append(out.Tools, t)
	}
	sort.Slice(out.Tools, func(i, j int) bool { return out.Tools[i].Name < out.Tools[j].Name })
	return out, nil
}

func (s toolServer) InvokeTool(ctx context.Context, req *runsvcv1.InvokeToolRequest) (*runsvcv1.InvokeToolResponse, error) {
	if req.GetName() == "" {
		return nil, errs.BadField("name", "is required")
	}
	timeout, err := durationArg("timeout", req.GetTimeout())
	if err != nil {
		return nil, err
	}
	var sv *spec.Version
	if req.GetSpec() != "" {
		v, err := s.specs.Get(ctx, tenantOf(ctx), req.GetSpec(), req.GetVersion())
		if err != nil {
			return nil, err
		}
		sv = v
	}
	var bad []errs.FieldViolation
	args := structField("arguments", req.GetArguments(), &bad)
	if len(bad) > 0 {
		return nil, &errs.InvalidRequest{Violations: bad}
	}
	if args == nil {
		args = json.RawMessage(`{}`)
	}
	inv, err := s.engine.Invoke(ctx, tenantOf(ctx), sv, req.GetName(), args, timeout)
	if err != nil {
		return nil, s.scrub.Error(err)
	}
	// The engine scrubbed the result and the failure (its pipeline's last
	// step); an error of the call is scrubbed here.
	out := &runsvcv1.InvokeToolResponse{CallId: inv.CallID, Output: toValue(inv.Output)}
	if inv.Failure != nil {
		out.Output, out.Error = nil, s.mapper.Proto(inv.Failure)
	}
	return out, nil
}

// ServeTools connects a worker: the first message registers its tools,
// then calls flow out and results flow in until either side ends.
func (s toolServer) ServeTools(stream grpc.BidiStreamingServer[runsvcv1.ServeToolsRequest, runsvcv1.ServeToolsResponse]) error {
	ctx := stream.Context()
	first, err := stream.Recv()
	if errors.Is(err, io.EOF) {
		// The worker half-closed without registering: its mistake.
		return errs.BadField("register", "the stream ended before its first message, which must be register")
	}
	if err != nil {
		return err
	}
	defs, err := registration(first.GetRegister())
	if err != nil {
		awaitHalfClose(stream, rejectGrace)
		return err
	}
	reg := first.GetRegister()
	w := s.hub.Connect(tenantOf(ctx), reg.GetWorkerName(), defs, int(reg.GetMaxConcurrency()))
	defer s.hub.Disconnect(w)
	if err := stream.Send(&runsvcv1.ServeToolsResponse{Message: &runsvcv1.ServeToolsResponse_Registered_{
		Registered: &runsvcv1.ServeToolsResponse_Registered{WorkerId: w.ID},
	}}); err != nil {
		return err
	}

	recvErr := make(chan error, 1)
	go func() { recvErr <- s.receiveResults(stream, w) }()
	for {
		select {
		case out := <-w.Outbox():
			if err := stream.Send(outgoingMessage(out)); err != nil {
				return err
			}
		case err := <-recvErr:
			if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// registration is the tools reg registers, or an InvalidRequest saying
// why it is refused.
func registration(reg *runsvcv1.ServeToolsRequest_Register) ([]toolworkers.Definition, error) {
	if reg == nil {
		return nil, errs.BadField("register", "the first message on ServeTools must be register")
	}
	if len(reg.GetTools()) == 0 {
		return nil, errs.BadField("register.tools", "name at least one tool")
	}
	if n := len(reg.GetTools()); n > maxRegisteredTools {
		return nil, errs.BadField("register.tools", "names %d tools; one worker may register at most %d", n, maxRegisteredTools)
	}
	return registeredTools(reg)
}

// rejectGrace is how long a refused registration waits for the worker to
// half-close its side before the status ends the stream.
const rejectGrace = 2 * time.Second

// awaitHalfClose reads, and drops, what the client still sends until it
// half-closes the stream, for at most grace. A handler that returns while
// the client's side is open makes grpc-go reset the stream (RST_STREAM
// NO_ERROR) right after the status, and a proxy (HAProxy) may pass the
// reset on as CANCEL ahead of the status: a client that half-closed after
// its register message (most do) then reads the status, whatever the
// proxy. One that keeps sending is cut off after grace, as before.
func awaitHalfClose(stream grpc.ServerStream, grace time.Duration) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for stream.RecvMsg(new(runsvcv1.ServeToolsRequest)) == nil {
		}
	}()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	case <-stream.Context().Done():
	}
}

// maxRegisteredTools bounds one registration, as a Spec's tools are
// bounded: the checks below, and the hub's lookups, cost per tool.
const maxRegisteredTools = 512

// registeredTools is the tools a worker's register message names, or an
// InvalidRequest naming every field that is wrong.
func registeredTools(reg *runsvcv1.ServeToolsRequest_Register) ([]toolworkers.Definition, error) {
	var defs []toolworkers.Definition
	var bad []errs.FieldViolation
	for i, t := range reg.GetTools() {
		if t.GetName() == "" {
			bad = append(bad, errs.FieldViolation{Field: fmt.Sprintf("register.tools[%d].name", i), Description: "is required"})
		}
		params := structJSON(t.GetParameters())
		if len(params) > 0 {
			// Compiled as a Spec's are at publish: the model is offered it
			// and arguments are checked against it.
			_, problems := schema.Compile(params)
			for _, pr := range problems {
				field := fmt.Sprintf("register.tools[%d].parameters%s", i, spec.DottedPath(pr.Path))
				bad = append(bad, errs.FieldViolation{Field: field, Description: fmt.Sprintf("%s (schema path /%s)", pr.Message, strings.TrimPrefix(pr.Path, "/"))})
			}
		}
		defs = append(defs, toolworkers.Definition{Name: t.GetName(), Description: t.GetDescription(), Parameters: params})
	}
	if reg.GetMaxConcurrency() < 0 {
		bad = append(bad, errs.FieldViolation{Field: "register.max_concurrency", Description: "must not be negative"})
	}
	if len(bad) > 0 {
		return nil, &errs.InvalidRequest{Violations: bad}
	}
	return defs, nil
}

// receiveResults hands each result the worker sends to the hub until the
// stream ends or the worker sends something else, and returns why it
// stopped.
func (s toolServer) receiveResults(stream grpc.BidiStreamingServer[runsvcv1.ServeToolsRequest, runsvcv1.ServeToolsResponse], w *toolworkers.Worker) error {
	for {
		msg, err := stream.Recv()
		if err != nil {
			return err
		}
		res := msg.GetResult()
		if res == nil {
			return errs.BadField("result", "after register, a worker sends only results")
		}
		if e := res.GetError(); e != nil {
			s.hub.Deliver(w, res.GetCallId(), nil, &toolworkers.Failure{Message: e.GetMessage(), Retryable: e.GetRetryable()})
			continue
		}
		out, err := valueJSON(res.GetOutput())
		if err != nil || out == nil {
			out = json.RawMessage("null")
		}
		s.hub.Deliver(w, res.GetCallId(), out, nil)
	}
}

// outgoingMessage is what the hub sends a worker, a call or a cancel, as
// a ServeTools response.
func outgoingMessage(out toolworkers.Outgoing) *runsvcv1.ServeToolsResponse {
	msg := &runsvcv1.ServeToolsResponse{}
	if c := out.Call; c != nil {
		msg.Message = &runsvcv1.ServeToolsResponse_Call_{Call: &runsvcv1.ServeToolsResponse_Call{
			CallId: c.ID, Name: c.Name, Arguments: toStruct(c.Arguments), RunId: c.RunID, DeadlineTime: ts(c.Deadline), Traceparent: c.TraceParent,
		}}
	} else {
		msg.Message = &runsvcv1.ServeToolsResponse_Cancel_{Cancel: &runsvcv1.ServeToolsResponse_Cancel{CallId: out.Cancel}}
	}
	return msg
}
