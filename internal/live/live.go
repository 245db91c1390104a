// Package live carries what a model streams while its call is in flight,
// from the engine making the call to the watchers of the Run in this
// process, before the turn's Record is committed. Nothing here is
// durable: a turn is still one Record, and a watcher that arrives after
// the Record reads the Record.
//
// Every piece is one *Delta shared by all watchers, so the wire form of a
// piece is encoded once (Delta.Encoded) whatever the number of watchers.
//
// A Hub made with NewScrubbingHub publishes pieces already scrubbed of
// secrets, across piece boundaries: a secret the model streams in pieces
// never reaches a watcher, and offsets count the text watchers get, which
// is the text the turn's Record stores.
package live

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/secret"
)

// Wire forms a Delta caches, one slot each.
const (
	SlotWatch = iota // a WatchRun message
	SlotText         // a StreamText message
	numSlots
)

// Delta is one piece of a model call's streamed answer, or, with
// Discarded, word that what the call streamed is void. Never modified
// once published.
type Delta struct {
	// CallSeq is the seq of the call's ModelCallStarted Record.
	CallSeq int64
	// Turn is the call's turn.
	Turn int
	// Offset is the length in bytes of the call's text before Text.
	Offset int64
	// Text is text appended to the answer.
	Text string
	// ToolCall is a piece of a tool call, when set.
	ToolCall *model.ToolCallDelta
	// Discarded says the call's streamed output is void: the call failed
	// or another Attempt took the Run over; its turn is answered anew.
	Discarded bool

	once [numSlots]sync.Once
	enc  [numSlots]any
}

// Encoded returns the wire form of d in slot, made by encode the first
// time any watcher asks and shared by all after.
func (d *Delta) Encoded(slot int, encode func(*Delta) any) any {
	d.once[slot].Do(func() { d.enc[slot] = encode(d) })
	return d.enc[slot]
}

// Hub holds the model call each Run of this process is streaming.
type Hub struct {
	mu    sync.Mutex
	byRun map[string]*run
	scrub *secret.Scrubber
}

// NewHub returns an empty Hub that publishes pieces as they come.
func NewHub() *Hub { return &Hub{byRun: map[string]*run{}} }

// NewScrubbingHub returns an empty Hub that removes every secret s knows
// from the pieces before it publishes them: it holds back the end of the
// text (and of each tool call's arguments) for as long as it could begin
// a secret in any of the forms s knows, and publishes it scrubbed when the
// next piece settles it or the call ends (see secret.Pieces).
func NewScrubbingHub(s *secret.Scrubber) *Hub { return &Hub{byRun: map[string]*run{}, scrub: s} }

// run is one Run's streaming state.
type run struct {
	mu      sync.Mutex
	call    *call
	changed chan struct{} // closed when anything changes, then replaced
	// wakes are the watchers' own channels, each poked on every change:
	// a waiting watcher then selects on channels no other goroutine
	// locks, where 100 watchers woken by one shared channel contend for
	// its lock (selectgo and sellock were 37% of StreamText's handler
	// time in the deltas phase at 100 watchers).
	wakes []chan struct{}
	users int
	// watchers counts the Watchers alone, read without r.mu by
	// Stream.Watched on every piece.
	watchers atomic.Int32
}

// call is one model call's pieces so far.
type call struct {
	seq    int64
	turn   int
	deltas []*Delta
	length int64
	done   bool
}

func key(tenant, runID string) string { return tenant + "/" + runID }

// get returns the Run's state, creating it, and counts a user.
func (h *Hub) get(tenant, runID string) *run {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.byRun[key(tenant, runID)]
	if r == nil {
		r = &run{changed: make(chan struct{})}
		h.byRun[key(tenant, runID)] = r
	}
	r.users++
	return r
}

// put drops a user; the last one forgets the Run.
func (h *Hub) put(tenant, runID string, r *run) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r.users--
	if r.users == 0 {
		delete(h.byRun, key(tenant, runID))
	}
}

