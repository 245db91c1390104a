package mcptool_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/tool/mcptool"
)

func TestServerStopped(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			srv := startServer(t, m.stateless)
			x := newExecutor(t)
			c := mcpCall(srv.url(), "echo", `{"text":"hi"}`)
			if _, err := x.Execute(testContext(t), c); err != nil {
				t.Fatalf("Execute before the stop: %v", err)
			}
			srv.stop()
			_, err := x.Execute(testContext(t), c)
			var mf *errs.MCPFailed
			if !errors.As(err, &mf) {
				t.Fatalf("error = %#v, want *errs.MCPFailed", err)
			}
			if _, retryable := errs.IsRetryable(err); !retryable {
				t.Errorf("error %v is not retryable", err)
			}
			// Usually the dial is refused; a pooled connection may fail first.
			if mf.Server != srv.url() || !strings.Contains(mf.Message, "connection") {
				t.Errorf("Server, Message = %q, %q, want the server and a failed connection", mf.Server, mf.Message)
			}
		})
	}
}

func TestServerDiesDuringCall(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			x := newExecutor(t) // closed after the server releases the call
			srv := startServer(t, m.stateless)
			errc := make(chan error, 1)
			go func() {
				_, err := x.Execute(testContext(t), mcpCall(srv.url(), "block", `{}`))
				errc <- err
			}()
			select {
			case <-srv.entered:
			case err := <-errc:
				t.Fatalf("Execute returned before the call began: %v", err)
			}
			srv.http.CloseClientConnections()
			err := <-errc
			var mf *errs.MCPFailed
			if !errors.As(err, &mf) {
				t.Fatalf("error = %#v, want *errs.MCPFailed", err)
			}
			if _, retryable := errs.IsRetryable(err); !retryable {
				t.Errorf("error %v is not retryable", err)
			}
			if !strings.Contains(mf.Message, "closed the connection") {
				t.Errorf("Message = %q, want a closed connection", mf.Message)
			}
			if n := len(srv.entered); n != 0 {
				t.Errorf("the call ran %d more times: a call the server received must not be sent again", n)
			}
		})
	}
}

func TestHTTPTimeout(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			x := mcptool.New(mcptool.Options{HTTPClient: &http.Client{Timeout: 300 * time.Millisecond}})
			t.Cleanup(x.Close) // after the server releases the call
			srv := startServer(t, m.stateless)
			_, err := x.Execute(testContext(t), mcpCall(srv.url(), "block", `{}`))
			var mf *errs.MCPFailed
			if !errors.As(err, &mf) {
				t.Fatalf("error = %#v, want *errs.MCPFailed", err)
			}
			if !strings.Contains(mf.Message, "in time") {
				t.Errorf("Message = %q, want a timeout", mf.Message)
			}
			if _, retryable := errs.IsRetryable(err); !retryable {
				t.Errorf("error %v is not retryable", err)
			}
		})
	}
}

func TestServerRestarted(t *testing.T) {
	for _, m := range modes {
		for _, failFirst := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/call while down=%v", m.name, failFirst), func(t *testing.T) {
				srv := startServer(t, m.stateless)
				x := newExecutor(t)
				c := mcpCall(srv.url(), "echo", `{"text":"again"}`)
				if _, err := x.Execute(testContext(t), c); err != nil {
					t.Fatalf("Execute before the restart: %v", err)
				}
				if failFirst {
					srv.stop()
					if _, err := x.Execute(testContext(t), c); err == nil {
						t.Fatal("Execute succeeded with the server down")
					}
					srv.start(srv.addr)
				} else {
					srv.restart()
				}
				out, err := x.Execute(testContext(t), c)
				if err != nil {
					t.Fatalf("Execute after the restart: %v", err)
				}
				if string(out) != `"again"` {
					t.Errorf("output = %s, want %q", out, "again")
				}
			})
		}
	}
}

func TestCallerContextEnds(t *testing.T) {
	tests := []struct {
		name string
		ctx  func(context.Context) (context.Context, context.CancelFunc)
		want error
	}{
		{name: "deadline", want: context.DeadlineExceeded, ctx: func(ctx context.Context) (context.Context, context.CancelFunc) {
			return context.WithTimeout(ctx, 300*time.Millisecond)
		}},
		{name: "cancel", want: context.Canceled, ctx: func(ctx context.Context) (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(ctx)
			time.AfterFunc(300*time.Millisecond, cancel)
			return ctx, cancel
		}},
	}
	for _, m := range modes {
		for _, tt := range tests {
			t.Run(m.name+"/"+tt.name, func(t *testing.T) {
				srv := startServer(t, m.stateless)
				x := newExecutor(t)
				if _, err := x.Execute(testContext(t), mcpCall(srv.url(), "echo", `{"text":"warm"}`)); err != nil {
					t.Fatalf("Execute: %v", err)
				}
				ctx, cancel := tt.ctx(testContext(t))
				defer cancel()
				start := time.Now()
				_, err := x.Execute(ctx, mcpCall(srv.url(), "block", `{}`))
				if err != tt.want { // ctx.Err() itself, not wrapped
					t.Fatalf("error = %#v, want %v itself", err, tt.want)
				}
				if waited := time.Since(start); waited > 5*time.Second {
					t.Errorf("Execute returned %s after the context ended", waited)
				}
				out, err := x.Execute(testContext(t), mcpCall(srv.url(), "echo", `{"text":"still"}`))
				if err != nil || string(out) != `"still"` {
					t.Fatalf("Execute after the abandoned call = %s, %v", out, err)
				}
				if _, handshakes := srv.seen(); handshakes != 1 {
					t.Errorf("%d handshakes, want the session kept", handshakes)
				}
			})
		}
	}
}

func TestConcurrentCallsShareOneSession(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			srv := startServer(t, m.stateless)
			x := newExecutor(t)
			ctx := testContext(t)
			const n = 32
			var wg sync.WaitGroup
			errc := make(chan error, n)
			for i := range n {
				wg.Go(func() {
					want := fmt.Sprintf("call %d", i)
					out, err := x.Execute(ctx, mcpCall(srv.url(), "echo", fmt.Sprintf(`{"text":%q}`, want)))
					switch {
					case err != nil:
						errc <- err
					case string(out) != fmt.Sprintf("%q", want):
						errc <- fmt.Errorf("output = %s, want %q", out, want)
					}
				})
			}
			wg.Wait()
			close(errc)
			for err := range errc {
				t.Error(err)
			}
			if _, handshakes := srv.seen(); handshakes != 1 {
				t.Errorf("%d handshakes, want one shared session", handshakes)
			}
		})
	}
}

func TestClosed(t *testing.T) {
	srv := startServer(t, false)
	x := newExecutor(t)
	c := mcpCall(srv.url(), "echo", `{"text":"hi"}`)
	if _, err := x.Execute(testContext(t), c); err != nil {
		t.Fatalf("Execute: %v", err)
	}
	x.Close()
	_, err := x.Execute(testContext(t), c)
	var mf *errs.MCPFailed
	if !errors.As(err, &mf) {
		t.Fatalf("error = %#v, want *errs.MCPFailed", err)
	}
}
