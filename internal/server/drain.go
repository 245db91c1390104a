package server

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/service"
)

// ResumeSeqTrailer is the trailer of a WatchRun ended by a drain: the seq
// to pass as from_seq when reconnecting.
const ResumeSeqTrailer = "runsvc-resume-seq"

// drainRetry is the RetryInfo delay of a stream ended by a drain: long
// enough for a restart or for the balancer to pick another replica.
const drainRetry = time.Second

// drainer ends runsvc's long streams at once when the server drains, each
// with TRANSIENT_FAILURE (UNAVAILABLE + RetryInfo) and, for WatchRun, the
// seq to resume from. Unary calls are left to finish.
type drainer struct {
	once sync.Once
	done chan struct{}
}

func newDrainer() *drainer { return &drainer{done: make(chan struct{})} }

// drain ends every stream, present and future.
func (d *drainer) drain() { d.once.Do(func() { close(d.done) }) }

// StreamServerInterceptor runs a stream's handler under a context that
// the drain cancels, then answers for it. grpc's own services end too.
func (d *drainer) StreamServerInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx, cancel := context.WithCancel(ss.Context())
		defer cancel()
		ts := &trackedStream{ServerStream: ss, ctx: ctx}
		ended := make(chan error, 1)
		go func() { ended <- handler(srv, ts) }()
		select {
		case err := <-ended:
			return err
		case <-d.done:
		}
		select {
		case err := <-ended:
			return err // it ended by itself as the drain began
		default:
		}
		cancel()
		<-ended
		if strings.HasPrefix(info.FullMethod, "/grpc.") {
			return nil
		}
		return ts.drained(info.FullMethod)
	}
}

// trackedStream remembers where a WatchRun has got to.
type trackedStream struct {
	grpc.ServerStream
	ctx  context.Context
	next atomic.Int64 // the seq to resume from; 0 until known
}

// Context returns the drainable context.
func (s *trackedStream) Context() context.Context { return s.ctx }

// RecvMsg notes a WatchRun's starting seq.
func (s *trackedStream) RecvMsg(m any) error {
	err := s.ServerStream.RecvMsg(m)
	if r, ok := m.(*runsvcv1.WatchRunRequest); ok && err == nil {
		s.next.CompareAndSwap(0, max(r.GetFromSeq(), 1))
	}
	return err
}

// SendMsg notes the seq after each Record sent, as a message or already
// encoded (a *service.Encoded).
func (s *trackedStream) SendMsg(m any) error {
	err := s.ServerStream.SendMsg(m)
	if err != nil {
		return err
	}
	switch r := m.(type) {
	case *service.Encoded:
		if seq := r.RecordSeq(); seq > 0 {
			s.next.Store(seq + 1)
		}
	case *runsvcv1.WatchRunResponse:
		if r.GetRecord() != nil {
			s.next.Store(r.GetRecord().GetSeq() + 1)
		}
	}
	return nil
}

// drained is the error a drained stream ends with.
func (s *trackedStream) drained(method string) error {
	name := method[strings.LastIndex(method, "/")+1:]
	msg := "the server is draining; reconnect"
	if next := s.next.Load(); next > 0 {
		s.SetTrailer(metadata.Pairs(ResumeSeqTrailer, strconv.FormatInt(next, 10)))
		msg = fmt.Sprintf("the server is draining; reconnect with from_seq %d", next)
	}
	return &errs.TransientFailure{Operation: name, Message: msg, RetryAfter: drainRetry}
}
