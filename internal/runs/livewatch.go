package runs

import (
	"context"

	"github.com/runsvc/runsvc/internal/live"
	"github.com/runsvc/runsvc/internal/runlog"
)

// Event is one thing a live watch sends: a Record, or a piece of the model
// call the Run is streaming.
type Event struct {
	Record *runlog.Record
	Delta  *live.Delta
}

// LiveFrom is where a resuming watcher's live text starts: Offset bytes
// into the text of the call whose ModelCallStarted Record has seq
// CallSeq, or, with CallSeq 0, of the call streaming whose
// ModelCallStarted comes before the watch's first seq.
type LiveFrom struct {
	CallSeq int64
	Offset  int64
}

// WatchLive is Watch with the model's streamed pieces between the
// Records: once the watcher has the ModelCallStarted Record of a call
// being streamed in this process, it gets what the call streamed so far
// (merged, from at's offset) and then each piece as it comes, until the
// Record that ends the call. A call that ends other than with its answer
// (it failed, or another Attempt took over) is followed by a Discarded
// Delta before that Record.
func (m *Manager) WatchLive(ctx context.Context, tenant, runID string, from int64, at LiveFrom, send func(Event) error) error {
	if m.live == nil {
		return m.Watch(ctx, tenant, runID, from, func(r runlog.Record) error { return send(Event{Record: &r}) })
	}
	// One wake channel for the Records and the pieces: the watcher
	// waits on it and its context only.
	wake := make(chan struct{}, 1)
	lw := m.live.WatchWaking(tenant, runID, wake)
	defer lw.Close()
	f := &follower{send: send, lw: lw, at: at, from: max(from, 1), open: -1}
	if f.from <= 1 {
		f.open = 0
	}
	return m.watch(ctx, tenant, runID, from, f.record, f.between, wake)
}

// follower merges one watcher's Records and live pieces.
type follower struct {
	send func(Event) error
	lw   *live.Watcher
	at   LiveFrom
	from int64
	// open is the seq of the call whose ModelCallStarted was sent and
	// whose end was not; 0 for none, -1 for a watch resumed after the
	// seq of any such Record.
	open int64
	// following is the call whose pieces are being sent, next the index
	// of its next piece, streamed whether any was sent.
	following int64
	next      int
	streamed  bool
}

// record sends a Record: after the pieces of the call it answers that
// the watcher has not had yet, or after a Discarded Delta when it ends a
// call that streamed without answering.
func (f *follower) record(r runlog.Record) error {
	switch r.Op.(type) {
	case *runlog.ModelCallFinished, *runlog.ModelCallFailed, *runlog.AttemptStarted, *runlog.Settled, *runlog.ModelCallStarted:
		_, answered := r.Op.(*runlog.ModelCallFinished)
		if answered && f.following != 0 && f.eligible(f.following, false) {
			if err := f.between(); err != nil {
				return err
			}
		}
		if f.streamed && !answered {
			if err := f.send(Event{Delta: &live.Delta{CallSeq: f.following, Discarded: true}}); err != nil {
				return err
			}
		}
		f.open, f.following, f.next, f.streamed = 0, 0, 0, false
	}
	if _, started := r.Op.(*runlog.ModelCallStarted); started {
		f.open = r.Seq
	}
	return f.send(Event{Record: &r})
}

// between sends the pieces of the open call that the watcher has not had;
// more poke the watch's wake channel.
func (f *follower) between() error {
	v := f.lw.Since(f.next)
	if v.CallSeq == 0 || (v.CallSeq != f.following && !f.eligible(v.CallSeq, v.Done)) {
		return nil
	}
	if v.CallSeq != f.following {
		all := f.lw.Since(0)
		f.following, f.next = v.CallSeq, all.Next
		skip := f.skip(v.CallSeq)
		for _, d := range live.SoFar(all.CallSeq, all.Turn, all.Deltas, skip) {
			f.streamed = true
			if err := f.send(Event{Delta: d}); err != nil {
				return err
			}
		}
		return nil
	}
	for _, d := range v.Deltas {
		f.streamed = true
		if err := f.send(Event{Delta: d}); err != nil {
			return err
		}
	}
	f.next = v.Next
	return nil
}

// eligible reports whether the watcher may have the pieces of call seq:
// it has the call's ModelCallStarted and not its end. A resumed watch
// that never saw the ModelCallStarted takes only a call still streaming.
func (f *follower) eligible(seq int64, done bool) bool {
	return seq == f.open || (f.open == -1 && seq < f.from && !done)
}

// skip is how much of call seq's text the watcher already has.
func (f *follower) skip(seq int64) int64 {
	if f.at.CallSeq == seq || (f.at.CallSeq == 0 && seq < f.from) {
		return f.at.Offset
	}
	return 0
}
