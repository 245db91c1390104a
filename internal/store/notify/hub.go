// Package notify is an in-process Notifier: a set of topics whose
// subscribers get a coalesced signal on every Publish. The sqlite store
// publishes to it after each commit; the postgres store publishes what
// LISTEN receives from every replica.
package notify

import (
	"sync"
	"sync/atomic"

	"github.com/runsvc/runsvc/internal/store"
)

// Hub fans signals out to subscribers. The zero value is not usable; use
// NewHub.
type Hub struct {
	mu     sync.RWMutex
	topics map[string]map[*subscription]struct{}
}

// NewHub returns an empty Hub.
func NewHub() *Hub {
	return &Hub{topics: map[string]map[*subscription]struct{}{}}
}

type subscription struct {
	hub   *Hub
	topic string
	ch    chan struct{}
	once  sync.Once
	// run is the row the latest PublishRun to the topic carried; shared,
	// never changed, by every subscriber it reached.
	run atomic.Pointer[store.Run]
}

func (s *subscription) C() <-chan struct{} { return s.ch }

func (s *subscription) Run() (store.Run, bool) {
	if r := s.run.Load(); r != nil {
		return *r, true
	}
	return store.Run{}, false
}

// signal wakes the subscriber without blocking; a pending signal absorbs
// this one.
func (s *subscription) signal() {
	select {
	case s.ch <- struct{}{}:
	default:
	}
}

func (s *subscription) Close() {
	s.once.Do(func() {
		s.hub.mu.Lock()
		defer s.hub.mu.Unlock()
		if subs := s.hub.topics[s.topic]; subs != nil {
			delete(subs, s)
			if len(subs) == 0 {
				delete(s.hub.topics, s.topic)
			}
		}
	})
}

// Subscribe follows a topic.
func (h *Hub) Subscribe(topic string) store.Subscription {
	s := &subscription{hub: h, topic: topic, ch: make(chan struct{}, 1)}
	h.mu.Lock()
	defer h.mu.Unlock()
	subs := h.topics[topic]
	if subs == nil {
		subs = map[*subscription]struct{}{}
		h.topics[topic] = subs
	}
	subs[s] = struct{}{}
	return s
}

// Publish signals every subscriber of the topics, without blocking.
func (h *Hub) Publish(topics ...string) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	h.signal(topics)
}

// PublishRun is Publish for a write that settled or suspended a Run, run
// being the row it left: each subscriber of the Run's RunEndTopic keeps
// the row (Subscription.Run) before it is signalled, so that a waiter for
// the Run's end need not read it back.
func (h *Hub) PublishRun(run store.Run, topics ...string) {
	row := &run
	h.mu.RLock()
	defer h.mu.RUnlock()
	for s := range h.topics[store.RunEndTopic(run.Tenant, run.RunID)] {
		s.run.Store(row)
	}
	h.signal(topics)
}

// signal wakes the subscribers of topics; h.mu is held.
func (h *Hub) signal(topics []string) {
	for _, t := range topics {
		for s := range h.topics[t] {
			s.signal()
		}
	}
}

// PublishAll signals every subscriber of every topic, for when changes may
// have been missed (a reconnect).
func (h *Hub) PublishAll() {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for _, subs := range h.topics {
		for s := range subs {
			s.signal()
		}
	}
}
