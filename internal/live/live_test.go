package live_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/live"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/secret"
)

func TestHubSharesOnePiecePerDelta(t *testing.T) {
	h := live.NewHub()
	w1, w2 := h.Watch("t", "r"), h.Watch("t", "r")
	defer w1.Close()
	defer w2.Close()
	before := w1.Since(0).Changed
	s := h.Begin("t", "r", 7, 2)
	s.Add(model.Delta{Text: "Hel"})
	s.Add(model.Delta{Text: "lo"})
	select {
	case <-before:
	default:
		t.Fatal("watchers were not woken")
	}
	v1, v2 := w1.Since(0), w2.Since(1)
	if v1.CallSeq != 7 || v1.Turn != 2 || len(v1.Deltas) != 2 || v1.Next != 2 || v1.Done {
		t.Fatalf("view %+v", v1)
	}
	if v1.Deltas[1] != v2.Deltas[0] {
		t.Error("watchers got different copies of one piece")
	}
	if v1.Deltas[1].Offset != 3 {
		t.Errorf("offset %d, want 3", v1.Deltas[1].Offset)
	}
	calls := 0
	enc := func(*live.Delta) any { calls++; return calls }
	for range 3 {
		v1.Deltas[0].Encoded(live.SlotText, enc)
	}
	if calls != 1 {
		t.Errorf("encoded %d times, want once", calls)
	}
	s.End()
	s.Add(model.Delta{Text: "late"})
	if v := w1.Since(0); !v.Done || len(v.Deltas) != 2 {
		t.Errorf("after End: %+v", v)
	}
	// A new call replaces the old one.
	s2 := h.Begin("t", "r", 9, 3)
	defer s2.End()
	if v := w1.Since(0); v.CallSeq != 9 || len(v.Deltas) != 0 {
		t.Errorf("after a new call: %+v", v)
	}
}

func TestSoFar(t *testing.T) {
	deltas := []*live.Delta{
		{Text: "héllo "},
		{ToolCall: &model.ToolCallDelta{Index: 0, ID: "c1", Name: "get"}},
		{ToolCall: &model.ToolCallDelta{Index: 0, Arguments: `{"a":`}},
		{Text: "world"},
		{ToolCall: &model.ToolCallDelta{Index: 0, Arguments: `1}`}},
	}
	tests := []struct {
		name     string
		skip     int64
		wantText string
		wantOff  int64
	}{
		{name: "from the start", skip: 0, wantText: "héllo world", wantOff: 0},
		{name: "from an offset", skip: 7, wantText: "world", wantOff: 7},
		{name: "an offset inside a character moves back", skip: 2, wantText: "éllo world", wantOff: 1},
		{name: "an offset past the end sends no text", skip: 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := live.SoFar(4, 1, deltas, tt.skip)
			var text []*live.Delta
			var calls []*model.ToolCallDelta
			for _, d := range got {
				if d.ToolCall != nil {
					calls = append(calls, d.ToolCall)
				} else {
					text = append(text, d)
				}
			}
			if tt.wantText == "" && len(text) != 0 || tt.wantText != "" && (len(text) != 1 || text[0].Text != tt.wantText || text[0].Offset != tt.wantOff) {
				t.Errorf("text pieces %+v, want %q at %d", text, tt.wantText, tt.wantOff)
			}
			want := []*model.ToolCallDelta{{Index: 0, ID: "c1", Name: "get", Arguments: `{"a":1}`}}
			if !reflect.DeepEqual(calls, want) {
				t.Errorf("tool calls %+v, want %+v", calls, want)
			}
		})
	}
}

// TestScrubbingHubHoldsSecretsSplitAcrossPieces: a secret streamed a
// byte at a time, in the text and in a tool call's arguments, reaches no
// watcher; offsets count the scrubbed text, and what was held back goes
// out when the call ends.
func TestScrubbingHubHoldsSecretsSplitAcrossPieces(t *testing.T) {
	const key = "sk-Pr0beS3cr3t"
	scrub := secret.NewScrubber()
	scrub.Add(key)
	h := live.NewScrubbingHub(scrub)
	w := h.Watch("t", "r")
	defer w.Close()
	s := h.Begin("t", "r", 7, 1)
	text, args := "key="+key+" ok", `{"token":"`+key+`"}`
	for i := range len(text) {
		s.Add(model.Delta{Text: text[i : i+1]})
	}
	s.Add(model.Delta{ToolCall: &model.ToolCallDelta{Index: 0, ID: "c1", Name: "get"}})
	for i := range len(args) {
		s.Add(model.Delta{ToolCall: &model.ToolCallDelta{Index: 0, Arguments: args[i : i+1]}})
	}
	check := func(when string, deltas []*live.Delta) {
		var offset int64
		for _, d := range deltas {
			if strings.Contains(d.Text, "sk-") || d.ToolCall != nil && strings.Contains(d.ToolCall.Arguments, "sk-") {
				t.Errorf("%s: a piece holds a part of the secret: %+v", when, d)
			}
			if d.ToolCall == nil && d.Offset != offset {
				t.Errorf("%s: piece at offset %d, want %d", when, d.Offset, offset)
			}
			offset += int64(len(d.Text))
		}
	}
	check("while streaming", w.Since(0).Deltas)
	s.End()
	v := w.Since(0)
	check("after the end", v.Deltas)
	merged := live.SoFar(v.CallSeq, v.Turn, v.Deltas, 0)
	if len(merged) != 2 || merged[0].Text != scrub.String(text) || merged[1].ToolCall.Arguments != scrub.String(args) || merged[1].ToolCall.Name != "get" {
		t.Errorf("merged %q and %+v, want %q and %q", merged[0].Text, merged[1].ToolCall, scrub.String(text), scrub.String(args))
	}
}
