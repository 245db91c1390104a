// Package blackbox runs the built runsvc binary the way a user does: as a
// process with flags, a data directory and a port, killed and restarted.
package blackbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/runsvc/runsvc/internal/testing/testserver"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// Binary builds runsvc once per test process and returns its path.
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "runsvc-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "runsvc")
		cmd := exec.Command("go", "build", "-o", binPath, "github.com/runsvc/runsvc/cmd/runsvc")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// FreePort returns a free 127.0.0.1 address.
func FreePort(t testing.TB) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	_ = lis.Close()
	return addr
}

// Process is a running `runsvc serve`.
type Process struct {
	Addr string
	cmd  *exec.Cmd
	log  *testserver.Buffer
	done chan struct{}
}

// Serve starts `runsvc serve --listen addr` with extra args and waits
// until it reports SERVING on the health service. It is killed when the
// test ends.
func Serve(t testing.TB, addr string, args ...string) *Process {
	t.Helper()
	p := Start(t, addr, args...)
	if err := WaitHealthy(addr, 30*time.Second); err != nil {
		p.Kill()
		t.Fatalf("runsvc never became healthy: %v\n%s", err, p.Log())
	}
	return p
}

// Start starts `runsvc serve --listen addr` with extra args without
// waiting for it to serve, for tests that act on what it does at start.
// It is killed when the test ends.
func Start(t testing.TB, addr string, args ...string) *Process {
	t.Helper()
	cmd := exec.Command(Binary(t), append([]string{"serve", "--listen", addr}, args...)...)
	p := &Process{Addr: addr, cmd: cmd, log: &testserver.Buffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.log, p.log
	cmd.Env = append(os.Environ(), "RUNSVC_LOG_FORMAT=json")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.Kill() })
	return p
}

// Log returns what the process printed.
func (p *Process) Log() string { return p.log.String() }

// Kill sends SIGKILL and waits for the process to die.
func (p *Process) Kill() {
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
	}
	<-p.done
}

// Stop sends SIGTERM and waits for a graceful exit, returning its exit
// code.
func (p *Process) Stop(t testing.TB) int {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		t.Fatal("runsvc did not stop within 30s of SIGTERM")
	}
	return p.cmd.ProcessState.ExitCode()
}

// Dial connects to the process.
func (p *Process) Dial(t testing.TB) *grpc.ClientConn {
	t.Helper()
	return testserver.Dial(t, p.Addr)
}

// WaitHealthy polls the health service until it reports SERVING.
func WaitHealthy(addr string, within time.Duration) error {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	client := healthpb.NewHealthClient(conn)
	deadline := time.Now().Add(within)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		resp, err := client.Check(ctx, &healthpb.HealthCheckRequest{})
		cancel()
		if err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_SERVING {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not healthy after %v: %v", within, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Root returns the repository root.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// NewClient opens a client connection the caller closes.
func NewClient(addr string) *grpc.ClientConn {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		panic(err)
	}
	return conn
}
