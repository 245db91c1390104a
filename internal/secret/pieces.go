package secret

import (
	"strings"
	"unicode/utf8"
)

// Pieces scrubs a text that arrives in pieces, such as a model's streamed
// answer, so that a secret split across pieces is caught as surely as a
// whole one: Write holds back the end of what it was given for as long as
// it could begin a known form of a secret, and returns only what can no
// longer become one, scrubbed. Flush returns the rest once the text is
// complete. What the writes and the flush return, joined, is the whole
// text scrubbed with String, so offsets counted in it agree with the text
// as stored. A Pieces is for one text and one goroutine.
type Pieces struct {
	s    *Scrubber
	held string
}

// Pieces returns a Pieces that scrubs with s; with a nil or empty s it
// holds nothing back.
func (s *Scrubber) Pieces() *Pieces { return &Pieces{s: s} }

// Write adds piece to the text and returns the part of it that is now
// safe to send, scrubbed; possibly "".
func (p *Pieces) Write(piece string) string {
	forms := p.s.snapshot()
	if len(forms) == 0 && p.held == "" {
		return piece
	}
	text := p.held + piece
	cut := safeCut(text, forms)
	p.held = text[cut:]
	return p.s.String(text[:cut])
}

// Flush returns what Write held back, scrubbed: the text is complete.
func (p *Pieces) Flush() string {
	rest := p.held
	p.held = ""
	return p.s.String(rest)
}

// Held reports how many bytes Write holds back.
func (p *Pieces) Held() int { return len(p.held) }

// safeCut returns the longest prefix length of text that no occurrence of
// a form straddles, counting a form that text's end may begin: text[:cut]
// can be scrubbed now, whatever comes after text. It never cuts a UTF-8
// character.
func safeCut(text string, forms []string) int {
	cut := len(text)
	for moved := true; moved; {
		moved = false
		for cut > 0 && cut < len(text) && !utf8.RuneStart(text[cut]) {
			cut--
			moved = true
		}
		for _, f := range forms {
			if at := straddles(text, f, cut); at >= 0 {
				cut, moved = at, true
			}
		}
	}
	return cut
}

// straddles returns the first position before cut where f begins and
// reaches cut or beyond (whole, or cut off by text's end), or -1.
func straddles(text, f string, cut int) int {
	for at := max(0, cut-len(f)+1); at < cut; at++ {
		if text[at] != f[0] {
			continue
		}
		end := min(at+len(f), len(text))
		if strings.HasPrefix(f, text[at:end]) {
			return at
		}
	}
	return -1
}
