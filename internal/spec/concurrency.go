package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The modes of a Concurrency: what a start does when its key's slots are
// all held.
const (
	ConcurrencyQueue   = "queue"
	ConcurrencyReject  = "reject"
	ConcurrencyReplace = "replace"
)

// ConcurrencyModes lists the valid modes.
var ConcurrencyModes = []string{ConcurrencyQueue, ConcurrencyReject, ConcurrencyReplace}

// MaxConcurrencyLimit bounds a Concurrency's limit.
const MaxConcurrencyLimit = 1000

// MaxConcurrencyKeyBytes bounds a Run's concurrency key, the expression
// and the value together.
const MaxConcurrencyKeyBytes = 256

// Concurrency limits how many Runs of the Spec are active at once per key.
type Concurrency struct {
	// Key is the expression: "input" or "input.<field>[.<field>...]".
	Key string `json:"key"`
	// Limit is how many Runs of one key may hold a slot at once; 0 is 1.
	Limit int `json:"limit,omitempty"`
	// Mode is one of ConcurrencyModes; empty is ConcurrencyQueue.
	Mode string `json:"mode,omitempty"`
}

// keyPattern is a key expression: input, or input with dotted fields.
var keyPattern = regexp.MustCompile(`^input(\.[A-Za-z_][A-Za-z0-9_-]{0,63}){0,8}$`)

// EffectiveLimit is the limit, 1 when unset.
func (c Concurrency) EffectiveLimit() int { return max(c.Limit, 1) }

// EffectiveMode is the mode, ConcurrencyQueue when unset.
func (c Concurrency) EffectiveMode() string {
	if c.Mode == "" {
		return ConcurrencyQueue
	}
	return c.Mode
}

// KeyOf evaluates the key expression over a Run's input: the expression
// and the value, "input.ticket_id=T-42", or "" (no key: the Run is not
// limited) when the input has no string, number or boolean there.
func (c Concurrency) KeyOf(input string) string {
	path := strings.Split(c.Key, ".")[1:]
	if len(path) == 0 {
		return truncateKey(c.Key + "=" + input)
	}
	var v any
	if json.Unmarshal([]byte(input), &v) != nil {
		return ""
	}
	for _, field := range path {
		obj, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = obj[field]
	}
	switch x := v.(type) {
	case string:
		return truncateKey(c.Key + "=" + x)
	case float64:
		return truncateKey(c.Key + "=" + strconv.FormatFloat(x, 'f', -1, 64))
	case bool:
		return c.Key + "=" + strconv.FormatBool(x)
	}
	return ""
}

// truncateKey keeps a key within MaxConcurrencyKeyBytes: a longer one is
// its start and a hash of the whole, so two long values still differ.
func truncateKey(k string) string {
	if len(k) <= MaxConcurrencyKeyBytes {
		return k
	}
	sum := sha256.Sum256([]byte(k))
	return k[:MaxConcurrencyKeyBytes-33] + "#" + hex.EncodeToString(sum[:16])
}

// concurrency reports what is wrong with a Spec's concurrency.
func (v *validator) concurrency(c *Concurrency) {
	if c == nil {
		return
	}
	if !keyPattern.MatchString(c.Key) {
		v.add("concurrency.key", "%q is not a key expression: use input or input.<field>, with up to 8 dotted fields of letters, digits, '_' and '-'", c.Key)
	}
	if c.Limit < 0 || c.Limit > MaxConcurrencyLimit {
		v.add("concurrency.limit", "is %d; it must be between 1 and %d, or 0 for 1", c.Limit, MaxConcurrencyLimit)
	}
	switch c.Mode {
	case "", ConcurrencyQueue, ConcurrencyReject, ConcurrencyReplace:
	default:
		v.add("concurrency.mode", "%q is not one of %v", c.Mode, ConcurrencyModes)
	}
}

// String describes the Concurrency for logs.
func (c Concurrency) String() string {
	return fmt.Sprintf("%s limit %d (%s)", c.Key, c.EffectiveLimit(), c.EffectiveMode())
}
