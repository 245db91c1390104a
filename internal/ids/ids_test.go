package ids_test

import (
	"regexp"
	"sort"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/ids"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func TestNewShape(t *testing.T) {
	tests := []struct{ prefix string }{{"run"}, {"wkr"}, {"msg"}, {"del"}, {"x"}}
	for _, tt := range tests {
		t.Run(tt.prefix, func(t *testing.T) {
			id := ids.New(tt.prefix, t0)
			pattern := regexp.MustCompile(`^` + regexp.QuoteMeta(tt.prefix) + `_[0-9a-hjkmnp-tv-z]{26}$`)
			if !pattern.MatchString(id) {
				t.Errorf("New(%q) = %q, want %s", tt.prefix, id, pattern)
			}
		})
	}
}

func TestNewUnique(t *testing.T) {
	tests := []struct {
		name string
		now  func(i int) time.Time
	}{
		{"same instant", func(int) time.Time { return t0 }},
		{"same millisecond", func(i int) time.Time { return t0.Add(time.Duration(i) * time.Microsecond / 10) }},
		{"the wall clock", func(int) time.Time { return time.Now() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const n = 10000
			seen := make(map[string]bool, n)
			for i := range n {
				id := ids.New("run", tt.now(i))
				if seen[id] {
					t.Fatalf("id %s made twice in %d", id, i)
				}
				seen[id] = true
			}
		})
	}
}

func TestNewSortsByTime(t *testing.T) {
	tests := []struct {
		name string
		at   func(i int) time.Time
	}{
		{"a millisecond apart", func(i int) time.Time { return t0.Add(time.Duration(i) * time.Millisecond) }},
		{"a second apart", func(i int) time.Time { return t0.Add(time.Duration(i) * time.Second) }},
		{"a day apart", func(i int) time.Time { return t0.AddDate(0, 0, i) }},
		{"a decade apart", func(i int) time.Time { return t0.AddDate(10*i, 0, 0) }},
		{"from the epoch on", func(i int) time.Time { return time.UnixMilli(0).AddDate(i, 0, 0) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var made []string
			for i := range 200 {
				made = append(made, ids.New("run", tt.at(i)))
			}
			sorted := append([]string(nil), made...)
			sort.Strings(sorted)
			for i := range made {
				if sorted[i] != made[i] {
					t.Fatalf("ids made at increasing times do not sort in that order: %s (made %d) sorts at %d", made[i], i, indexOf(sorted, made[i]))
				}
			}
		})
	}
	t.Run("earlier time part sorts first whatever the randomness", func(t *testing.T) {
		for range 1000 {
			a, b := ids.New("run", t0), ids.New("run", t0.Add(time.Millisecond))
			if !(a < b) {
				t.Fatalf("%s made before %s sorts after it", a, b)
			}
		}
	})
	t.Run("same prefix in time part for the same millisecond", func(t *testing.T) {
		a, b := ids.New("run", t0), ids.New("run", t0.Add(999*time.Microsecond))
		// 48 bits of milliseconds fill the first 9 characters and a part
		// of the 10th.
		if a[:len("run_")+9] != b[:len("run_")+9] {
			t.Errorf("ids of one millisecond differ in their time part: %s %s", a, b)
		}
	})
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}
