package waiting_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/waiting"
)

func TestBoard(t *testing.T) {
	b := waiting.New()
	since := time.Unix(100, 0)
	b.Set("t", "run_1", "rate_limit:openai/key", since)
	if w, ok := b.Get("t", "run_1"); !ok || w.What != "rate_limit:openai/key" || !w.Since.Equal(since) {
		t.Fatalf("Get = %+v %v", w, ok)
	}
	if _, ok := b.Get("other", "run_1"); ok {
		t.Error("another tenant's Run sees the wait")
	}
	b.Set("t", "run_1", "", time.Time{})
	if _, ok := b.Get("t", "run_1"); ok {
		t.Error("a cleared wait is still there")
	}
	var none *waiting.Board
	none.Set("t", "run_1", "x", since)
	if _, ok := none.Get("t", "run_1"); ok {
		t.Error("a nil Board holds a wait")
	}
}

// ExampleBoard shows a Run's model call waiting on a rate limit.
func ExampleBoard() {
	b := waiting.New()
	b.Set("default", "run_1", "rate_limit:openai/openai_key", time.Now())
	w, _ := b.Get("default", "run_1")
	fmt.Println(w.What)
	// Output: rate_limit:openai/openai_key
}
