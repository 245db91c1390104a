package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protojson"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// toolExitRetryable is the exit code (EX_TEMPFAIL) by which a served
// command says its failure is worth retrying.
const toolExitRetryable = 75

func (a *app) toolServe(ctx context.Context, args []string) error {
	fs := a.flags()
	command := fs.String("exec", "", "the shell `COMMAND` answering each call (required): arguments as JSON on stdin, the result on stdout, JSON or text; a non-zero exit is a tool error, retryable for exit code 75")
	description := fs.String("description", "", "the tool's description, a `TEXT` for models")
	concurrency := fs.Int("concurrency", 1, "run at most `N` calls at once")
	worker := fs.String("worker-name", "", "the worker's `NAME`, for runsvc's logs")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if *command == "" {
		return usagef("tool serve needs --exec COMMAND")
	}
	if *concurrency < 1 {
		return usagef("--concurrency must be at least 1")
	}
	if err := a.connect(); err != nil {
		return err
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := runsvcv1.NewToolServiceClient(a.conn).ServeTools(sctx)
	if err != nil {
		return err
	}
	reg := &runsvcv1.ServeToolsRequest_Register{WorkerName: *worker, MaxConcurrency: int32(*concurrency),
		Tools: []*runsvcv1.ToolDefinition{{Name: pos[0], Description: *description}}}
	if err := stream.Send(&runsvcv1.ServeToolsRequest{Message: &runsvcv1.ServeToolsRequest_Register_{Register: reg}}); err != nil {
		return streamEnded(ctx, "tool serve", err)
	}
	first, err := stream.Recv()
	if err != nil {
		return streamEnded(ctx, "tool serve", err)
	}
	if a.json {
		err = a.printJSON(first)
	} else {
		_, err = fmt.Fprintf(a.stdout, "serving tool %s as worker %s; stop with Ctrl-C\n", pos[0], first.GetRegistered().GetWorkerId())
	}
	if err != nil {
		return err
	}
	s := &toolServer{a: a, stream: stream, command: *command, running: map[string]context.CancelFunc{}}
	return s.serve(sctx)
}

// toolServer answers the calls of one ServeTools stream by running a
// shell command for each.
type toolServer struct {
	a       *app
	stream  grpc.BidiStreamingClient[runsvcv1.ServeToolsRequest, runsvcv1.ServeToolsResponse]
	command string

	mu      sync.Mutex // guards running, stream.Send and stdout
	running map[string]context.CancelFunc
	wg      sync.WaitGroup
}

// serve handles calls and cancels until the stream ends, then stops the
// commands still running.
func (s *toolServer) serve(ctx context.Context) error {
	defer s.wg.Wait()
	for {
		msg, err := s.stream.Recv()
		if err != nil {
			s.mu.Lock()
			for _, cancel := range s.running {
				cancel()
			}
			s.mu.Unlock()
			return streamEnded(ctx, "tool serve", err)
		}
		switch m := msg.GetMessage().(type) {
		case *runsvcv1.ServeToolsResponse_Call_:
			s.start(ctx, m.Call)
		case *runsvcv1.ServeToolsResponse_Cancel_:
			s.mu.Lock()
			if cancel, ok := s.running[m.Cancel.GetCallId()]; ok {
				cancel()
			}
			s.mu.Unlock()
		}
	}
}

// start runs the command for one call and sends its result, unless the
// call was cancelled meanwhile.
func (s *toolServer) start(ctx context.Context, call *runsvcv1.ServeToolsResponse_Call) {
	cctx, cancel := context.WithCancel(ctx)
	if dl := call.GetDeadlineTime(); dl != nil {
		cctx, cancel = context.WithDeadline(ctx, dl.AsTime())
	}
	s.mu.Lock()
	s.running[call.GetCallId()] = cancel
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		began := time.Now()
		res := runToolCommand(cctx, s.command, call)
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.running, call.GetCallId())
		if errors.Is(cctx.Err(), context.Canceled) {
			return
		}
		outcome := "returned"
		if res.GetError() != nil {
			outcome = "failed: " + res.GetError().GetMessage()
		}
		if !s.a.json {
			fmt.Fprintf(s.a.stdout, "%s call %s %s after %s\n", time.Now().Local().Format(stampLayout), call.GetCallId(), outcome, elapsed(time.Since(began)))
		}
		_ = s.stream.Send(&runsvcv1.ServeToolsRequest{Message: &runsvcv1.ServeToolsRequest_Result_{Result: res}})
	}()
}

// runToolCommand runs command with sh for one call: the arguments on
// stdin, the call in RUNSVC_TOOL, RUNSVC_CALL_ID and RUNSVC_RUN_ID.
func runToolCommand(ctx context.Context, command string, call *runsvcv1.ServeToolsResponse_Call) *runsvcv1.ServeToolsRequest_Result {
	res := &runsvcv1.ServeToolsRequest_Result{CallId: call.GetCallId()}
	args := []byte("{}")
	if call.GetArguments() != nil {
		if b, err := protojson.Marshal(call.GetArguments()); err == nil {
			args = b
		}
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Stdin = bytes.NewReader(args)
	cmd.Env = append(os.Environ(), "RUNSVC_TOOL="+call.GetName(), "RUNSVC_CALL_ID="+call.GetCallId(), "RUNSVC_RUN_ID="+call.GetRunId())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		msg := lastLine(stderr.String())
		if msg == "" {
			msg = "the command failed: " + err.Error()
		}
		var exit *exec.ExitError
		retryable := errors.As(err, &exit) && exit.ExitCode() == toolExitRetryable
		res.Error = &runsvcv1.ToolError{Message: msg, Retryable: retryable}
		return res
	}
	res.Output = jsonOrText(strings.TrimSuffix(stdout.String(), "\n"), false)
	return res
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
