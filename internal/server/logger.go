package server

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/runsvc/runsvc/internal/server/logsink"
)

// NewLogger returns the logger `runsvc serve` uses: JSON (or "text") at
// level, written to w in batches off the request path. Close the returned
// io.Closer to flush it.
func NewLogger(w io.Writer, level, format string) (*slog.Logger, io.Closer, error) {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(level)); err != nil {
		return nil, nil, fmt.Errorf("log level %q: %w", level, err)
	}
	sink := logsink.New(w)
	opts := &slog.HandlerOptions{Level: lvl}
	var h slog.Handler
	switch format {
	case "json", "":
		h = slog.NewJSONHandler(sink, opts)
	case "text":
		h = slog.NewTextHandler(sink, opts)
	default:
		_ = sink.Close()
		return nil, nil, fmt.Errorf("log format %q: use json or text", format)
	}
	return slog.New(h), sink, nil
}
