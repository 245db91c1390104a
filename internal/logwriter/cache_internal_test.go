package logwriter

import (
	"context"
	"strconv"
	"testing"

	"github.com/runsvc/runsvc/internal/runlog"
)

func TestStatesCache(t *testing.T) {
	ctx := context.Background()
	t.Run("another tenant's Run is not found", func(t *testing.T) {
		var c states
		c.put("acme", &runlog.State{RunID: "run_1"})
		if st := c.take(ctx, "globex", "run_1"); st != nil {
			t.Fatalf("globex took acme's State %+v", st)
		}
		if st := c.take(ctx, "acme", "run_1"); st == nil {
			t.Fatal("acme's State is gone")
		}
	})
	t.Run("a State is taken once", func(t *testing.T) {
		var c states
		c.put("acme", &runlog.State{RunID: "run_1"})
		if c.take(ctx, "acme", "run_1") == nil || c.take(ctx, "acme", "run_1") != nil {
			t.Fatal("want the State on the first take only")
		}
	})
	t.Run("bounded, oldest out first", func(t *testing.T) {
		var c states
		for i := range stateCacheSize + 1 {
			c.put("acme", &runlog.State{RunID: "run_" + strconv.Itoa(i)})
		}
		if c.take(ctx, "acme", "run_0") != nil {
			t.Error("the oldest State outlived the bound")
		}
		if c.take(ctx, "acme", "run_"+strconv.Itoa(stateCacheSize)) == nil {
			t.Error("the newest State is gone")
		}
	})
}
