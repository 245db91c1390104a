package logsink_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/server/logsink"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestSinkKeepsEveryLineWhole(t *testing.T) {
	cases := []struct {
		name    string
		writers int
		lines   int
	}{{"one writer", 1, 1000}, {"many writers", 8, 5000}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dst := &lockedBuffer{}
			s := logsink.New(dst)
			var wg sync.WaitGroup
			for w := 0; w < tc.writers; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					for i := 0; i < tc.lines; i++ {
						fmt.Fprintf(s, "writer %d line %d %s\n", w, i, strings.Repeat("x", i%300))
					}
				}(w)
			}
			wg.Wait()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			got := strings.Split(strings.TrimSuffix(dst.String(), "\n"), "\n")
			if len(got) != tc.writers*tc.lines {
				t.Fatalf("%d lines written, want %d", len(got), tc.writers*tc.lines)
			}
			next := make([]int, tc.writers)
			for _, line := range got {
				var w, i int
				if _, err := fmt.Sscanf(line, "writer %d line %d", &w, &i); err != nil || i != next[w] {
					t.Fatalf("line %q out of order or torn (want line %d of writer %d)", line, next[w], w)
				}
				if !strings.HasSuffix(line, strings.Repeat("x", i%300)) {
					t.Fatalf("line %q is torn", line)
				}
				next[w]++
			}
		})
	}
}

func TestSinkFlushesWithoutClose(t *testing.T) {
	dst := &lockedBuffer{}
	s := logsink.New(dst)
	defer s.Close()
	fmt.Fprintln(s, "hello")
	deadline := time.Now().Add(10 * time.Second)
	for dst.String() != "hello\n" {
		if time.Now().After(deadline) {
			t.Fatal("a line never reached the destination without Close")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
