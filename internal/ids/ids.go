// Package ids makes the identifiers runsvc hands out: a prefix, then a
// sortable time part and randomness ("run_01jd8x...").
package ids

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/binary"
	"strings"
	"time"
)

var encoding = base32.NewEncoding("0123456789abcdefghjkmnpqrstvwxyz").WithPadding(base32.NoPadding)

// New returns prefix + "_" + 26 characters that sort by creation time.
func New(prefix string, now time.Time) string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(now.UnixMilli())<<16)
	_, _ = rand.Read(b[6:])
	var sb strings.Builder
	sb.WriteString(prefix)
	sb.WriteByte('_')
	sb.WriteString(encoding.EncodeToString(b[:]))
	return sb.String()
}
