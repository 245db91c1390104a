// Package lru is runsvc's one in-process cache type: bounded, least
// recently used first out, safe for concurrent use, and keyed by tenant so
// that no entry of one tenant can answer a lookup of another.
//
// Cache only what never changes under its key (a Spec Version, a Record
// converted for the wire): the cache has no invalidation beyond Remove.
package lru

import (
	lru "github.com/hashicorp/golang-lru/v2"
)

// Key names a cached value within a tenant. ID is whatever identifies the
// value there ("name\x00version", a run id); Seq, when used, numbers
// values under one ID (a Record's seq), so that a hot key needs no string
// built for each lookup.
type Key struct {
	Tenant string
	ID     string
	Seq    int64
}

// Cache is a bounded cache of V by Key.
type Cache[V any] struct {
	c *lru.Cache[Key, V]
}

// New returns a Cache holding at most size values; size must be positive.
func New[V any](size int) *Cache[V] {
	c, err := lru.New[Key, V](size)
	if err != nil {
		panic("lru: " + err.Error())
	}
	return &Cache[V]{c: c}
}

// Get returns the value under k, marking it recently used.
func (c *Cache[V]) Get(k Key) (V, bool) { return c.c.Get(k) }

// Add stores v under k, evicting the least recently used value when full.
func (c *Cache[V]) Add(k Key, v V) { c.c.Add(k, v) }

// Remove drops the value under k.
func (c *Cache[V]) Remove(k Key) { c.c.Remove(k) }

// Len returns how many values the cache holds.
func (c *Cache[V]) Len() int { return c.c.Len() }
