package pagetoken_test

import (
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store/pagetoken"
)

// listPosition is the shape the stores' list methods keep in a token.
type listPosition struct {
	Name string `json:"n"`
	Ord  int64  `json:"o"`
}

// FuzzPageToken: any token decodes, or is INVALID_REQUEST on page_token,
// never a panic; what decodes re-encodes to a token that decodes the same;
// and every position the server encodes comes back unchanged.
func FuzzPageToken(f *testing.F) {
	f.Add("", "", int64(0))
	f.Add(pagetoken.Encode(listPosition{Name: "triage", Ord: 7}), "triage", int64(7))
	f.Add("eyJuIjoidHJpYWdlIiwibyI6N30", "a/b+c=d?&\"é\u2028", int64(-1))
	f.Add("not a token!", "x", int64(1)<<62)
	f.Add("eyJuIjpbXX0", "", int64(0))
	f.Fuzz(func(t *testing.T, token, name string, ord int64) {
		var got listPosition
		err := pagetoken.Decode(token, &got)
		var bad *errs.InvalidRequest
		switch {
		case err == nil:
			var again listPosition
			if err := pagetoken.Decode(pagetoken.Encode(got), &again); err != nil || again != got {
				t.Fatalf("decoded %+v from %q, re-encoded it reads %+v, %v", got, token, again, err)
			}
		case !errors.As(err, &bad) || len(bad.Violations) != 1 || bad.Violations[0].Field != "page_token":
			t.Fatalf("token %q: %T %v, want INVALID_REQUEST on page_token", token, err, err)
		}
		if !utf8.ValidString(name) {
			return // JSON keeps valid UTF-8 only; the stores issue no other names
		}
		want := listPosition{Name: name, Ord: ord}
		var back listPosition
		if err := pagetoken.Decode(pagetoken.Encode(want), &back); err != nil || back != want {
			t.Fatalf("position %+v came back as %+v, %v", want, back, err)
		}
	})
}
