package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	// Registers the google.rpc error details so statuses print with them.
	_ "google.golang.org/genproto/googleapis/rpc/errdetails"
)

// jsonOptions make --json output stable: every field present, proto field
// names in lowerCamelCase, enums by name.
var jsonOptions = protojson.MarshalOptions{EmitUnpopulated: true}

// printJSON writes a message as one compact line of protojson.
func (a *app) printJSON(m proto.Message) error {
	b, err := jsonOptions.Marshal(m)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err = a.stdout.Write(out.Bytes())
	return err
}

// shortDuration writes a duration rounded to what a person reads and
// without trailing zero units: 250ms, 1.5s, 2m, 1h30m.
func shortDuration(d time.Duration) string {
	if d >= time.Second {
		d = d.Round(100 * time.Millisecond)
	} else {
		d = d.Round(time.Millisecond)
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// elapsed writes how long something took or has been going on, at the
// precision a person reads: 0.4s, 12s, 3m05s, 2h10m.
func elapsed(d time.Duration) string {
	switch {
	case d < 0:
		d = 0
		fallthrough
	case d < 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	default:
		return fmt.Sprintf("%dd", int(d.Hours())/24)
	}
}

// when writes a point in time in local time with how far it is from now:
// "2026-11-29 19:56:27 CET (in 59m59s)".
func when(ts *timestamppb.Timestamp) string {
	if ts == nil {
		return "never"
	}
	t := ts.AsTime().Local()
	d := time.Until(t).Round(time.Second)
	ago := d < 0
	if ago {
		d = -d
	}
	rel := elapsed(d)
	if d < time.Minute {
		rel = fmt.Sprintf("%ds", int(d.Seconds()))
	}
	switch {
	case d == 0:
		rel = "just now"
	case ago:
		rel += " ago"
	default:
		rel = "in " + rel
	}
	return t.Format("2006-01-02 15:04:05 MST") + " (" + rel + ")"
}

// between is the time from one record to another, or "" when either is
// unknown.
func between(from, to *timestamppb.Timestamp) string {
	if from == nil || to == nil {
		return ""
	}
	return elapsed(to.AsTime().Sub(from.AsTime()))
}

// clip shortens s to at most n runes, saying how much was left out.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return fmt.Sprintf("%s... (%d more characters)", string(r[:n]), len(r)-n)
}

// indent puts prefix before every line but the first of s, so a
// multi-line text lines up under its label.
func indent(s, prefix string) string {
	s = strings.TrimRight(s, "\n")
	return strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// compactJSON writes a message (a Struct or Value) as compact JSON.
func compactJSON(m proto.Message) string {
	if m == nil {
		return "null"
	}
	b, err := protojson.Marshal(m)
	if err != nil {
		return "?"
	}
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return string(b)
	}
	return out.String()
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:/@=,+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return strings.ToUpper(string(r)) + s[n:]
}

// plural writes "1 call" or "2 calls".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
