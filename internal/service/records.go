package service

import (
	"sync"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/lru"
	"github.com/runsvc/runsvc/internal/runlog"
)

// recordCacheSize bounds how many converted Records the handlers keep.
const recordCacheSize = 8192

// recordCache converts each Record to its WatchRun message and encodes it
// once for all the watchers of a Run: Records never change, so every
// watcher sends the same bytes. Keys carry the tenant.
type recordCache struct {
	once sync.Once
	c    *lru.Cache[any]
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
	c := s.records.cache()
	if p, ok := c.Get(key); ok {
		return p
	}
	p := encode(&runsvcv1.WatchRunResponse{Record: s.recordToProto(r)})
	if e, ok := p.(*Encoded); ok {
		e.seq = r.Seq
	}
	c.Add(key, p)
	return p
}
