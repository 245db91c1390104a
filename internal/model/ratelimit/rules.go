package ratelimit

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseRule reads a rule as --model-rate-limit gives it:
// PROVIDER[@BASE_URL]=RPM[/TPM], e.g. openai=500/200000 or
// openai@http://127.0.0.1:8080/v1=60.
func ParseRule(s string) (Rule, error) {
	target, limits, ok := strings.Cut(strings.TrimSpace(s), "=")
	if !ok || target == "" {
		return Rule{}, fmt.Errorf("rate limit %q: want PROVIDER[@BASE_URL]=RPM[/TPM]", s)
	}
	var r Rule
	r.Provider, r.BaseURL, _ = strings.Cut(target, "@")
	rpm, tpm, hasTPM := strings.Cut(limits, "/")
	var err error
	if r.RPM, err = strconv.Atoi(rpm); err != nil || r.RPM < 0 {
		return Rule{}, fmt.Errorf("rate limit %q: requests a minute %q is not a number of 0 or more", s, rpm)
	}
	if hasTPM {
		if r.TPM, err = strconv.Atoi(tpm); err != nil || r.TPM < 0 {
			return Rule{}, fmt.Errorf("rate limit %q: tokens a minute %q is not a number of 0 or more", s, tpm)
		}
	}
	if r.RPM == 0 && r.TPM == 0 {
		return Rule{}, fmt.Errorf("rate limit %q limits nothing", s)
	}
	return r, nil
}

// RuleList is the repeatable --model-rate-limit flag; a value may hold
// several rules separated by spaces (as its environment variable does).
type RuleList struct {
	Rules []Rule
	set   bool
}

// String implements flag.Value.
func (l *RuleList) String() string {
	var out []string
	for _, r := range l.Rules {
		t := r.Provider
		if r.BaseURL != "" {
			t += "@" + r.BaseURL
		}
		t += "=" + strconv.Itoa(r.RPM)
		if r.TPM > 0 {
			t += "/" + strconv.Itoa(r.TPM)
		}
		out = append(out, t)
	}
	return strings.Join(out, " ")
}

// Reset makes the next Set replace the rules (the command line's first
// use replaces the environment's).
func (l *RuleList) Reset() { l.set = false }

// Set implements flag.Value.
func (l *RuleList) Set(v string) error {
	if !l.set {
		l.Rules, l.set = nil, true
	}
	for _, f := range strings.Fields(v) {
		r, err := ParseRule(f)
		if err != nil {
			return err
		}
		l.Rules = append(l.Rules, r)
	}
	return nil
}
