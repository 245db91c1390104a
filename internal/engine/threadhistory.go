package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/runsvc/runsvc/internal/lru"
	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// historyCacheSize bounds how many threads' histories an Engine keeps in
// memory; historyCacheBytes bounds one history's text: a longer one is
// read from the store each time.
const (
	historyCacheSize  = 256
	historyCacheBytes = 8 << 20
)

// cachedHistory is a thread's history through one of its Runs, which the
// Run after it is given. Its messages never change; the history through
// the next Run may be appended in place to the same backing array, once
// (extended says it was), so a thread's consecutive histories share it.
type cachedHistory struct {
	msgs     []runlog.Message
	bytes    int
	extended atomic.Bool
}

// historyKey is the cache key of the history through runID of a thread
// that had had deletions Runs deleted: a deletion makes every history of
// the thread read before it unreachable.
func historyKey(tenant, runID string, deletions int64) lru.Key {
	return lru.Key{Tenant: tenant, ID: runID, Seq: deletions}
}

// historyReader reads one thread's history for a Run of it.
type historyReader struct {
	e         *Engine
	tenant    string
	threadID  string
	deletions int64
}

// through returns the history through Run prev, the Run being started
// continues. It reads, in this order, what the process has cached: the
// history through prev; the history through the Run prev continues, with
// prev's log; else the thread's stored parts in one query, with the log of
// each Run whose part is not stored (prev's, usually, which settled
// before any Run continued it, and every Run of a thread that settled
// before parts were stored).
func (h historyReader) through(ctx context.Context, prev string) ([]runlog.Message, error) {
	if c, ok := h.cached(prev); ok {
		return c.msgs[:len(c.msgs):len(c.msgs)], nil
	}
	row, err := h.e.Store.GetRun(ctx, h.tenant, prev)
	if deletedRun(err) {
		return nil, nil // the history starts after the deleted Run
	}
	if err != nil {
		return nil, err
	}
	base, ok := h.cached(row.ContinuesRunID)
	if !ok {
		return h.stored(ctx, row)
	}
	part, found, err := h.fromLog(ctx, row)
	if err != nil || !found {
		return nil, err
	}
	h.storeLater(ctx, []store.HistoryPart{part.stored})
	c := extendHistory(base, part.msgs)
	h.keep(prev, c)
	return c.msgs[:len(c.msgs):len(c.msgs)], nil
}

// cached returns the history through runID from the cache; the history
// through "" (before a thread's first Run) is empty.
func (h historyReader) cached(runID string) (*cachedHistory, bool) {
	if runID == "" {
		return &cachedHistory{}, true
	}
	return h.e.histories.Get(historyKey(h.tenant, runID, h.deletions))
}

// keep caches c as the history through runID, unless it is too long.
func (h historyReader) keep(runID string, c *cachedHistory) {
	if c.bytes <= historyCacheBytes {
		h.e.histories.Add(historyKey(h.tenant, runID, h.deletions), c)
	}
}

// extendHistory returns base with part after it, appended in place when
// no history was appended to base before.
func extendHistory(base *cachedHistory, part []runlog.Message) *cachedHistory {
	c := &cachedHistory{bytes: base.bytes + textBytes(part)}
	if base.extended.CompareAndSwap(false, true) {
		c.msgs = append(base.msgs, part...)
	} else {
		c.msgs = slices.Concat(base.msgs, part)
	}
	return c
}

// storeLater stores parts beside the Run, not before it: the write joins
// the store's next commit instead of delaying the Run's start. A part
// that is not stored (the write failed, or the process stopped first) is
// read from its Run's log again by the next reader that misses it.
func (h historyReader) storeLater(ctx context.Context, parts []store.HistoryPart) {
	if len(parts) == 0 {
		return
	}
	h.e.slots.wg.Add(1) // inside an Attempt, which the group counts already
	go func() {
		defer h.e.slots.wg.Done()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), historyWriteTimeout)
		defer cancel()
		if err := h.e.Store.PutHistoryParts(ctx, parts); err != nil {
			h.e.Log.Warn("storing a thread's history failed; it will be read from the logs again", "threadId", h.threadID, "err", err)
		}
	}()
}

