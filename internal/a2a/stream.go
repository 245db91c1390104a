package a2a

import (
	"context"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// emitter sends one event of a stream; a heartbeat when ev is nil.
type emitter func(ev *StreamResponse) error

// heartbeat is how often an idle stream sends a comment, so proxies keep
// it open.
const heartbeat = 15 * time.Second

// follow streams a task from run as it is: the task first, then the Run's
// text as the model produces it (artifact "text", appended), each change
// of state, and on completion the answer (artifact "answer"). It ends
// when the task ends or waits for the caller's input. The events are
// derived from the Run's log (WatchRun), so a subscription after a
// restart sees what the Run does next.
func (a *agent) follow(ctx context.Context, run *runsvcv1.Run, emit emitter) error {
	task := taskOf(run, a.structured(), nil)
	if err := emit(&StreamResponse{Task: &task}); err != nil {
		return err
	}
	f := &follower{a: a, run: run, state: task.Status.State, emit: emit}
	if final(f.state) {
		return nil
	}
	stream, err := a.b.watchRun.CallServerStream(ctx, connect.NewRequest(&runsvcv1.WatchRunRequest{
		RunId: run.GetRunId(), IncludeDeltas: true, HeartbeatInterval: durationpb.New(heartbeat)}))
	if err != nil {
		return err
	}
	defer func() { _ = stream.Close() }()
	for stream.Receive() {
		done, err := f.message(ctx, stream.Msg())
		if err != nil || done {
			return err
		}
	}
	if err := stream.Err(); err != nil {
		return err
	}
	_, err = f.refresh(ctx)
	return err
}

// follower is the state of one followed task.
type follower struct {
	a       *agent
	run     *runsvcv1.Run
	state   string
	emit    emitter
	streams bool // text has streamed into the "text" artifact
}

// message handles one WatchRun message; done when the stream ends.
func (f *follower) message(ctx context.Context, m *runsvcv1.WatchRunResponse) (bool, error) {
	switch {
	case m.GetHeartbeatTime() != nil:
		return false, f.emit(nil)
	case m.GetDelta() != nil:
		d := m.GetDelta()
		if d.GetText() == "" || d.GetDiscarded() {
			return false, nil
		}
		ev := &TaskArtifactUpdateEvent{TaskID: f.run.GetRunId(), ContextID: contextOf(f.run), Append: f.streams,
			Artifact: Artifact{ArtifactID: streamArtifact, Name: "text", Parts: []Part{textPart(d.GetText())}}}
		f.streams = true
		return false, f.emit(&StreamResponse{ArtifactUpdate: ev})
	case m.GetRecord() != nil && changesState(m.GetRecord()):
		return f.refresh(ctx)
	}
	return false, nil
}

// changesState reports whether a Record may change the A2A state.
func changesState(r *runsvcv1.Record) bool {
	return r.GetAdmitted() != nil || r.GetAttemptStarted() != nil || r.GetSuspended() != nil ||
		r.GetResumed() != nil || r.GetSettled() != nil || r.GetTurnStarted() != nil
}

// refresh reads the Run and sends its status when its A2A state changed
// (with the answer first on completion); done when the state is final.
func (f *follower) refresh(ctx context.Context) (bool, error) {
	res, err := call(ctx, f.a.b.getRun, &runsvcv1.GetRunRequest{RunId: f.run.GetRunId()})
	if err != nil {
		return false, err
	}
	f.run = res.GetRun()
	state := stateOf(f.run)
	if state == f.state {
		return final(state), nil
	}
	f.state = state
	id, ctxID := f.run.GetRunId(), contextOf(f.run)
	if state == stateCompleted {
		answer := Artifact{ArtifactID: answerArtifact, Name: "answer", Parts: []Part{answerPart(f.run.GetAnswer(), f.a.structured())}}
		if err := f.emit(&StreamResponse{ArtifactUpdate: &TaskArtifactUpdateEvent{TaskID: id, ContextID: ctxID, Artifact: answer, LastChunk: true}}); err != nil {
			return false, err
		}
	}
	ev := &TaskStatusUpdateEvent{TaskID: id, ContextID: ctxID, Status: statusOf(f.run)}
	return final(state), f.emit(&StreamResponse{StatusUpdate: ev})
}
