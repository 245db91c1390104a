// Package logsink takes log lines off the request path: writes land in a
// memory buffer and a background goroutine hands them to the real writer
// in batches, so a failed RPC's log line costs a copy instead of a
// write(2).
package logsink

import (
	"io"
	"sync"
	"time"
)

// Flushing.
const (
	// FlushInterval bounds how long a line waits in memory.
	FlushInterval = 50 * time.Millisecond
	// flushSize wakes the writer early when this much is waiting.
	flushSize = 64 << 10
	// maxPending makes writers wait rather than grow without bound when the
	// destination cannot keep up.
	maxPending = 4 << 20
)

// Sink is an io.Writer that batches. The zero value is not usable; use
// New, and Close to flush.
type Sink struct {
	dst     io.Writer
	mu      sync.Mutex
	drained *sync.Cond
	buf     []byte
	kick    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// New starts a Sink writing to dst.
func New(dst io.Writer) *Sink {
	s := &Sink{dst: dst, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	s.drained = sync.NewCond(&s.mu)
	go s.loop()
	return s
}

// Write queues p; it never fails. A line is a single Write, so lines are
// never interleaved.
func (s *Sink) Write(p []byte) (int, error) {
	s.mu.Lock()
	for len(s.buf) > maxPending {
		s.drained.Wait()
	}
	s.buf = append(s.buf, p...)
	full := len(s.buf) >= flushSize
	s.mu.Unlock()
	if full {
		select {
		case s.kick <- struct{}{}:
		default:
		}
	}
	return len(p), nil
}

func (s *Sink) loop() {
	defer close(s.done)
	var spare []byte
	tick := time.NewTicker(FlushInterval)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
		case <-s.kick:
		case <-s.stop:
			s.flush(&spare)
			return
		}
		s.flush(&spare)
	}
}

func (s *Sink) flush(spare *[]byte) {
	s.mu.Lock()
	out := s.buf
	s.buf = (*spare)[:0]
	s.drained.Broadcast()
	s.mu.Unlock()
	if len(out) > 0 {
		_, _ = s.dst.Write(out)
	}
	*spare = out
}

// Close writes what is pending and stops the Sink.
func (s *Sink) Close() error {
	s.once.Do(func() { close(s.stop) })
	<-s.done
	return nil
}
