package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
)

// heldResult is section 5 of the report.
type heldResult struct {
	// Runs is how many Runs were suspended, then resumed.
	Runs int `json:"runs"`
	// IdleRSSMB is the fresh server's RSS before any Run.
	IdleRSSMB float64 `json:"idleRssMB"`
	// SuspendSeconds is how long starting all Runs until all suspended took.
	SuspendSeconds float64 `json:"suspendSeconds"`
	// RSSMB and HWMMB are VmRSS and VmHWM with every Run suspended.
	RSSMB float64 `json:"rssMB"`
	HWMMB float64 `json:"hwmMB"`
	// RestartSeconds is from starting the killed server's successor until
	// it reports SERVING; RestartRSSMB its RSS then.
	RestartSeconds float64 `json:"restartSeconds"`
	RestartRSSMB   float64 `json:"restartRssMB"`
	// ResumeSeconds is from the first ResumeRun until every Run completed,
	// at ResumeConcurrency; Completed of Runs did.
	ResumeSeconds     float64 `json:"resumeSeconds"`
	ResumePerSec      float64 `json:"resumeRunsPerSecond"`
	ResumeConcurrency int     `json:"resumeConcurrency"`
	Completed         int     `json:"completed"`
	// AfterResumeHWMMB is the restarted server's peak RSS.
	AfterResumeHWMMB float64 `json:"afterResumeHwmMB"`
}

// serveProc is a `runsvc serve` process.
type serveProc struct {
	cmd  *exec.Cmd
	addr string
	conn *grpc.ClientConn
	runs runsvcv1.RunServiceClient
	done chan struct{}
}

// runHeld measures section 5: it suspends cfg.heldRuns Runs on a fresh
// `runsvc serve`, kills it, starts a successor on the same data and
// resumes every Run there.
func runHeld(ctx context.Context, cfg config) (*heldResult, error) {
	dir, err := os.MkdirTemp("", "runsvc-bench-held-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	bin, err := buildServe(ctx, cfg.moduleRoot, dir)
	if err != nil {
		return nil, err
	}
	data := filepath.Join(dir, "data")
	port, err := pgtest.FreePort()
	if err != nil {
		return nil, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	res := &heldResult{Runs: cfg.heldRuns, ResumeConcurrency: cfg.resumeConc}

	p, err := startServe(ctx, bin, addr, data, filepath.Join(dir, "serve-1.log"))
	if err != nil {
		return nil, err
	}
	stopped := false
	defer func() {
		if !stopped {
			p.kill()
		}
	}()
	if err := publish(ctx, runsvcv1.NewSpecServiceClient(p.conn), suspendSpec); err != nil {
		return nil, err
	}
	res.IdleRSSMB, _ = rssMB(p.cmd.Process.Pid)

	progress("held state: starting %d Runs that suspend", cfg.heldRuns)
	start := time.Now()
	runIDs, callIDs, err := suspendAll(ctx, p, cfg.heldRuns, cfg.resumeConc)
	if err != nil {
		return nil, fmt.Errorf("suspending Runs: %w", err)
	}
	res.SuspendSeconds = time.Since(start).Seconds()
	time.Sleep(2 * time.Second)
	if res.RSSMB, err = rssMB(p.cmd.Process.Pid); err != nil {
		return nil, err
	}
	res.HWMMB, _ = hwmMB(p.cmd.Process.Pid)

	progress("held state: killing and restarting runsvc")
	p.kill()
	stopped = true
	t0 := time.Now()
	q, err := startServe(ctx, bin, addr, data, filepath.Join(dir, "serve-2.log"))
	if err != nil {
		return nil, err
	}
	defer q.stop()
	res.RestartSeconds = time.Since(t0).Seconds()
	res.RestartRSSMB, _ = rssMB(q.cmd.Process.Pid)

	progress("held state: resuming %d Runs", cfg.heldRuns)
	start = time.Now()
	completed, err := resumeAll(ctx, q, runIDs, callIDs, cfg.resumeConc)
	res.ResumeSeconds = time.Since(start).Seconds()
	res.Completed = completed
	res.ResumePerSec = float64(res.Completed) / res.ResumeSeconds
	res.AfterResumeHWMMB, _ = hwmMB(q.cmd.Process.Pid)
	if err != nil {
		return res, fmt.Errorf("resuming Runs: %w", err)
	}
	return res, nil
}

// buildServe builds cmd/runsvc from moduleRoot into dir and returns the
// binary's path.
func buildServe(ctx context.Context, moduleRoot, dir string) (string, error) {
	bin := filepath.Join(dir, "runsvc")
	progress("held state: building cmd/runsvc")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/runsvc")
	build.Dir = moduleRoot
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/runsvc: %v\n%s", err, out)
	}
	return bin, nil
}

// suspendAll starts n bench-suspend Runs on p, conc at a time, waits until
// each is SUSPENDED on one tool call and returns their Run and call ids.
func suspendAll(ctx context.Context, p *serveProc, n, conc int) (runIDs, callIDs []string, err error) {
	callIDs = make([]string, n)
	runIDs = make([]string, n)
	err = forEach(ctx, n, conc, func(ctx context.Context, i int) error {
		resp, err := p.runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "bench-suspend", Input: "held " + strconv.Itoa(i)})
		if err != nil {
			return err
		}
		run, err := waitFor(ctx, p.runs, resp.GetRun().GetRunId(), true)
		if err != nil {
			return err
		}
		calls := run.GetSuspension().GetToolCalls()
		if run.GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED || len(calls) != 1 {
			return fmt.Errorf("run %s is %v with %d calls, want SUSPENDED on one", run.GetRunId(), run.GetState(), len(calls))
		}
		runIDs[i], callIDs[i] = run.GetRunId(), calls[0].GetCallId()
		return nil
	})
	return runIDs, callIDs, err
}

