package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// deltaPieceLen is the length of every streamed piece, "pNNNN ", so that
// a message's offset names the piece it ends with.
const deltaPieceLen = 6

// deltasPhase is the delivery latency of streamed pieces to one number of
// StreamText watchers.
type deltasPhase struct {
	Watchers int `json:"watchers"`
	// Pieces is how many pieces the model streamed, Interval apart.
	Pieces     int     `json:"pieces"`
	IntervalMs float64 `json:"intervalMs"`
	// Delivered counts (watcher, piece) receipts out of Expected.
	Delivered int `json:"delivered"`
	Expected  int `json:"expected"`
	// Latency is from the model server writing a piece to a watcher
	// receiving the StreamText message that ends with it.
	Latency dist `json:"latency"`
	// Cost is the process's CPU and allocations per expected delivery,
	// from the first piece after piece 0 to the last watcher's end.
	Cost perDelivery `json:"cost"`
}

// deltasResult is section 4b of the report.
type deltasResult struct {
	Phases []deltasPhase `json:"phases"`
}

// pieceServer is an OpenAI-compatible model server on 127.0.0.1 that
// streams piece 0, waits until told to go on, then streams the rest
// interval apart, noting when it wrote each.
type pieceServer struct {
	srv      *http.Server
	url      string
	n        int
	interval time.Duration
	goOn     chan struct{}
	mu       sync.Mutex
	sentAt   []time.Time
}

func startPieceServer(n int, interval time.Duration) (*pieceServer, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &pieceServer{url: "http://" + l.Addr().String() + "/v1", n: n, interval: interval, goOn: make(chan struct{}), sentAt: make([]time.Time, n)}
	p.srv = &http.Server{Handler: http.HandlerFunc(p.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = p.srv.Serve(l) }()
	return p, nil
}

func (p *pieceServer) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	fl, _ := w.(http.Flusher)
	write := func(data string) {
		_, _ = fmt.Fprintf(w, "data: %s\n\n", data)
		if fl != nil {
			fl.Flush()
		}
	}
	chunk := func(delta, finish string) string {
		return `{"id":"b","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}`
	}
	tick := time.NewTicker(p.interval)
	defer tick.Stop()
	for i := range p.n {
		if i == 1 {
			select {
			case <-p.goOn:
			case <-r.Context().Done():
				return
			}
			tick.Reset(p.interval)
		}
		if i > 0 {
			<-tick.C
		}
		p.mu.Lock()
		p.sentAt[i] = time.Now()
		p.mu.Unlock()
		write(chunk(fmt.Sprintf(`{"content":"p%04d "}`, i), "null"))
	}
	write(chunk(`{}`, `"stop"`))
	write(`{"id":"b","object":"chat.completion.chunk","created":1,"model":"bench","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":` + strconv.Itoa(p.n) + `,"total_tokens":` + strconv.Itoa(p.n+10) + `}}`)
	write("[DONE]")
}

func (p *pieceServer) sent(i int) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	if i < 0 || i >= len(p.sentAt) {
		return time.Time{}
	}
	return p.sentAt[i]
}

func (p *pieceServer) stop() { _ = p.srv.Close() }

// runDeltas measures provider piece -> StreamText receipt with each number
// of watchers of one Run.
func runDeltas(ctx context.Context, cfg config) (*deltasResult, error) {
	rs, err := startInproc("")
	if err != nil {
		return nil, err
	}
	defer rs.stop()
	res := &deltasResult{}
	for _, n := range []int{1, 100} {
		progress("deltas: %d watchers", n)
		ph, err := measureDeltas(ctx, rs, n, cfg.deltaPieces, 10*time.Millisecond)
		if err != nil {
			return nil, err
		}
		progress("deltas: %d watchers: %.1f µs CPU and %.1f allocations per delivery, %d GCs", n, ph.Cost.CPUMicros, ph.Cost.Allocs, ph.Cost.GCs)
		res.Phases = append(res.Phases, ph)
	}
	return res, nil
}

// measureDeltas starts a Run on a fresh piece server, opens n StreamText
// watchers, lets the pieces flow once each has piece 0, and measures each
// receipt.
func measureDeltas(ctx context.Context, rs *inproc, n, pieces int, interval time.Duration) (deltasPhase, error) {
	ph := deltasPhase{Watchers: n, Pieces: pieces, IntervalMs: float64(interval) / float64(time.Millisecond), Expected: n * (pieces - 1)}
	model, err := startPieceServer(pieces, interval)
	if err != nil {
		return ph, err
	}
	defer model.stop()
	name := fmt.Sprintf("bench-deltas-%d", n)
	spec := &runsvcv1.Spec{Name: name, Model: &runsvcv1.ModelRef{Provider: "openai", Model: "bench", BaseUrl: model.url}}
	if _, err := rs.specs.PublishSpec(ctx, &runsvcv1.PublishSpecRequest{Spec: spec}); err != nil {
		return ph, err
	}
	started, err := rs.runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: name, Input: "stream"})
	if err != nil {
		return ph, err
	}
	id := started.GetRun().GetRunId()
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var ready, done sync.WaitGroup
	var mu sync.Mutex
	var lat []time.Duration
	var setupErr error
	for range n {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			mine, err := watchPieces(wctx, rs.runs, id, &ready, model)
			mu.Lock()
			defer mu.Unlock()
			lat = append(lat, mine...)
			if err != nil && setupErr == nil {
				setupErr = err
			}
		}()
	}
	ready.Wait()
	before := costNow()
	close(model.goOn)
	done.Wait()
	ph.Cost = before.since(ph.Expected)
	if setupErr != nil {
		return ph, setupErr
	}
	ph.Delivered = len(lat)
	ph.Latency = distribution(lat)
	return ph, nil
}

// watchPieces is one StreamText watcher: ready once it has piece 0, then
// the latency of every later piece until the committed message.
func watchPieces(ctx context.Context, runs runsvcv1.RunServiceClient, id string, ready *sync.WaitGroup, model *pieceServer) ([]time.Duration, error) {
	once := sync.OnceFunc(ready.Done)
	defer once()
	stream, err := runs.StreamText(ctx, &runsvcv1.StreamTextRequest{RunId: id})
	if err != nil {
		return nil, err
	}
	var out []time.Duration
	for {
		msg, err := stream.Recv()
		if err != nil {
			return out, nil
		}
		at := time.Now()
		if msg.GetCommitted() {
			continue
		}
		end := int(msg.GetOffset()+int64(len(msg.GetText())))/deltaPieceLen - 1
		if end == 0 || msg.GetOffset() == 0 {
			once()
			continue
		}
		if sent := model.sent(end); !sent.IsZero() {
			out = append(out, at.Sub(sent))
		}
	}
}
