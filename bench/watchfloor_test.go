package main

import (
	"context"
	"testing"
	"time"
)

// TestFanoutFloorDeliversEveryRecordToEveryWatcher runs the watch phase's
// floor briefly: each watcher gets each added record, once.
func TestFanoutFloorDeliversEveryRecordToEveryWatcher(t *testing.T) {
	for _, c := range []struct {
		name     string
		watchers int
	}{{"one watcher", 1}, {"seven watchers", 7}} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			f, err := measureFanoutFloor(ctx, c.watchers, 200, 300*time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			if f.Expected == 0 || f.Delivered != f.Expected {
				t.Fatalf("delivered %d of %d", f.Delivered, f.Expected)
			}
			if f.Latency.N != f.Delivered || f.Latency.P99Ms <= 0 {
				t.Fatalf("latency %+v for %d deliveries", f.Latency, f.Delivered)
			}
		})
	}
}
