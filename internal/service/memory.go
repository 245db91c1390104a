package service

import (
	"context"
	"errors"
	"time"

	"google.golang.org/grpc"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/memory"
	"github.com/runsvc/runsvc/internal/store"
)

type memoryServer struct {
	runsvcv1.UnimplementedMemoryServiceServer
	*Service
}

func (s memoryServer) namespace(ctx context.Context, sc *runsvcv1.MemoryScope) (string, error) {
	return s.memory.Resolve(ctx, tenantOf(ctx), memory.Scope{RunID: sc.GetRunId(), Namespace: sc.GetNamespace()})
}

func (s memoryServer) SetValue(ctx context.Context, req *runsvcv1.SetValueRequest) (*runsvcv1.SetValueResponse, error) {
	ns, err := s.namespace(ctx, req.GetScope())
	if err != nil {
		return nil, err
	}
	value, err := portableJSON("value", req.GetValue())
	if err != nil {
		return nil, err
	}
	e, err := s.memory.Set(ctx, tenantOf(ctx), ns, req.GetKey(), value)
	if err != nil {
		return nil, err
	}
	return &runsvcv1.SetValueResponse{Entry: entryToProto(e)}, nil
}

func (s memoryServer) GetValue(ctx context.Context, req *runsvcv1.GetValueRequest) (*runsvcv1.GetValueResponse, error) {
	wait, err := durationArg("wait", req.GetWait())
	if err != nil {
		return nil, err
	}
	ns, err := s.namespace(ctx, req.GetScope())
	if err != nil {
		return nil, err
	}
	entries, err := s.getBeforeDeadline(ctx, ns, req.GetKeys(), wait)
	if err != nil {
		return nil, err
	}
	out := &runsvcv1.GetValueResponse{}
	for _, e := range entries {
		out.Entries = append(out.Entries, entryToProto(e))
	}
	return out, nil
}

// getBeforeDeadline reads keys, waiting up to wait for missing ones but
// ending just before the caller's deadline: with AWAIT_TIMEOUT for the
// keys still missing then.
func (s memoryServer) getBeforeDeadline(ctx context.Context, ns string, keys []string, wait time.Duration) ([]store.Entry, error) {
	if wait <= 0 || wait > memory.MaxWait {
		return s.memory.Get(ctx, tenantOf(ctx), ns, keys, wait)
	}
	began := time.Now()
	short, cancel := beforeDeadline(ctx)
	defer cancel()
	entries, err := s.memory.Get(short, tenantOf(ctx), ns, keys, waitLeft(ctx, wait))
	if short.Err() == nil || ctx.Err() != nil || !errors.Is(err, short.Err()) {
		return entries, err
	}
	if entries, err = s.memory.Get(ctx, tenantOf(ctx), ns, keys, 0); err != nil {
		return nil, err
	}
	found := map[string]bool{}
	for _, e := range entries {
		found[e.Key] = true
	}
	var missing []string
	for _, k := range keys {
		if !found[k] {
			missing = append(missing, k)
		}
	}
	if len(missing) == 0 {
		return entries, nil
	}
	return nil, &errs.AwaitTimeout{Key: missing[0], Namespace: ns, Wait: time.Since(began).Round(time.Millisecond), MissingKeys: missing}
}

func (s memoryServer) WatchMemory(req *runsvcv1.WatchMemoryRequest, stream grpc.ServerStreamingServer[runsvcv1.WatchMemoryResponse]) error {
	ctx := stream.Context()
	ns, err := s.namespace(ctx, req.GetScope())
	if err != nil {
		return err
	}
	return s.memory.Watch(ctx, tenantOf(ctx), ns, req.GetPatterns(), req.GetIncludeExisting(), func(e store.Entry) error {
		return stream.Send(&runsvcv1.WatchMemoryResponse{Entry: entryToProto(e)})
	})
}

func entryToProto(e store.Entry) *runsvcv1.MemoryEntry {
	return &runsvcv1.MemoryEntry{Key: e.Key, Value: toValue(e.Value), Version: e.Version, UpdateTime: ts(e.UpdateTime)}
}
