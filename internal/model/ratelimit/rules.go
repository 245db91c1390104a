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
