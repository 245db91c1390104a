// Package pagetoken encodes list positions as opaque page tokens, and
// bounds page sizes, the same way for every store.
package pagetoken

import (
	"encoding/base64"
	"encoding/json"

	"github.com/runsvc/runsvc/internal/errs"
)

// Page sizes.
const (
	DefaultSize = 50
	MaxSize     = 500
)

// Size returns the page size to use for a requested one.
func Size(requested int) int {
	switch {
	case requested <= 0:
		return DefaultSize
	case requested > MaxSize:
		return MaxSize
	}
	return requested
}

// Encode turns a position into a token.
func Encode(position any) string {
	b, err := json.Marshal(position)
	if err != nil {
		panic("pagetoken: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// Decode reads a token into position; an empty token leaves it zero. A
// token that does not decode is *errs.InvalidRequest.
func Decode(token string, position any) error {
	if token == "" {
		return nil
	}
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err == nil {
		err = json.Unmarshal(b, position)
	}
	if err != nil {
		return errs.BadField("page_token", "is not a token this server issued")
	}
	return nil
}

// SpecPosition is where a list of Specs stopped: the last Spec's name and
// its publish order. Every store uses it, so their tokens have one form.
type SpecPosition struct {
	Name string `json:"n"`
	Ord  int64  `json:"o"`
}

// RunPosition is where a list of Runs stopped: the last Run's creation
// time in Unix nanoseconds and its ID. Every store uses it, so their
// tokens have one form.
type RunPosition struct {
	Created int64  `json:"c"`
	RunID   string `json:"r"`
}
