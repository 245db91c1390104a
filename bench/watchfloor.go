package main

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// fanoutFloor is what the watch phase's watchers and pace get from a bare
// grpc-go server whose WatchRun does the least a fan-out can: no store,
// no interceptors, each record encoded once (grpc.PreparedMsg) and every
// stream's goroutine woken by one broadcast. runsvc's watch is judged
// against it: the part of the latency that is grpc-go's and this
// machine's, both sides of the connection in one process.
type fanoutFloor struct {
	// Latency is from a record's time (set when it is added) to its
	// receipt by a watcher; Delivered counts receipts out of Expected.
	Latency   dist `json:"latency"`
	Delivered int  `json:"delivered"`
	Expected  int  `json:"expected"`
	// AppendsPerSec is the pace the records were added at.
	AppendsPerSec float64 `json:"appendsPerSecond"`
	// Cost is the process's CPU and allocations per delivery.
	Cost perDelivery `json:"cost"`
}

// broadcastRuns is the floor's RunService: WatchRun streams the records
// added so far from the asked seq, then each one as it is added.
type broadcastRuns struct {
	runsvcv1.UnimplementedRunServiceServer
	// mu guards the fields below it; added is broadcast on each record
	// and when a stream ends.
	mu      sync.Mutex
	added   *sync.Cond
	records []*runsvcv1.WatchRunResponse
	// encoded holds each record's wire form, made by the first stream
	// that sends it.
	encoded []*grpc.PreparedMsg
}

func newBroadcastRuns() *broadcastRuns {
	b := &broadcastRuns{}
	b.added = sync.NewCond(&b.mu)
	return b
}

// add appends a record stamped now and wakes every stream; it returns the
// record's seq.
func (b *broadcastRuns) add() int64 {
	b.mu.Lock()
	seq := int64(len(b.records))
	b.records = append(b.records, &runsvcv1.WatchRunResponse{Record: &runsvcv1.Record{
		Seq: seq, Time: timestamppb.Now(),
		Body: &runsvcv1.Record_MessageQueued_{MessageQueued: &runsvcv1.Record_MessageQueued{Text: "tick"}},
	}})
	b.encoded = append(b.encoded, nil)
	b.mu.Unlock()
	b.added.Broadcast()
	return seq
}

// next waits for record seq and returns it encoded, or nil once the
// stream's context ends.
func (b *broadcastRuns) next(ctx context.Context, s grpc.ServerStream, seq int64) (*grpc.PreparedMsg, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for int64(len(b.records)) <= seq {
		if ctx.Err() != nil {
			return nil, nil
		}
		b.added.Wait()
	}
	if b.encoded[seq] == nil {
		m := &grpc.PreparedMsg{}
		if err := m.Encode(s, b.records[seq]); err != nil {
			return nil, err
		}
		b.encoded[seq] = m
	}
	return b.encoded[seq], nil
}

// WatchRun streams every record from req's seq until the client leaves.
func (b *broadcastRuns) WatchRun(req *runsvcv1.WatchRunRequest, s grpc.ServerStreamingServer[runsvcv1.WatchRunResponse]) error {
	ctx := s.Context()
	stop := context.AfterFunc(ctx, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.added.Broadcast()
	})
	defer stop()
	for seq := req.GetFromSeq(); ; seq++ {
		m, err := b.next(ctx, s, seq)
		if m == nil || err != nil {
			return err
		}
		if err := s.SendMsg(m); err != nil {
			return err
		}
	}
}

// measureFanoutFloor runs n of the watch phase's watchers on a bare
// grpc-go broadcastRuns on 127.0.0.1, adding records at rate per second
// for d, the way measureWatch measures runsvc.
func measureFanoutFloor(ctx context.Context, n int, rate float64, d time.Duration) (*fanoutFloor, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	b := newBroadcastRuns()
	srv := grpc.NewServer()
	runsvcv1.RegisterRunServiceServer(srv, b)
	go func() { _ = srv.Serve(lis) }()
	defer srv.Stop()
	conn, err := dial(lis.Addr().String())
	if err != nil {
		return nil, err
	}
	defer conn.Close()

	from := b.add()
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ws := openWatchers(wctx, runsvcv1.NewRunServiceClient(conn), "floor", from, n, int(rate*d.Seconds())+16)
	if ws.setupErr != nil {
		return nil, fmt.Errorf("opening %d watchers on the fan-out floor: %w", n, ws.setupErr)
	}
	before := costNow()
	addLat, last, elapsed, _ := tickAppends(rate, d, func() (int64, error) { return b.add(), nil })
	ws.waitCaughtUp(last, 10*time.Second)
	f := &fanoutFloor{Cost: before.since(int(last-from) * n), AppendsPerSec: float64(len(addLat)) / elapsed.Seconds()}
	cancel()
	ws.done.Wait()
	f.Delivered, f.Expected, f.Latency = len(ws.lat), int(last-from)*n, distribution(ws.lat)
	return f, nil
}
