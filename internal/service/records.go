package service

import (
	"strconv"
	"sync"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/runlog"
)

// recordCacheSize bounds how many converted Records the handlers keep.
const recordCacheSize = 8192

// recordCache converts each Record to its WatchRun message once for all
// the watchers of a Run: Records never change, and the messages are only
// read (marshalled) afterwards, so they are shared.
type recordCache struct {
	mu sync.Mutex
	m  map[string]*runsvcv1.WatchRunResponse
}

func (s *Service) watchedRecord(runID string, r runlog.Record) *runsvcv1.WatchRunResponse {
	key := runID + "/" + strconv.FormatInt(r.Seq, 10)
	c := &s.records
	c.mu.Lock()
	p, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return p
	}
	p = &runsvcv1.WatchRunResponse{Record: s.recordToProto(r)}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= recordCacheSize {
		c.m = make(map[string]*runsvcv1.WatchRunResponse, 256)
	}
	c.m[key] = p
	c.mu.Unlock()
	return p
}
