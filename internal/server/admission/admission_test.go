package admission_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/server/admission"
)

// kind selects which interceptor a test drives.
type kind struct {
	name     string
	resource string
	limiter  func(limit int) *admission.Limiter
	// call runs one call through the interceptor with handler as the
	// service method.
	call func(l *admission.Limiter, handler func() error) error
}

var kinds = []kind{
	{
		name:     "unary",
		resource: "concurrent calls",
		limiter:  func(limit int) *admission.Limiter { return admission.New(limit, 0) },
		call: func(l *admission.Limiter, handler func() error) error {
			_, err := l.UnaryServerInterceptor()(context.Background(), "req", &grpc.UnaryServerInfo{FullMethod: "/runsvc.v1.RunService/GetRun"},
				func(context.Context, any) (any, error) { return "resp", handler() })
			return err
		},
	},
	{
		name:     "stream",
		resource: "concurrent streams",
		limiter:  func(limit int) *admission.Limiter { return admission.New(0, limit) },
		call: func(l *admission.Limiter, handler func() error) error {
			return l.StreamServerInterceptor()(nil, nil, &grpc.StreamServerInfo{FullMethod: "/runsvc.v1.RunService/WatchRun", IsServerStream: true},
				func(any, grpc.ServerStream) error { return handler() })
		},
	},
}

// holder keeps calls inside their handler until released.
type holder struct {
	entered chan struct{}
	release chan struct{}
	wg      sync.WaitGroup
	errs    chan error
}

func newHolder() *holder {
	return &holder{entered: make(chan struct{}, 100), release: make(chan struct{}), errs: make(chan error, 100)}
}

// hold starts n calls that block in their handler, and waits until all
// are in.
func (h *holder) hold(t *testing.T, k kind, l *admission.Limiter, n int) {
	t.Helper()
	for range n {
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			h.errs <- k.call(l, func() error {
				h.entered <- struct{}{}
				<-h.release
				return nil
			})
		}()
	}
	for range n {
		select {
		case <-h.entered:
		case err := <-h.errs:
			t.Fatalf("a call under the limit was refused: %v", err)
		case <-time.After(10 * time.Second):
			t.Fatalf("calls under the limit did not reach their handler")
		}
	}
}

// finish releases every held call and waits for them to return.
func (h *holder) finish(t *testing.T) {
	t.Helper()
	close(h.release)
	h.wg.Wait()
	close(h.errs)
	for err := range h.errs {
		if err != nil {
			t.Errorf("a held call failed: %v", err)
		}
	}
}

// refused asserts a call is turned away without reaching its handler.
func refused(t *testing.T, k kind, l *admission.Limiter) {
	t.Helper()
	reached := false
	err := k.call(l, func() error { reached = true; return nil })
	if reached {
		t.Fatalf("a call over the limit reached its handler")
	}
	var o *errs.Overloaded
	if !errors.As(err, &o) {
		t.Fatalf("call over the limit = %T %v, want *errs.Overloaded", err, err)
	}
	if o.RetryAfter != admission.RetryAfter || o.RetryAfter <= 0 {
		t.Errorf("RetryAfter = %v, want %v", o.RetryAfter, admission.RetryAfter)
	}
	if o.Resource != k.resource {
		t.Errorf("Resource = %q, want %q", o.Resource, k.resource)
	}
	if d, ok := errs.IsRetryable(err); !ok || d != admission.RetryAfter {
		t.Errorf("IsRetryable = %v, %v; want %v, true", d, ok, admission.RetryAfter)
	}
}

// admitted asserts a call reaches its handler and returns its result.
func admitted(t *testing.T, k kind, l *admission.Limiter) {
	t.Helper()
	reached := false
	if err := k.call(l, func() error { reached = true; return nil }); err != nil || !reached {
		t.Fatalf("call = %v (reached handler: %v), want it admitted", err, reached)
	}
}

func TestLimit(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			for _, limit := range []int{1, 3} {
				t.Run(fmt.Sprintf("limit %d", limit), func(t *testing.T) {
					l := k.limiter(limit)
					h := newHolder()
					// Under the limit, calls pass.
					h.hold(t, k, l, limit)
					// At the limit, more are turned away, however many.
					for range 5 {
						refused(t, k, l)
					}
					h.finish(t)
					// The counts went back down: the full limit fits again.
					h2 := newHolder()
					h2.hold(t, k, l, limit)
					refused(t, k, l)
					h2.finish(t)
					admitted(t, k, l)
				})
			}
		})
	}
}

func TestOneCallEndingFreesOneSlot(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			l := k.limiter(2)
			first, second := newHolder(), newHolder()
			first.hold(t, k, l, 1)
			second.hold(t, k, l, 1)
			refused(t, k, l)
			first.finish(t)
			third := newHolder()
			third.hold(t, k, l, 1)
			refused(t, k, l)
			second.finish(t)
			third.finish(t)
		})
	}
}

func TestCountsGoDownWhenHandlersFail(t *testing.T) {
	boom := errors.New("handler failed")
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			l := k.limiter(1)
			for range 3 {
				if err := k.call(l, func() error { return boom }); !errors.Is(err, boom) {
					t.Fatalf("call = %v, want the handler's error", err)
				}
			}
			for range 3 {
				func() {
					defer func() { _ = recover() }()
					_ = k.call(l, func() error { panic("handler panicked") })
				}()
			}
			admitted(t, k, l)
			h := newHolder()
			h.hold(t, k, l, 1)
			refused(t, k, l)
			h.finish(t)
		})
	}
}

func TestZeroMeansUnlimited(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			l := admission.New(0, 0)
			h := newHolder()
			h.hold(t, k, l, 64)
			admitted(t, k, l)
			h.finish(t)
		})
	}
}

func TestUnaryAndStreamsCountedApart(t *testing.T) {
	unary, stream := kinds[0], kinds[1]
	l := admission.New(1, 1)
	hu := newHolder()
	hu.hold(t, unary, l, 1)
	refused(t, unary, l)
	hs := newHolder()
	hs.hold(t, stream, l, 1)
	refused(t, stream, l)
	refused(t, unary, l)
	hu.finish(t)
	admitted(t, unary, l)
	refused(t, stream, l)
	hs.finish(t)
	admitted(t, stream, l)
}

func TestHandlerResultPassesThrough(t *testing.T) {
	l := admission.New(5, 5)
	resp, err := l.UnaryServerInterceptor()(context.Background(), "req", &grpc.UnaryServerInfo{},
		func(_ context.Context, req any) (any, error) { return req.(string) + "-handled", nil })
	if err != nil || resp != "req-handled" {
		t.Fatalf("interceptor = %v, %v; want the handler's response", resp, err)
	}
}