// Stream publishes one model call's pieces; see Hub.Begin.
type Stream struct {
	hub           *Hub
	tenant, runID string
	r             *run
	c             *call
	ended         bool
	// text and args scrub the text and each tool call's arguments
	// (by index) across pieces; nil when the Hub does not scrub.
	text *secret.Pieces
	args map[int]*secret.Pieces
}

// Begin starts publishing the call whose ModelCallStarted Record has seq
// callSeq; it replaces any call the Run streamed before. End must follow.
func (h *Hub) Begin(tenant, runID string, callSeq int64, turn int) *Stream {
	r := h.get(tenant, runID)
	c := &call{seq: callSeq, turn: turn}
	r.mu.Lock()
	r.call = c
	r.signal()
	r.mu.Unlock()
	st := &Stream{hub: h, tenant: tenant, runID: runID, r: r, c: c}
	if h.scrub != nil {
		st.text, st.args = h.scrub.Pieces(), map[int]*secret.Pieces{}
	}
	return st
}

// signal wakes the watchers; r.mu is held.
func (r *run) signal() {
	close(r.changed)
	r.changed = make(chan struct{})
	for _, w := range r.wakes {
		Poke(w)
	}
}

// Poke makes a wake channel (of capacity 1) ready without blocking; a
// channel already ready stays so, once.
func Poke(wake chan struct{}) {
	select {
	case wake <- struct{}{}:
	default:
	}
}

// Add publishes one piece; it is a model.Request's OnDelta. A scrubbing
// Hub publishes what of it can no longer be part of a secret, and nothing
// when that is nothing.
func (s *Stream) Add(d model.Delta) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if s.ended || r.call != s.c {
		return
	}
	if s.text != nil {
		var ok bool
		if d, ok = s.scrubbed(d); !ok {
			return
		}
	}
	s.publish(d)
	r.signal()
}

// publish appends a piece to the call; r.mu is held.
func (s *Stream) publish(d model.Delta) {
	c := s.c
	c.deltas = append(c.deltas, &Delta{CallSeq: c.seq, Turn: c.turn, Offset: c.length, Text: d.Text, ToolCall: d.ToolCall})
	c.length += int64(len(d.Text))
}

// scrubbed returns what of d may be published now, and whether there is
// anything: text or arguments not held back, or a tool call's id or name.
func (s *Stream) scrubbed(d model.Delta) (model.Delta, bool) {
	out := model.Delta{Text: s.text.Write(d.Text)}
	if tc := d.ToolCall; tc != nil {
		p := s.args[tc.Index]
		if p == nil {
			p = s.hub.scrub.Pieces()
			s.args[tc.Index] = p
		}
		args := p.Write(tc.Arguments)
		if args != "" || tc.ID != "" || tc.Name != "" {
			out.ToolCall = &model.ToolCallDelta{Index: tc.Index, ID: tc.ID, Name: tc.Name, Arguments: args}
		}
	}
	return out, out.Text != "" || out.ToolCall != nil
}

// flush publishes what the scrub held back, the call being over; r.mu is
// held.
func (s *Stream) flush() {
	if s.text == nil {
		return
	}
	if rest := s.text.Flush(); rest != "" {
		s.publish(model.Delta{Text: rest})
	}
	indexes := make([]int, 0, len(s.args))
	for i := range s.args {
		indexes = append(indexes, i)
	}
	slices.Sort(indexes)
	for _, i := range indexes {
		if rest := s.args[i].Flush(); rest != "" {
			s.publish(model.Delta{ToolCall: &model.ToolCallDelta{Index: i, Arguments: rest}})
		}
	}
}

// Watched says whether a Watcher follows the Run's pieces now. The engine
// asks it on every piece: a call no one watches need not store its start
// early, since no one waits for the ModelCallStarted to see the pieces.
func (s *Stream) Watched() bool { return s.r.watchers.Load() > 0 }

