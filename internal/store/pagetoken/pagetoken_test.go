package pagetoken_test

import (
	"encoding/base64"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store/pagetoken"
)

type position struct {
	Name    string    `json:"n"`
	Time    time.Time `json:"t"`
	Seq     int64     `json:"s"`
	Version string    `json:"v,omitempty"`
}

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		pos  position
	}{
		{"zero", position{}},
		{"name and time", position{Name: "triage", Time: time.Date(2026, 11, 29, 12, 0, 0, 123456789, time.UTC)}},
		{"large seq", position{Seq: 1<<62 + 7}},
		{"characters that need escaping", position{Name: "a/b+c=d?&\"é\u2028", Version: "v1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tok := pagetoken.Encode(tt.pos)
			if tok == "" {
				t.Fatal("Encode returned an empty token")
			}
			if strings.ContainsAny(tok, "+/= ") {
				t.Errorf("token %q is not URL safe", tok)
			}
			var got position
			if err := pagetoken.Decode(tok, &got); err != nil {
				t.Fatalf("Decode = %v", err)
			}
			if !reflect.DeepEqual(got, tt.pos) || !got.Time.Equal(tt.pos.Time) {
				t.Errorf("round trip = %+v, want %+v", got, tt.pos)
			}
		})
	}
	t.Run("empty token leaves the position zero", func(t *testing.T) {
		got := position{}
		if err := pagetoken.Decode("", &got); err != nil || got != (position{}) {
			t.Errorf("Decode(\"\") = %+v, %v", got, err)
		}
	})
	t.Run("other positions", func(t *testing.T) {
		var n int
		if err := pagetoken.Decode(pagetoken.Encode(42), &n); err != nil || n != 42 {
			t.Errorf("int round trip = %d, %v", n, err)
		}
		var s []string
		if err := pagetoken.Decode(pagetoken.Encode([]string{"a", "b"}), &s); err != nil || !reflect.DeepEqual(s, []string{"a", "b"}) {
			t.Errorf("list round trip = %v, %v", s, err)
		}
	})
}

func TestDecodeBadToken(t *testing.T) {
	tests := []struct {
		name  string
		token string
	}{
		{"not base64", "!!!not-a-token!!!"},
		{"standard base64 with padding", base64.StdEncoding.EncodeToString([]byte(`{"n":"xy"}`))},
		{"base64 but not JSON", base64.RawURLEncoding.EncodeToString([]byte("hello"))},
		{"JSON of another shape", base64.RawURLEncoding.EncodeToString([]byte(`["a"]`))},
		{"JSON with a wrong field type", base64.RawURLEncoding.EncodeToString([]byte(`{"s":"seven"}`))},
		{"truncated token", pagetoken.Encode(position{Name: "triage", Seq: 9})[:5]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got position
			err := pagetoken.Decode(tt.token, &got)
			var ir *errs.InvalidRequest
			if !errors.As(err, &ir) {
				t.Fatalf("Decode(%q) = %T %v, want *errs.InvalidRequest", tt.token, err, err)
			}
			if len(ir.Violations) != 1 || ir.Violations[0].Field != "page_token" {
				t.Errorf("violations = %+v, want one on page_token", ir.Violations)
			}
		})
	}
}

func TestEncodePanicsOnUnencodable(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("Encode of a channel did not panic")
		}
	}()
	pagetoken.Encode(make(chan int))
}

func TestSize(t *testing.T) {
	tests := []struct{ requested, want int }{
		{-100, pagetoken.DefaultSize},
		{-1, pagetoken.DefaultSize},
		{0, pagetoken.DefaultSize},
		{1, 1},
		{49, 49},
		{pagetoken.DefaultSize, pagetoken.DefaultSize},
		{pagetoken.MaxSize - 1, pagetoken.MaxSize - 1},
		{pagetoken.MaxSize, pagetoken.MaxSize},
		{pagetoken.MaxSize + 1, pagetoken.MaxSize},
		{1 << 30, pagetoken.MaxSize},
	}
	for _, tt := range tests {
		t.Run("", func(t *testing.T) {
			if got := pagetoken.Size(tt.requested); got != tt.want {
				t.Errorf("Size(%d) = %d, want %d", tt.requested, got, tt.want)
			}
		})
	}
	if pagetoken.DefaultSize != 50 || pagetoken.MaxSize != 500 {
		t.Errorf("DefaultSize, MaxSize = %d, %d; want 50, 500", pagetoken.DefaultSize, pagetoken.MaxSize)
	}
}

// TestPositionsKeepTheirForm pins the JSON of the stores' shared
// positions: a token a store issued before they were shared must still
// decode, and a new one must be the same text.
func TestPositionsKeepTheirForm(t *testing.T) {
	tests := []struct {
		name string
		pos  any
		json string
		back func(tok string) (any, error)
	}{
		{
			name: "spec", pos: pagetoken.SpecPosition{Name: "triage", Ord: 3}, json: `{"n":"triage","o":3}`,
			back: func(tok string) (any, error) {
				var p pagetoken.SpecPosition
				return p, pagetoken.Decode(tok, &p)
			},
		},
		{
			name: "run", pos: pagetoken.RunPosition{Created: 1764547200000000001, RunID: "run_01J"}, json: `{"c":1764547200000000001,"r":"run_01J"}`,
			back: func(tok string) (any, error) {
				var p pagetoken.RunPosition
				return p, pagetoken.Decode(tok, &p)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := base64.RawURLEncoding.EncodeToString([]byte(tt.json))
			if tok := pagetoken.Encode(tt.pos); tok != old {
				t.Errorf("Encode = %q, want %q (the form of %s)", tok, old, tt.json)
			}
			got, err := tt.back(old)
			if err != nil || got != tt.pos {
				t.Errorf("Decode(%s) = %+v, %v; want %+v", tt.json, got, err, tt.pos)
			}
		})
	}
}
