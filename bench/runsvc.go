package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// toolSpec is the scripted Run of the Runs phase: one turn asking for
// three worker-tool calls, then the answer.
const toolSpec = `{"name": "bench-tools", "instructions": "Use the tool three times, then answer.",
 "model": {"provider": "scripted", "script": {"turns": [
   {"text": "Looking.", "toolCalls": [
     {"name": "step", "arguments": {"i": 1}},
     {"name": "step", "arguments": {"i": 2}},
     {"name": "step", "arguments": {"i": 3}}],
    "usage": {"inputTokens": 40, "outputTokens": 12}},
   {"text": "Done after three steps.", "usage": {"inputTokens": 60, "outputTokens": 6}}]}},
 "tools": [{"name": "step", "kind": "TOOL_KIND_WORKER", "description": "One step."}]}`

// suspendSpec suspends on a client tool; its resume completes it.
const suspendSpec = `{"name": "bench-suspend", "instructions": "Ask the client.",
 "model": {"provider": "scripted", "script": {"turns": [
   {"toolCalls": [{"name": "lookup", "arguments": {"q": "weather"}}]},
   {"text": "It is sunny."}]}},
 "tools": [{"name": "lookup", "kind": "TOOL_KIND_CLIENT", "description": "Look things up"}]}`

// inproc is a runsvc assembled in this process the way `runsvc serve`
// assembles it (server.New with serve's defaults), with clients.
type inproc struct {
	addr string
	// metricsAddr is where /metrics is served, when configured.
	metricsAddr string
	// consoleURL is where the web console is served, when configured.
	consoleURL string
	// httpURL is where the HTTP API is served, when configured.
	httpURL string
	conn    *grpc.ClientConn
	runs    runsvcv1.RunServiceClient
	specs   runsvcv1.SpecServiceClient
	tools   runsvcv1.ToolServiceClient
	worker  *worker // startToolsInproc's; nil from startInproc
	cancel  context.CancelFunc
	done    chan error
	dir     string
}

// startInproc starts a runsvc on SQLite in a fresh temporary directory,
// or on store (a postgres:// URL) when set. Its log goes to a file in
// that directory, as JSON at info, like serve's.
func startInproc(store string) (*inproc, error) { return startInprocWith(store, nil) }

