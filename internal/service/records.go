package service

import (
	"strconv"
	"sync"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/lru"
	"github.com/runsvc/runsvc/internal/runlog"
)

// recordCacheSize bounds how many converted Records the handlers keep.
const recordCacheSize = 8192

// recordCache converts each Record to its WatchRun message once for all
// the watchers of a Run: Records never change, and the messages are only
// read (marshalled) afterwards, so they are shared. Keys carry the tenant.
type recordCache struct {
	once sync.Once
	c    *lru.Cache[*runsvcv1.WatchRunResponse]
}

func (c *recordCache) cache() *lru.Cache[*runsvcv1.WatchRunResponse] {
	c.once.Do(func() { c.c = lru.New[*runsvcv1.WatchRunResponse](recordCacheSize) })
	return c.c
}

func (s *Service) watchedRecord(tenant, runID string, r runlog.Record) *runsvcv1.WatchRunResponse {
	key := lru.Key{Tenant: tenant, ID: runID + "/" + strconv.FormatInt(r.Seq, 10)}
	c := s.records.cache()
	if p, ok := c.Get(key); ok {
		return p
	}
	p := &runsvcv1.WatchRunResponse{Record: s.recordToProto(r)}
	c.Add(key, p)
	return p
}
