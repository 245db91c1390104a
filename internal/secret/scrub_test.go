package secret_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/secret"
)

const key = `tok/en+1&<2>"x`

func scrubber() *secret.Scrubber {
	s := secret.NewScrubber()
	s.Add(key)
	return s
}

func TestScrubString(t *testing.T) {
	js, _ := json.Marshal(key)
	tests := []struct {
		name, in, want string
	}{
		{name: "plain", in: "Bearer " + key, want: "Bearer [redacted]"},
		{name: "JSON-escaped", in: string(js), want: `"[redacted]"`},
		{name: "URL-encoded", in: "?k=" + url.QueryEscape(key), want: "?k=[redacted]"},
		{name: "path-escaped", in: "/" + url.PathEscape(key), want: "/[redacted]"},
		{name: "base64", in: base64.StdEncoding.EncodeToString([]byte(key)), want: "[redacted]"},
		{name: "base64url unpadded", in: base64.RawURLEncoding.EncodeToString([]byte(key)), want: "[redacted]"},
		{name: "other text kept", in: "nothing to hide", want: "nothing to hide"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := scrubber().String(tt.in); got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	t.Run("short values are not scrubbed", func(t *testing.T) {
		s := secret.NewScrubber()
		s.Add("abc12")
		if got := s.String("abc12 stays"); got != "abc12 stays" || !s.Empty() {
			t.Errorf("String = %q, Empty = %v", got, s.Empty())
		}
	})
	t.Run("nil scrubs nothing", func(t *testing.T) {
		var s *secret.Scrubber
		if got := s.String(key); got != key {
			t.Errorf("String = %q", got)
		}
	})
}

func TestScrubJSON(t *testing.T) {
	detail, err := anypb.New(structpb.NewStringValue("the key " + key + " leaked"))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := proto.Marshal(detail)
	doc, _ := json.Marshal(map[string]any{
		"text": "said " + key, key: 1, "list": []any{"a " + key, 2.5},
		"details": [][]byte{raw}, "nested": map[string]any{"n": json.Number("12345678901234567890")},
	})
	out := scrubber().JSON(doc)
	if bytes.Contains(out, []byte("tok/en")) || bytes.Contains(out, []byte(base64.StdEncoding.EncodeToString([]byte(key)))) {
		t.Fatalf("JSON kept the key: %s", out)
	}
	var got struct {
		Text    string                 `json:"text"`
		List    []any                  `json:"list"`
		Details [][]byte               `json:"details"`
		Nested  map[string]json.Number `json:"nested"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("scrubbed JSON does not decode: %v\n%s", err, out)
	}
	if got.Text != "said [redacted]" || got.List[0] != "a [redacted]" || !bytes.Contains(out, []byte(`"[redacted]":1`)) {
		t.Errorf("scrubbed %s", out)
	}
	if !bytes.Contains(out, []byte("12345678901234567890")) {
		t.Errorf("a number lost its digits: %s", out)
	}
	back := &anypb.Any{}
	if err := proto.Unmarshal(got.Details[0], back); err != nil {
		t.Fatalf("the scrubbed detail is no longer a message: %v", err)
	}
	v := &structpb.Value{}
	if err := back.UnmarshalTo(v); err != nil || v.GetStringValue() != "the key [redacted] leaked" {
		t.Errorf("detail = %v, %v", v, err)
	}
	t.Run("unchanged document is returned as it is", func(t *testing.T) {
		in := []byte(`{"b": 1, "a": "x"}`)
		if out := scrubber().JSON(in); !bytes.Equal(out, in) {
			t.Errorf("JSON = %s", out)
		}
	})
	t.Run("not JSON is scrubbed as bytes", func(t *testing.T) {
		if out := scrubber().JSON([]byte("oops " + key)); string(out) != "oops [redacted]" {
			t.Errorf("JSON = %s", out)
		}
	})
}

func TestScrubError(t *testing.T) {
	errs.SetFailureEncoder(func(typed error) errs.Stored {
		return errs.Stored{Code: 9, Reason: "TOOL_REJECTED", Message: typed.Error(), Metadata: map[string]string{"m": key}}
	})
	tests := []struct {
		name string
		err  error
		same bool
	}{
		{name: "typed error naming the key", err: &errs.ToolRejected{Tool: "t", Message: "bad " + key}},
		{name: "stored failure", err: &errs.Stored{Message: "m " + key, Metadata: map[string]string{"k": key}, Details: [][]byte{[]byte(key)}}},
		{name: "error without the key", err: &errs.ToolRejected{Tool: "t", Message: "bad"}, same: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := scrubber().Error(tt.err)
			if tt.same {
				if got != tt.err {
					t.Errorf("Error = %#v, want it unchanged", got)
				}
				return
			}
			var st *errs.Stored
			if !errors.As(got, &st) {
				t.Fatalf("Error = %#v, want *errs.Stored", got)
			}
			b, _ := json.Marshal(st)
			if strings.Contains(string(b), "tok/en") || !strings.Contains(st.Message, "[redacted]") {
				t.Errorf("stored %s", b)
			}
		})
	}
}

func TestHandler(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(secret.Handler(slog.NewJSONHandler(&buf, nil), scrubber()))
	log.With("with", "w "+key).WithGroup("g").Info("message "+key,
		"str", key, "err", errors.New("failed: "+key), "group", slog.GroupValue(slog.String("inner", key)),
		"n", 42, "any", struct{ K string }{key})
	out := buf.String()
	if strings.Contains(out, "tok/en") || strings.Count(out, "[redacted]") != 6 || !strings.Contains(out, `"n":42`) {
		t.Errorf("log line %s", out)
	}
}

func TestWatch(t *testing.T) {
	t.Setenv("RUNSVC_SECRET_WATCHED", key)
	s := secret.NewScrubber()
	r := s.Watch(secret.Env{})
	if _, err := r.Resolve(context.Background(), "tenants/default/specs/x", "missing"); err == nil || !s.Empty() {
		t.Fatalf("a missing credential: err %v, empty %v", err, s.Empty())
	}
	v, err := r.Resolve(context.Background(), "tenants/default/specs/x", "watched")
	if err != nil || v != key {
		t.Fatalf("Resolve = %q, %v", v, err)
	}
	if got := s.String("x " + key); got != "x [redacted]" {
		t.Errorf("after resolving, String = %q", got)
	}
}
