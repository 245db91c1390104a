package service

import (
	"sync"
	"sync/atomic"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/lru"
	"github.com/runsvc/runsvc/internal/runlog"
)

// recordCacheSize bounds how many converted Records the handlers keep.
const recordCacheSize = 8192

// recentSlots is how many of the newest converted Records are found
// without the cache's lock, one slot per seq modulo recentSlots.
const recentSlots = 256

// recordCache converts each Record to its WatchRun message and encodes it
// once for all the watchers of a Run: Records never change, so every
// watcher sends the same bytes. Keys carry the tenant.
type recordCache struct {
	once sync.Once
	c    *lru.Cache[any]
	// recent holds the Records watchers are sending now, read without
	// a lock: every watcher of a Run looks up the same Record one after
	// another, and the cache's Get takes a lock and moves the entry to
	// the front of its list, writing memory that 1,000 watchers on two
	// cores then pass between the cores for every Record.
	recent [recentSlots]atomic.Pointer[recentRecord]
}

// recentRecord is a Record's message in a slot of recent.
type recentRecord struct {
	key lru.Key
	msg any
}

func (c *recordCache) cache() *lru.Cache[any] {
	c.once.Do(func() { c.c = lru.New[any](recordCacheSize) })
	return c.c
}

// watchedRecord returns Record r's WatchRun message, encoded (an
// *Encoded) unless it does not encode; send it with sendMsg.
func (s *Service) watchedRecord(tenant, runID string, r runlog.Record) any {
	// Every watcher looks up every Record: a key built with no string
	// (runID + "/" + seq was 3% of the watch phase's CPU at 1,000
	// watchers, with its garbage).
	key := lru.Key{Tenant: tenant, ID: runID, Seq: r.Seq}
	slot := &s.records.recent[uint64(r.Seq)%recentSlots]
	if e := slot.Load(); e != nil && e.key == key {
		return e.msg
	}
	c := s.records.cache()
	p, ok := c.Get(key)
	if !ok {
		p = encode(&runsvcv1.WatchRunResponse{Record: s.recordToProto(r)})
		if e, ok := p.(*Encoded); ok {
			e.seq = r.Seq
		}
		c.Add(key, p)
	}
	slot.Store(&recentRecord{key: key, msg: p})
	return p
}
