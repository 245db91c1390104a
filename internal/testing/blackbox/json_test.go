package blackbox_test

import (
	"encoding/json"
	"testing"
)

func splitJSONArray(t *testing.T, s string) []string {
	t.Helper()
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(s), &raw); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(raw))
	for i, r := range raw {
		out[i] = string(r)
	}
	return out
}
