package notify_test

import (
	"testing"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/notify"
)

// TestPublishRunGivesTheRowToTheRunsEndSubscribers: PublishRun signals
// the subscribers of its topics, and those of the Run's RunEndTopic get
// the row; a plain Publish signals without replacing it; a subscriber of
// another topic, or one that subscribed after, has none.
func TestPublishRunGivesTheRowToTheRunsEndSubscribers(t *testing.T) {
	hub := notify.NewHub()
	endTopic, logTopic := store.RunEndTopic("acme", "run_a"), store.RunTopic("acme", "run_a")
	end := hub.Subscribe(endTopic)
	log := hub.Subscribe(logTopic)
	other := hub.Subscribe("other")
	hub.PublishRun(store.Run{Tenant: "acme", RunID: "run_a", LastSeq: 7}, logTopic, endTopic)
	hub.Publish(endTopic, "other")
	late := hub.Subscribe(endTopic)
	tests := []struct {
		name    string
		sub     store.Subscription
		signal  bool
		row     bool
		lastSeq int64
	}{
		{name: "a subscriber of the Run's end", sub: end, signal: true, row: true, lastSeq: 7},
		{name: "a subscriber of the Run's log", sub: log, signal: true},
		{name: "a subscriber of another topic", sub: other, signal: true},
		{name: "a subscriber that came after", sub: late},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer tt.sub.Close()
			select {
			case <-tt.sub.C():
				if !tt.signal {
					t.Error("signalled, want no signal")
				}
			default:
				if tt.signal {
					t.Error("not signalled")
				}
			}
			row, ok := tt.sub.Run()
			if ok != tt.row || row.LastSeq != tt.lastSeq {
				t.Errorf("Run() = seq %d, %v; want seq %d, %v", row.LastSeq, ok, tt.lastSeq, tt.row)
			}
		})
	}
}
