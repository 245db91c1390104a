package secret_test

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/secret"
)

// allForms are key's forms that a Scrubber removes.
func allForms() []string {
	js, _ := json.Marshal(key)
	b := []byte(key)
	return []string{
		key, string(js[1 : len(js)-1]), strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(js[1 : len(js)-1])),
		url.QueryEscape(key), url.PathEscape(key),
		base64.StdEncoding.EncodeToString(b), base64.URLEncoding.EncodeToString(b),
		base64.RawStdEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b),
	}
}

// chunks cuts text into pieces of n bytes.
func chunks(text string, n int) []string {
	var out []string
	for len(text) > n {
		out, text = append(out, text[:n]), text[n:]
	}
	return append(out, text)
}

// TestPiecesCatchSecretsSplitAcrossPieces: each form of a secret, sent in
// pieces of 1 to 7 bytes, never reaches the output, and the output joined
// is the whole text scrubbed, byte for byte.
func TestPiecesCatchSecretsSplitAcrossPieces(t *testing.T) {
	s := scrubber()
	for i, form := range allForms() {
		texts := []string{
			"key=" + form + " and more text after it",
			form,
			"tok " + form[:len(form)-1] + " is not it, " + form + form + " is it twice",
			"ünïcödé " + form + " ✓",
		}
		for _, text := range texts {
			want := s.String(text)
			if !strings.Contains(want, secret.Redacted) {
				t.Fatalf("form %d: String does not redact %q", i, text)
			}
			for n := 1; n <= 7; n++ {
				p := s.Pieces()
				var got strings.Builder
				for _, piece := range chunks(text, n) {
					out := p.Write(piece)
					got.WriteString(out)
					if s.Holds(got.String()) {
						t.Fatalf("form %d in %d-byte pieces: the output so far holds the secret: %q", i, n, got.String())
					}
				}
				got.WriteString(p.Flush())
				if got.String() != want {
					t.Errorf("form %d in %d-byte pieces: %q, want %q", i, n, got.String(), want)
				}
			}
		}
	}
}

// TestPiecesHoldBackOnlyWhatCouldBeASecret: text that cannot begin a
// secret goes out at once; a piece that could is held until the next
// settles it.
func TestPiecesHoldBackOnlyWhatCouldBeASecret(t *testing.T) {
	p := scrubber().Pieces()
	if out := p.Write("hello world "); out != "hello world " {
		t.Errorf("plain text: %q, held %d", out, p.Held())
	}
	if out := p.Write("key=to"); out != "key=" || p.Held() != 2 {
		t.Errorf("a possible secret's start: %q out, %d held; want key= and 2", out, p.Held())
	}
	if out := p.Write("day"); out != "today" || p.Held() != 0 {
		t.Errorf("the start turned out not to be one: %q out, %d held", out, p.Held())
	}
	var none *secret.Scrubber
	if out := none.Pieces().Write(key); out != key {
		t.Errorf("a nil Scrubber changed %q to %q", key, out)
	}
}