// resumeAll resumes each suspended Run on q with its call's result, conc
// at a time, and returns how many COMPLETED before the first error.
func resumeAll(ctx context.Context, q *serveProc, runIDs, callIDs []string, conc int) (int, error) {
	var completed atomic.Int64
	output := structpb.NewStringValue("sunny")
	err := forEach(ctx, len(runIDs), conc, func(ctx context.Context, i int) error {
		_, err := q.runs.ResumeRun(ctx, &runsvcv1.ResumeRunRequest{RunId: runIDs[i], ToolResults: []*runsvcv1.ToolResult{{CallId: callIDs[i], Output: output}}})
		if err != nil {
			return err
		}
		run, err := waitFor(ctx, q.runs, runIDs[i], false)
		if err != nil {
			return err
		}
		if run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
			return fmt.Errorf("run %s settled %v: %v", runIDs[i], run.GetState(), run.GetFailure())
		}
		completed.Add(1)
		return nil
	})
	return int(completed.Load()), err
}

// startServe starts `runsvc serve`, with extra flags after its own, and
// returns once it reports SERVING.
func startServe(ctx context.Context, bin, addr, data, logPath string, extra ...string) (*serveProc, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, append([]string{"serve", "--listen", addr, "--data", data}, extra...)...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// The server dies with the benchmark, however that ends.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		_ = logFile.Close()
		return nil, err
	}
	p := &serveProc{cmd: cmd, addr: addr, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		_ = logFile.Close()
		close(p.done)
	}()
	// exited reports, with the log's tail, a process that ended before
	// it got as far as stage.
	exited := func(stage string) error {
		select {
		case <-p.done:
			log, _ := os.ReadFile(logPath)
			return fmt.Errorf("runsvc serve exited before %s:\n%s", stage, tail(string(log), 2000))
		default:
			return nil
		}
	}
	// Wait for the port first: a gRPC client dialled too early backs off
	// for a second, which would count as restart time.
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			_ = c.Close()
			break
		}
		if err := exited("listening"); err != nil {
			return nil, err
		}
		if time.Now().After(deadline) {
			p.kill()
			return nil, fmt.Errorf("runsvc serve not listening after 60s: %v", err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if p.conn, err = dial(addr); err != nil {
		p.kill()
		return nil, err
	}
	p.runs = runsvcv1.NewRunServiceClient(p.conn)
	health := healthpb.NewHealthClient(p.conn)
	for {
		hctx, cancel := context.WithTimeout(ctx, time.Second)
		resp, err := health.Check(hctx, &healthpb.HealthCheckRequest{})
		cancel()
		if err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_SERVING {
			return p, nil
		}
		if err := exited("serving"); err != nil {
			return nil, err
		}
		if time.Now().After(deadline) {
			p.kill()
			return nil, fmt.Errorf("runsvc serve not SERVING after 60s: %v", err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// kill ends the process with SIGKILL, as a crash would.
func (p *serveProc) kill() {
	if p.conn != nil {
		_ = p.conn.Close()
	}
	_ = p.cmd.Process.Kill()
	<-p.done
}

// stop asks the process to drain with SIGTERM and kills it after 30s.
func (p *serveProc) stop() {
	if p.conn != nil {
		_ = p.conn.Close()
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// forEach calls fn for 0..n-1 on conc goroutines and returns the first
// error, after which it starts no more calls.
func forEach(ctx context.Context, n, conc int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next     atomic.Int64
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				if err := fn(ctx, i); err != nil {
					once.Do(func() { firstErr = err; cancel() })
					return
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// rssMB reads VmRSS of a process, in MB (10^6 bytes).
func rssMB(pid int) (float64, error) { return procStatus(pid, "VmRSS:") }

// hwmMB reads VmHWM (peak RSS) of a process, in MB.
func hwmMB(pid int) (float64, error) { return procStatus(pid, "VmHWM:") }

func procStatus(pid int, field string) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, field) {
			f := strings.Fields(line[len(field):])
			if len(f) >= 1 {
				kb, err := strconv.ParseFloat(f[0], 64)
				return kb * 1024 / 1e6, err
			}
		}
	}
	return 0, fmt.Errorf("/proc/%d/status has no %s", pid, field)
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