// historyWriteTimeout bounds storing a thread's history parts.
const historyWriteTimeout = 10 * time.Second

// historyPart is one Run's part of its thread's history, as the next Run
// is given it and as it is stored.
type historyPart struct {
	msgs   []runlog.Message
	stored store.HistoryPart
}

// fromLog reads a settled Run's part from its log: its transcript without
// the tool calls it left unanswered. found is false when the Run was
// deleted meanwhile.
func (h historyReader) fromLog(ctx context.Context, row store.Run) (historyPart, bool, error) {
	st, _, err := h.e.Writer.Load(ctx, h.tenant, row.RunID)
	if err != nil || st.Seq == 0 { // Seq 0: deleted since its row was read
		return historyPart{}, false, err
	}
	msgs := answered(st.Transcript)
	body, err := json.Marshal(msgs)
	if err != nil {
		return historyPart{}, false, err
	}
	return historyPart{msgs: msgs, stored: store.HistoryPart{
		Tenant: h.tenant, ThreadID: h.threadID, ThreadSeq: row.ThreadSeq, RunID: row.RunID,
		ContinuesRunID: row.ContinuesRunID, Body: body,
	}}, true, nil
}

// stored builds the history through Run prev from the thread's stored
// parts, following each Run's ContinuesRunID back from prev, and from the
// log of each Run whose part is missing, storing that part. A Run that no
// longer exists is where the history starts: its part was deleted with
// it, and its row is gone.
func (h historyReader) stored(ctx context.Context, prev store.Run) ([]runlog.Message, error) {
	parts, err := h.e.Store.HistoryParts(ctx, h.tenant, h.threadID, prev.ThreadSeq+1)
	if err != nil {
		return nil, err
	}
	byRun := make(map[string]store.HistoryPart, len(parts))
	for _, p := range parts {
		byRun[p.RunID] = p
	}
	var chain [][]runlog.Message // newest first
	var missing []store.HistoryPart
	seq := prev.ThreadSeq + 1
	for row, id := &prev, prev.RunID; id != ""; {
		var msgs []runlog.Message
		p, ok := byRun[id]
		if ok {
			if err := json.Unmarshal(p.Body, &msgs); err != nil {
				return nil, fmt.Errorf("thread %s: the history part of run %s: %w", h.threadID, id, err)
			}
		} else {
			hp, found, err := h.missingPart(ctx, row, id)
			if err != nil {
				return nil, err
			}
			if !found {
				break
			}
			p, msgs = hp.stored, hp.msgs
			missing = append(missing, p)
		}
		if p.ThreadSeq >= seq {
			return nil, fmt.Errorf("thread %s: run %s at position %d continues one at position %d", h.threadID, id, seq, p.ThreadSeq)
		}
		chain = append(chain, msgs)
		row, id, seq = nil, p.ContinuesRunID, p.ThreadSeq
	}
	h.storeLater(ctx, missing)
	c := &cachedHistory{}
	for _, msgs := range slices.Backward(chain) {
		c.msgs = append(c.msgs, msgs...)
		c.bytes += textBytes(msgs)
	}
	h.keep(prev.RunID, c)
	return c.msgs[:len(c.msgs):len(c.msgs)], nil
}

// missingPart reads the part of Run id, not stored, from its log; row is
// its row when known. found is false when the Run no longer exists.
func (h historyReader) missingPart(ctx context.Context, row *store.Run, id string) (historyPart, bool, error) {
	if row == nil {
		r, err := h.e.Store.GetRun(ctx, h.tenant, id)
		if deletedRun(err) {
			return historyPart{}, false, nil
		}
		if err != nil {
			return historyPart{}, false, err
		}
		row = &r
	}
	return h.fromLog(ctx, *row)
}

// textBytes is about how much memory msgs' text takes.
func textBytes(msgs []runlog.Message) int {
	n := 0
	for _, m := range msgs {
		n += len(m.Text) + len(m.Name) + len(m.CallID)
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Arguments) + len(c.ID)
		}
	}
	return n
}
