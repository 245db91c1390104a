package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// MetaRunID is the `_meta` key of a tool result naming the Run that
// answered it.
const MetaRunID = "runsvc/run-id"

// waitSlice is how long one WaitRun waits; pollWait is the pause before
// asking again about a Run waiting on its own (children, a timer).
const (
	waitSlice = 5 * time.Minute
	pollWait  = time.Second
)

// handler answers tools/call of sp: it starts a Run with the message and
// follows it to its end.
func (s *Server) handler(sp *runsvcv1.Spec) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args struct {
			Message string `json:"message"`
		}
		if len(req.Params.Arguments) > 0 && json.Unmarshal(req.Params.Arguments, &args) != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: `the arguments must be {"message": "<text>"}`}
		}
		ctx = outgoing(ctx, req.Extra.Header)
		target := sp.GetName()
		if alias := sp.GetExposure().GetAlias(); alias != "" {
			target += "@" + alias // the alias's Version, canary split included
		}
		started, err := s.runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: target, Input: args.Message})
		if err != nil {
			return refused(err), nil
		}
		id := started.GetRun().GetRunId()
		token := req.Params.GetProgressToken()
		if token == nil {
			return s.follow(ctx, req, sp, id)
		}
		p := &progress{ss: req.Session, token: token}
		p.send(ctx, 0, "started Run "+id)
		streamCtx, stop := context.WithCancel(ctx)
		streamed := make(chan struct{})
		go func() { defer close(streamed); s.streamText(streamCtx, p, id) }()
		res, err := s.follow(ctx, req, sp, id)
		stop()
		<-streamed
		if p.texts == 0 && res != nil && !res.IsError {
			// The Run answered before its text could be followed (a
			// short answer on a busy server): the answer is its text.
			p.send(ctx, 1, textOf(res))
		}
		p.send(ctx, 1, "Run "+id+" answered")
		return res, err
	}
}

// follow waits for the Run to end and answers with its outcome. A
// question is asked through elicitation when the client can answer one;
// a Run waiting on its own (children, a timer) is waited for.
func (s *Server) follow(ctx context.Context, req *mcp.CallToolRequest, sp *runsvcv1.Spec, id string) (*mcp.CallToolResult, error) {
	for {
		w, err := s.runs.WaitRun(ctx, &runsvcv1.WaitRunRequest{RunId: id, Wait: durationpb.New(waitSlice)})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return refused(err), nil
		}
		run := w.GetRun()
		switch run.GetState() {
		case runsvcv1.RunState_RUN_STATE_COMPLETED:
			return answered(sp, run), nil
		case runsvcv1.RunState_RUN_STATE_FAILED, runsvcv1.RunState_RUN_STATE_ABANDONED, runsvcv1.RunState_RUN_STATE_ABORTED:
			return runFailed(run), nil
		case runsvcv1.RunState_RUN_STATE_SUSPENDED:
			res, err := s.suspended(ctx, req, run)
			if res != nil || err != nil {
				return res, err
			}
		}
	}
}

// suspended handles a suspended Run: nil, nil to go on waiting, or the
// call's result.
func (s *Server) suspended(ctx context.Context, req *mcp.CallToolRequest, run *runsvcv1.Run) (*mcp.CallToolResult, error) {
	sus := run.GetSuspension()
	switch sus.GetReason() {
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_CHILDREN, runsvcv1.SuspensionReason_SUSPENSION_REASON_TIMER:
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(pollWait):
			return nil, nil
		}
	case runsvcv1.SuspensionReason_SUSPENSION_REASON_QUESTION:
		if !canElicit(req.Session) {
			return waiting(run, fmt.Sprintf("asks a question this MCP client cannot be asked (it declared no elicitation capability): %q", sus.GetQuestion())), nil
		}
		return s.ask(ctx, req, run)
	}
	return waiting(run, "waits for "+reasonName(sus.GetReason())), nil
}

// ask puts the Run's question to the client (elicitation) and resumes the
// Run with the answer; nil, nil when the Run goes on.
func (s *Server) ask(ctx context.Context, req *mcp.CallToolRequest, run *runsvcv1.Run) (*mcp.CallToolResult, error) {
	question := run.GetSuspension().GetQuestion()
	res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: question, RequestedSchema: answerSchema})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return waiting(run, fmt.Sprintf("asks %q, and asking the client failed: %v", question, err)), nil
	}
	answer, _ := res.Content["answer"].(string)
	if res.Action != "accept" || answer == "" {
		return waiting(run, fmt.Sprintf("asks %q, which the client did not answer (%s)", question, res.Action)), nil
	}
	if _, err := s.runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: run.GetRunId(), Answer: answer}); err != nil {
		return refused(err), nil
	}
	return nil, nil
}

// canElicit reports whether the client declared it answers form
// elicitations.
func canElicit(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil
}

// progress numbers a call's progress notifications: the bytes of the
// Run's text so far, increasing.
type progress struct {
	ss    *mcp.ServerSession
	token any
	sent  float64
	texts int // notifications that carried streamed text
}

func (p *progress) send(ctx context.Context, n int, msg string) {
	p.sent += float64(n)
	_ = p.ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: p.token, Progress: p.sent, Message: msg})
}

// streamText sends the Run's streamed text as progress notifications.
func (s *Server) streamText(ctx context.Context, p *progress, id string) {
	stream, err := s.runs.StreamText(ctx, &runsvcv1.StreamTextRequest{RunId: id})
	if err != nil {
		return
	}
	for {
		msg, err := stream.Recv()
		if err != nil {
			return
		}
		if msg.GetText() != "" {
			p.texts++
			p.send(ctx, len(msg.GetText()), msg.GetText())
		}
	}
}

// textOf is a result's text content.
func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}
