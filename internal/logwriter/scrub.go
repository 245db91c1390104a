package logwriter

import (
	"bytes"

	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/secret"
)

// Scrub makes the Writer remove every secret s knows from each Record
// before it is folded and stored: tool results and errors, model text and
// failures read "[redacted]" instead, in the log, the index and every
// State a reader sees (DESIGN §6). Set it before the first write.
func (w *Writer) Scrub(s *secret.Scrubber) { w.scrubber = s }

// scrub returns ops with the known secrets removed; an op that holds
// none is kept as it is.
func (w *Writer) scrub(ops []runlog.Op) []runlog.Op {
	if w.scrubber.Empty() || len(ops) == 0 {
		return ops
	}
	out := make([]runlog.Op, len(ops))
	for i, op := range ops {
		out[i] = op
		kind, body, err := runlog.Encode(op)
		if err != nil {
			continue
		}
		clean := w.scrubber.JSON(body)
		if bytes.Equal(clean, body) {
			continue
		}
		if scrubbed, err := runlog.Decode(kind, clean); err == nil {
			out[i] = scrubbed
		}
	}
	return out
}
