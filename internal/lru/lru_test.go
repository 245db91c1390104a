package lru_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/runsvc/runsvc/internal/lru"
)

func TestCache(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T, c *lru.Cache[string])
	}{
		{"tenants never share an entry", func(t *testing.T, c *lru.Cache[string]) {
			c.Add(lru.Key{Tenant: "a", ID: "run_1/1"}, "of a")
			if v, ok := c.Get(lru.Key{Tenant: "b", ID: "run_1/1"}); ok {
				t.Errorf("tenant b read %q, tenant a's entry", v)
			}
			c.Add(lru.Key{Tenant: "b", ID: "run_1/1"}, "of b")
			if v, _ := c.Get(lru.Key{Tenant: "a", ID: "run_1/1"}); v != "of a" {
				t.Errorf("tenant a reads %q after b wrote the same id", v)
			}
		}},
		{"bounded, least recently used out", func(t *testing.T, c *lru.Cache[string]) {
			for i := 0; i < 3; i++ {
				c.Add(lru.Key{Tenant: "a", ID: fmt.Sprint(i)}, fmt.Sprint(i))
			}
			c.Get(lru.Key{Tenant: "a", ID: "0"}) // 1 is now the least recently used
			c.Add(lru.Key{Tenant: "a", ID: "3"}, "3")
			if c.Len() != 3 {
				t.Errorf("%d entries, want the bound 3", c.Len())
			}
			if _, ok := c.Get(lru.Key{Tenant: "a", ID: "1"}); ok {
				t.Error("the least recently used entry stayed")
			}
			if _, ok := c.Get(lru.Key{Tenant: "a", ID: "0"}); !ok {
				t.Error("a recently read entry was evicted")
			}
		}},
		{"remove", func(t *testing.T, c *lru.Cache[string]) {
			k := lru.Key{Tenant: "a", ID: "x"}
			c.Add(k, "x")
			c.Remove(k)
			if _, ok := c.Get(k); ok {
				t.Error("a removed entry is still there")
			}
		}},
		{"concurrent use", func(t *testing.T, c *lru.Cache[string]) {
			var wg sync.WaitGroup
			for w := 0; w < 8; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < 500; i++ {
						k := lru.Key{Tenant: fmt.Sprint(w % 2), ID: fmt.Sprint(i % 7)}
						c.Add(k, k.Tenant)
						if v, ok := c.Get(k); ok && v != k.Tenant {
							t.Errorf("tenant %s read %q", k.Tenant, v)
						}
					}
				}()
			}
			wg.Wait()
			if c.Len() > 3 {
				t.Errorf("%d entries over the bound", c.Len())
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, lru.New[string](3)) })
	}
}
