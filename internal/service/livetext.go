package service

import (
	"errors"

	"google.golang.org/grpc"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/live"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
)

// Encoded is a message already in protobuf wire form: the Codec sends its
// bytes as they are, so a piece that goes to many watchers is encoded
// once. The bytes are never written to after.
type Encoded struct {
	data []byte
	// bufs is data as the Codec hands it to grpc, made once: grpc only
	// reads it (its readers reslice their own copy) and freeing a
	// SliceBuffer does nothing, so every send shares it instead of
	// allocating a slice and an interface value for each watcher.
	bufs mem.BufferSlice
	// seq is the seq of the Record a WatchRun message holds, else 0.
	seq int64
}

// RecordSeq returns the seq of the Record the message holds, or 0 when it
// holds none (a piece, a StreamText message).
func (e *Encoded) RecordSeq() int64 { return e.seq }

// encode returns m in wire form, or m itself if it does not encode (the
// stream's own Send then reports the problem).
func encode(m proto.Message) any {
	b, err := proto.Marshal(m)
	if err != nil {
		return m
	}
	return &Encoded{data: b, bufs: mem.BufferSlice{mem.SliceBuffer(b)}}
}

// marshalEncoded is Codec.Marshal for an *Encoded.
func marshalEncoded(e *Encoded) mem.BufferSlice { return e.bufs }

// sendMsg sends a message encoded once for many watchers (a Record's or a
// live Delta's): as it is when the server's codec is a Codec, which passes
// *Encoded through; else decoded again into a message from into. into is a
// constructor, not a message, so that the common pass-through send
// allocates nothing (an empty message per send was one allocation per
// delivery in the watch phase).
func (s *Service) sendMsg(stream grpc.ServerStream, m any, into func() proto.Message) error {
	if e, ok := m.(*Encoded); ok && !s.passThrough {
		into := into()
		if err := proto.Unmarshal(e.data, into); err != nil {
			return err
		}
		return stream.SendMsg(into)
	}
	return stream.SendMsg(m)
}

// newWatchRunResponse and newStreamTextResponse are sendMsg's into for
// the two streams.
func newWatchRunResponse() proto.Message   { return &runsvcv1.WatchRunResponse{} }
func newStreamTextResponse() proto.Message { return &runsvcv1.StreamTextResponse{} }

// deltaToProto converts a piece, its text scrubbed of secrets.
func (s *Service) deltaToProto(d *live.Delta) *runsvcv1.ModelDelta {
	out := &runsvcv1.ModelDelta{Seq: d.CallSeq, Turn: int32(d.Turn), Offset: d.Offset, Text: s.scrub.String(d.Text), Discarded: d.Discarded}
	if tc := d.ToolCall; tc != nil {
		out.ToolCall = &runsvcv1.ToolCallDelta{Index: int32(tc.Index), Id: tc.ID, Name: tc.Name, Arguments: s.scrub.String(tc.Arguments)}
	}
	return out
}

// watchDelta is a WatchRun message for a piece, encoded once.
func (s *Service) watchDelta(d *live.Delta) any {
	return d.Encoded(live.SlotWatch, func(d *live.Delta) any {
		return encode(&runsvcv1.WatchRunResponse{Delta: s.deltaToProto(d)})
	})
}

// textDelta is a StreamText message for a piece of text, encoded once.
func (s *Service) textDelta(d *live.Delta) any {
	return d.Encoded(live.SlotText, func(d *live.Delta) any {
		return encode(&runsvcv1.StreamTextResponse{Text: s.scrub.String(d.Text), Turn: int32(d.Turn), Seq: d.CallSeq, Offset: d.Offset, Discarded: d.Discarded})
	})
}

// textStream is one StreamText call's progress through the Run.
type textStream struct {
	s      runServer
	stream grpc.ServerStream
	runID  string
	from   runs.LiveFrom
	// call is the seq of the ModelCallStarted of the call being read;
	// sent how many bytes of its text went out.
	call   int64
	sent   int64
	ending error
}

// event sends what one watch event means for the text.
func (t *textStream) event(ev runs.Event) error {
	if d := ev.Delta; d != nil {
		return t.delta(d)
	}
	r := ev.Record
	switch op := r.Op.(type) {
	case *runlog.ModelCallStarted:
		t.call, t.sent = r.Seq, 0
		if t.from.CallSeq == r.Seq {
			t.sent = t.from.Offset
		}
	case *runlog.ModelCallFinished:
		call, sent := t.call, t.sent
		t.call, t.sent = 0, 0
		if op.Text == "" || call < t.from.CallSeq {
			return nil
		}
		rest := ""
		if sent < int64(len(op.Text)) {
			rest = op.Text[sent:]
		}
		return t.stream.SendMsg(&runsvcv1.StreamTextResponse{Text: rest, Turn: int32(op.Turn), Final: len(op.ToolCalls) == 0 && len(op.OutputViolations) == 0, Seq: call, Offset: sent, Committed: true})
	case *runlog.Settled:
		t.ending = t.s.textEnding(t.runID, op)
	}
	return nil
}

// delta sends a piece of text of the call being read.
func (t *textStream) delta(d *live.Delta) error {
	if d.Discarded {
		if d.CallSeq == t.call {
			t.sent = 0
		}
		return t.stream.SendMsg(&runsvcv1.StreamTextResponse{Seq: d.CallSeq, Discarded: true})
	}
	if d.Text == "" || d.CallSeq != t.call || d.CallSeq < t.from.CallSeq {
		return nil
	}
	end := d.Offset + int64(len(d.Text))
	if end <= t.sent {
		return nil
	}
	if d.Offset < t.sent {
		// A resumed watcher has part of it.
		text, offset := d.Text[t.sent-d.Offset:], t.sent
		t.sent = end
		return t.stream.SendMsg(&runsvcv1.StreamTextResponse{Text: t.s.scrub.String(text), Turn: int32(d.Turn), Seq: d.CallSeq, Offset: offset})
	}
	t.sent = end
	return t.s.sendMsg(t.stream, t.s.textDelta(d), newStreamTextResponse)
}

// streamText runs StreamText: committed texts and live pieces, from the
// resume point asked.
func (s runServer) streamText(req *runsvcv1.StreamTextRequest, stream grpc.ServerStream) error {
	if req.GetFromSeq() < 0 || req.GetFromOffset() < 0 {
		return errs.BadField("from_seq", "and from_offset must not be negative")
	}
	ctx := stream.Context()
	t := &textStream{s: s, stream: stream, runID: req.GetRunId(), from: runs.LiveFrom{CallSeq: req.GetFromSeq(), Offset: req.GetFromOffset()}}
	err := s.runs.WatchLive(ctx, tenantOf(ctx), req.GetRunId(), 1, t.from, t.event)
	return t.finish(err)
}

// finish is how StreamText ends after its watch.
func (t *textStream) finish(err error) error {
	var corrupt *errs.CorruptLog
	if errors.As(err, &corrupt) {
		failure := errs.Store(corrupt, "")
		return t.s.textEnding(t.runID, &runlog.Settled{State: runlog.StatusFailed, Failure: &failure})
	}
	if err != nil {
		return err
	}
	return t.ending
}
