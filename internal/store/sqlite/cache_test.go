package sqlite

import (
	"fmt"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// TestLastRecords: however Records arrive, the window is the newest ones,
// consecutive, at most recentRecords, and a slice handed out before is
// not changed by the appends after it.
func TestLastRecords(t *testing.T) {
	for _, sizes := range [][]int{{1}, {2, 3, 1, 1, 5}, {40}, {31, 1, 1}, {16, 17}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {20, 20, 20}} {
		t.Run(fmt.Sprint(sizes), func(t *testing.T) {
			var window []store.Record
			seq := int64(0)
			for _, n := range sizes {
				var recs []store.Record
				for range n {
					seq++
					recs = append(recs, store.Record{Seq: seq, Time: time.Now(), Kind: fmt.Sprint("k", seq)})
				}
				before := append([]store.Record(nil), window...)
				held := window
				window = lastRecords(window, recs)
				for i := range held {
					if held[i].Seq != before[i].Seq || held[i].Kind != before[i].Kind {
						t.Fatalf("a held window changed at %d", i)
					}
				}
				if len(window) == 0 || len(window) > recentRecords || cap(window) > recentRecords {
					t.Fatalf("window of %d (cap %d)", len(window), cap(window))
				}
				for i, r := range window {
					if want := seq - int64(len(window)-1-i); r.Seq != want || r.Kind != fmt.Sprint("k", want) {
						t.Fatalf("window[%d] is seq %d, want %d", i, r.Seq, want)
					}
				}
				if min(int(seq), recentRecords/2) > len(window) {
					t.Fatalf("window of %d keeps too few of %d", len(window), seq)
				}
			}
		})
	}
}
