package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalWidth is w's width in columns, 80 when unknown.
func terminalWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	return 80
}

// progress is the status line a terminal shows while model or tool calls
// are open: one line, rewritten in place with the time elapsed. Every
// other output goes through write, which takes the line down first and
// puts it back after.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	width int
	now   func() time.Time
	open  []openCall
	shown bool // the status line is on screen
	frame int

	tick    time.Duration
	stop    chan struct{}
	stopped chan struct{}
}

// openCall is one call the status line reports.
type openCall struct {
	key, label string
	since      time.Time
}

const spinner = `|/-\`

func newProgress(w io.Writer, width int) *progress {
	return &progress{w: w, width: width, now: time.Now, tick: 200 * time.Millisecond}
}

// start shows a call as open from since.
func (p *progress) start(key, label string, since time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.drop(key)
	p.open = append(p.open, openCall{key: key, label: label, since: since})
	if p.stop == nil {
		p.stop, p.stopped = make(chan struct{}), make(chan struct{})
		go p.loop(p.stop, p.stopped)
	}
	p.draw()
}

// end removes a call.
func (p *progress) end(key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.drop(key)
	p.draw()
}

func (p *progress) drop(key string) {
	for i, c := range p.open {
		if c.key == key {
			p.open = append(p.open[:i], p.open[i+1:]...)
			return
		}
	}
}

// write prints b above the status line.
func (p *progress) write(b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	_, _ = p.w.Write(b)
	p.draw()
}

// close stops the updates and takes the line down.
func (p *progress) close() {
	p.mu.Lock()
	stop, stopped := p.stop, p.stopped
	p.stop = nil
	p.open = nil
	p.clear()
	p.mu.Unlock()
	if stop != nil {
		close(stop)
		<-stopped
	}
}

func (p *progress) loop(stop, stopped chan struct{}) {
	defer close(stopped)
	t := time.NewTicker(p.tick)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.frame++
			p.draw()
			p.mu.Unlock()
		}
	}
}

// line is the status text: the newest open call and how long it has been
// open.
func (p *progress) line() string {
	c := p.open[len(p.open)-1]
	s := fmt.Sprintf("  %c %s %s", spinner[p.frame%len(spinner)], c.label, elapsed(p.now().Sub(c.since)))
	if n := len(p.open) - 1; n > 0 {
		s += fmt.Sprintf(" (and %d more)", n)
	}
	if limit := p.width - 1; limit > 0 && utf8.RuneCountInString(s) > limit {
		s = string([]rune(s)[:limit])
	}
	return s
}

func (p *progress) clear() {
	if p.shown {
		_, _ = io.WriteString(p.w, "\r\x1b[K")
		p.shown = false
	}
}

func (p *progress) draw() {
	p.clear()
	if len(p.open) == 0 {
		return
	}
	_, _ = io.WriteString(p.w, p.line())
	p.shown = true
}
