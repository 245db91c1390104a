package secret

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/url"
	"sort"
	"strings"
	"sync"

	"github.com/runsvc/runsvc/internal/errs"
)

// Redacted is what a scrubbed secret reads as.
const Redacted = "[redacted]"

// MinScrubLength is the shortest value a Scrubber removes: shorter ones
// would destroy ordinary text.
const MinScrubLength = 6

// Scrubber removes the credentials this process has resolved from
// whatever it records, logs or answers: the value itself and its
// JSON-escaped, URL-encoded and base64 forms. A nil Scrubber removes
// nothing. It is safe for concurrent use.
type Scrubber struct {
	mu    sync.RWMutex
	raw   map[string]bool
	forms []string // longest first
}

// NewScrubber returns a Scrubber that knows no secret yet.
func NewScrubber() *Scrubber { return &Scrubber{raw: map[string]bool{}} }

// Add makes the Scrubber remove value and its encodings from now on.
func (s *Scrubber) Add(value string) {
	if s == nil || len(value) < MinScrubLength {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.raw[value] {
		return
	}
	s.raw[value] = true
	seen := map[string]bool{}
	for _, f := range s.forms {
		seen[f] = true
	}
	for _, f := range encodings(value) {
		if len(f) >= MinScrubLength && !seen[f] {
			seen[f] = true
			s.forms = append(s.forms, f)
		}
	}
	sort.SliceStable(s.forms, func(i, j int) bool { return len(s.forms[i]) > len(s.forms[j]) })
}

// encodings are the forms of a value a tool, server or model may echo.
func encodings(v string) []string {
	var esc bytes.Buffer
	enc := json.NewEncoder(&esc)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	htmlEsc, _ := json.Marshal(v)
	b := []byte(v)
	return []string{
		v,
		strings.TrimSuffix(strings.TrimSuffix(esc.String(), "\n"), `"`)[1:],
		string(htmlEsc[1 : len(htmlEsc)-1]),
		url.QueryEscape(v), url.PathEscape(v),
		base64.StdEncoding.EncodeToString(b), base64.URLEncoding.EncodeToString(b),
		base64.RawStdEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b),
	}
}

// Empty reports whether the Scrubber knows no secret.
func (s *Scrubber) Empty() bool {
	if s == nil {
		return true
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.forms) == 0
}

func (s *Scrubber) snapshot() []string {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.forms
}

// Holds reports whether text holds a known secret in any of its forms.
func (s *Scrubber) Holds(text string) bool {
	for _, f := range s.snapshot() {
		if strings.Contains(text, f) {
			return true
		}
	}
	return false
}

// String returns text with every known secret replaced by Redacted.
func (s *Scrubber) String(text string) string {
	for _, f := range s.snapshot() {
		text = strings.ReplaceAll(text, f, Redacted)
	}
	return text
}

// Bytes returns b with every known secret replaced by Redacted; b itself
// when it holds none.
func (s *Scrubber) Bytes(b []byte) []byte {
	out := b
	for _, f := range s.snapshot() {
		if bytes.Contains(out, []byte(f)) {
			out = bytes.ReplaceAll(out, []byte(f), []byte(Redacted))
		}
	}
	return out
}

// Watch returns a Resolver that resolves through r and makes the
// Scrubber remove every value it resolves: the one place credentials
// enter runsvc, so nothing resolved escapes the scrub.
func (s *Scrubber) Watch(r Resolver) Resolver { return watching{r: r, s: s} }

type watching struct {
	r Resolver
	s *Scrubber
}

func (w watching) Resolve(ctx context.Context, scope, name string) (string, error) {
	v, err := w.r.Resolve(ctx, scope, name)
	if err == nil {
		w.s.Add(v)
	}
	return v, err
}

// Stored returns a stored failure with every known secret removed from
// its message, model text, metadata and details.
func (s *Scrubber) Stored(st errs.Stored) errs.Stored {
	if s.Empty() {
		return st
	}
	st.Message, st.ModelText = s.String(st.Message), s.String(st.ModelText)
	if st.Metadata != nil {
		md := make(map[string]string, len(st.Metadata))
		for k, v := range st.Metadata {
			md[s.String(k)] = s.String(v)
		}
		st.Metadata = md
	}
	if st.Details != nil {
		ds := make([][]byte, len(st.Details))
		for i, d := range st.Details {
			ds[i] = s.wire(d)
		}
		st.Details = ds
	}
	return st
}

// Error returns err itself when its text holds no known secret, else its
// stored form with the secrets removed (which keeps its status).
func (s *Scrubber) Error(err error) error {
	if err == nil || s.Empty() {
		return err
	}
	var stored *errs.Stored
	if !s.Holds(err.Error()) && !errors.As(err, &stored) {
		return err
	}
	st := s.Stored(errs.Store(err, errs.NewErrorID()))
	return &st
}
