package logwriter

import (
	"bytes"

	"github.com/runsvc/runsvc/internal/runlog"
)

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
