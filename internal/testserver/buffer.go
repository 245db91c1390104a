package testserver

import (
	"bytes"
	"strings"
	"sync"
)

// Buffer is a log sink safe for concurrent writes.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String returns everything written.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Lines returns the lines that contain all of the given strings.
func (b *Buffer) Lines(contains ...string) []string {
	var out []string
	for _, line := range strings.Split(b.String(), "\n") {
		ok := line != ""
		for _, c := range contains {
			ok = ok && strings.Contains(line, c)
		}
		if ok {
			out = append(out, line)
		}
	}
	return out
}
