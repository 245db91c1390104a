package secret

import (
	"context"
	"fmt"
	"log/slog"
)

// Handler returns a slog.Handler that removes every secret s knows from a
// log line's message, attribute keys and values before h writes it.
func Handler(h slog.Handler, s *Scrubber) slog.Handler { return scrubHandler{h: h, s: s} }

type scrubHandler struct {
	h slog.Handler
	s *Scrubber
}

func (sh scrubHandler) Enabled(ctx context.Context, l slog.Level) bool { return sh.h.Enabled(ctx, l) }

func (sh scrubHandler) Handle(ctx context.Context, r slog.Record) error {
	if sh.s.Empty() {
		return sh.h.Handle(ctx, r)
	}
	out := slog.NewRecord(r.Time, r.Level, sh.s.String(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(sh.attr(a))
		return true
	})
	return sh.h.Handle(ctx, out)
}

func (sh scrubHandler) WithAttrs(as []slog.Attr) slog.Handler {
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		out[i] = sh.attr(a)
	}
	return scrubHandler{h: sh.h.WithAttrs(out), s: sh.s}
}

func (sh scrubHandler) WithGroup(name string) slog.Handler {
	return scrubHandler{h: sh.h.WithGroup(name), s: sh.s}
}

// attr scrubs one attribute, groups included; a value of any other kind
// is replaced by its scrubbed text only when its text holds a secret.
func (sh scrubHandler) attr(a slog.Attr) slog.Attr {
	a.Key = sh.s.String(a.Key)
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		a.Value = slog.StringValue(sh.s.String(v.String()))
	case slog.KindGroup:
		g := v.Group()
		out := make([]slog.Attr, len(g))
		for i, e := range g {
			out[i] = sh.attr(e)
		}
		a.Value = slog.GroupValue(out...)
	case slog.KindAny:
		text := fmt.Sprintf("%+v", v.Any())
		if err, ok := v.Any().(error); ok {
			text = err.Error()
		}
		if sh.s.Holds(text) {
			a.Value = slog.StringValue(sh.s.String(text))
		} else {
			a.Value = v
		}
	default:
		a.Value = v
	}
	return a
}