// startInprocWith is startInproc with the configuration changed by opt.
func startInprocWith(store string, opt func(*server.Config)) (*inproc, error) {
	dir, err := os.MkdirTemp("", "runsvc-bench-")
	if err != nil {
		return nil, err
	}
	logFile, err := os.Create(dir + "/runsvc.log")
	if err != nil {
		return nil, err
	}
	log, sink, err := server.NewLogger(logFile, "info", "json")
	if err != nil {
		return nil, err
	}
	cfg := server.Config{Listen: "127.0.0.1:0", Data: dir + "/data", Store: store, PoolSize: 16, WorkerID: "bench"}
	if opt != nil {
		opt(&cfg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := server.New(ctx, cfg, log)
	if err != nil {
		cancel()
		_ = sink.Close()
		_ = logFile.Close()
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("starting runsvc: %w", err)
	}
	p := &inproc{addr: srv.Addr(), metricsAddr: srv.MetricsAddr(), consoleURL: srv.ConsoleURL(), httpURL: srv.HTTPURL(), cancel: cancel, done: make(chan error, 1), dir: dir}
	go func() {
		p.done <- srv.Serve(ctx)
		_ = sink.Close()
		_ = logFile.Close()
	}()
	if p.conn, err = dial(p.addr); err != nil {
		p.stop()
		return nil, err
	}
	p.runs = runsvcv1.NewRunServiceClient(p.conn)
	p.specs = runsvcv1.NewSpecServiceClient(p.conn)
	p.tools = runsvcv1.NewToolServiceClient(p.conn)
	return p, nil
}

// startToolsInproc starts a runsvc as startInproc does, with a worker
// serving toolSpec's tool and toolSpec published: what the Runs phase's
// Spec needs. stop stops the worker too.
func startToolsInproc(ctx context.Context, store string) (*inproc, error) {
	return startToolsInprocWith(ctx, store, nil)
}

// startToolsInprocWith is startToolsInproc with the configuration changed
// by opt.
func startToolsInprocWith(ctx context.Context, store string, opt func(*server.Config)) (*inproc, error) {
	p, err := startInprocWith(store, opt)
	if err != nil {
		return nil, err
	}
	if p.worker, err = startWorker(p.tools, "step"); err != nil {
		p.stop()
		return nil, err
	}
	if err := publish(ctx, p.specs, toolSpec); err != nil {
		p.stop()
		return nil, err
	}
	return p, nil
}

// stop stops the worker if any, drains the server and removes its
// directory.
func (p *inproc) stop() {
	if p.worker != nil {
		p.worker.stop()
	}
	if p.conn != nil {
		_ = p.conn.Close()
	}
	p.cancel()
	select {
	case <-p.done:
	case <-time.After(60 * time.Second):
		progress("runsvc in %s did not stop within 60s", p.dir)
	}
	_ = os.RemoveAll(p.dir)
}

func dial(addr string) (*grpc.ClientConn, error) {
	return grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
}

// publish publishes a Spec written as protojson.
func publish(ctx context.Context, specs runsvcv1.SpecServiceClient, specJSON string) error {
	sp := &runsvcv1.Spec{}
	if err := protojson.Unmarshal([]byte(specJSON), sp); err != nil {
		return fmt.Errorf("spec JSON: %w", err)
	}
	_, err := specs.PublishSpec(ctx, &runsvcv1.PublishSpecRequest{Spec: sp})
	return err
}

// settled reports whether a Run is in a final state.
func settled(s runsvcv1.RunState) bool {
	switch s {
	case runsvcv1.RunState_RUN_STATE_COMPLETED, runsvcv1.RunState_RUN_STATE_FAILED,
		runsvcv1.RunState_RUN_STATE_ABORTED, runsvcv1.RunState_RUN_STATE_ABANDONED:
		return true
	}
	return false
}

// waitFor calls WaitRun until the Run settles, or also suspends when
// suspended is true, and returns it.
func waitFor(ctx context.Context, runs runsvcv1.RunServiceClient, runID string, suspended bool) (*runsvcv1.Run, error) {
	for {
		resp, err := runs.WaitRun(ctx, &runsvcv1.WaitRunRequest{RunId: runID, Wait: durationpb.New(30 * time.Second)})
		if err != nil {
			return nil, err
		}
		run := resp.GetRun()
		if settled(run.GetState()) || (suspended && run.GetState() == runsvcv1.RunState_RUN_STATE_SUSPENDED) {
			return run, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
}

// startAndSettle starts a Run of spec and waits until it settles
// COMPLETED; it returns the settled Run.
func startAndSettle(ctx context.Context, runs runsvcv1.RunServiceClient, spec string) (*runsvcv1.Run, error) {
	resp, err := runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: spec, Input: "go"})
	if err != nil {
		return nil, err
	}
	run, err := waitFor(ctx, runs, resp.GetRun().GetRunId(), false)
	if err != nil {
		return nil, err
	}
	if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
		return run, fmt.Errorf("run %s settled %v: %v", run.GetRunId(), run.GetState(), run.GetFailure())
	}
	return run, nil
}

// worker is a Go tool worker on ServeTools that answers every call at
// once with a constant result, so that the measurement is runsvc's.
type worker struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// startWorker registers a worker serving tools and returns once runsvc
// acknowledged it.
func startWorker(client runsvcv1.ToolServiceClient, tools ...string) (*worker, error) {
	ctx, cancel := context.WithCancel(context.Background())
	w := &worker{cancel: cancel, done: make(chan struct{})}
	stream, err := client.ServeTools(ctx)
	if err != nil {
		cancel()
		return nil, err
	}
	reg := &runsvcv1.ServeToolsRequest_Register{WorkerName: "bench-worker", MaxConcurrency: 4096}
	for _, t := range tools {
		reg.Tools = append(reg.Tools, &runsvcv1.ToolDefinition{Name: t})
	}
	if err := testserver.Register(stream, reg); err != nil {
		cancel()
		return nil, err
	}
	output := structpb.NewStringValue("ok")
	go func() {
		defer close(w.done)
		testserver.ServeCalls(stream, func(c *runsvcv1.ServeToolsResponse_Call) bool {
			res := &runsvcv1.ServeToolsRequest_Result{CallId: c.GetCallId(), Output: output}
			return stream.Send(&runsvcv1.ServeToolsRequest{Message: &runsvcv1.ServeToolsRequest_Result_{Result: res}}) == nil
		})
	}()
	return w, nil
}

func (w *worker) stop() {
	w.cancel()
	<-w.done
}