// End says the call is over. Its pieces stay for watchers that join
// before its Record reaches them, until the Run's next call or its last
// watcher and publisher are gone.
func (s *Stream) End() {
	r := s.r
	r.mu.Lock()
	if !s.ended {
		s.ended = true
		if r.call == s.c {
			s.flush()
		}
		s.c.done = true
		r.signal()
	}
	r.mu.Unlock()
	s.hub.put(s.tenant, s.runID, r)
}

// Watcher follows one Run's streaming calls; Close must follow.
type Watcher struct {
	hub           *Hub
	tenant, runID string
	r             *run
	wake          chan struct{}
}

// Watch follows a Run's streaming calls.
func (h *Hub) Watch(tenant, runID string) *Watcher { return h.WatchWaking(tenant, runID, nil) }

// WatchWaking is Watch that also pokes wake (see Poke) on every change,
// until Close.
func (h *Hub) WatchWaking(tenant, runID string, wake chan struct{}) *Watcher {
	w := &Watcher{hub: h, tenant: tenant, runID: runID, r: h.get(tenant, runID), wake: wake}
	w.r.watchers.Add(1)
	if wake != nil {
		w.r.mu.Lock()
		w.r.wakes = append(w.r.wakes, wake)
		w.r.mu.Unlock()
	}
	return w
}

// Close stops following.
func (w *Watcher) Close() {
	w.r.watchers.Add(-1)
	if w.wake != nil {
		r := w.r
		r.mu.Lock()
		for i, c := range r.wakes {
			if c == w.wake {
				last := len(r.wakes) - 1
				r.wakes[i], r.wakes[last] = r.wakes[last], nil
				r.wakes = r.wakes[:last]
				break
			}
		}
		r.mu.Unlock()
	}
	w.hub.put(w.tenant, w.runID, w.r)
}

// View is what a Watcher sees at one moment.
type View struct {
	// CallSeq and Turn name the call streaming, or streamed last; CallSeq
	// is 0 when there is none.
	CallSeq int64
	Turn    int
	// Deltas are the call's pieces from the index asked, shared.
	Deltas []*Delta
	// Next is the index after the last of Deltas.
	Next int
	// Done says the call is over (its Record may not be stored yet).
	Done bool
	// Changed closes when there is more to see.
	Changed <-chan struct{}
}

// Since returns the Run's current call and its pieces from index from.
func (w *Watcher) Since(from int) View {
	r := w.r
	r.mu.Lock()
	defer r.mu.Unlock()
	v := View{Changed: r.changed}
	c := r.call
	if c == nil {
		return v
	}
	v.CallSeq, v.Turn, v.Next, v.Done = c.seq, c.turn, len(c.deltas), c.done
	if from < len(c.deltas) {
		v.Deltas = c.deltas[from:len(c.deltas):len(c.deltas)]
	}
	return v
}

// SoFar merges pieces into one per kind, for a watcher that joins late
// or resumes: the text from byte offset skip, then each tool call with its
// arguments so far. Tool calls are never cut by skip.
func SoFar(callSeq int64, turn int, deltas []*Delta, skip int64) []*Delta {
	var text strings.Builder
	var calls []*model.ToolCallDelta
	for _, d := range deltas {
		text.WriteString(d.Text)
		if tc := d.ToolCall; tc != nil {
			for len(calls) <= tc.Index {
				calls = append(calls, &model.ToolCallDelta{Index: len(calls)})
			}
			c := calls[tc.Index]
			if c.ID == "" {
				c.ID = tc.ID
			}
			if c.Name == "" {
				c.Name = tc.Name
			}
			c.Arguments += tc.Arguments
		}
	}
	var out []*Delta
	s := text.String()
	skip = min(max(skip, 0), int64(len(s)))
	for skip > 0 && skip < int64(len(s)) && !utf8.RuneStart(s[skip]) {
		skip-- // never cut a character
	}
	if int64(len(s)) > skip {
		out = append(out, &Delta{CallSeq: callSeq, Turn: turn, Offset: skip, Text: s[skip:]})
	}
	length := int64(text.Len())
	for _, c := range calls {
		out = append(out, &Delta{CallSeq: callSeq, Turn: turn, Offset: length, ToolCall: c})
	}
	return out
}
