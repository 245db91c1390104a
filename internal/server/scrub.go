package server

import (
	"log/slog"

	"github.com/runsvc/runsvc/internal/secret"
)

// scrubLog returns the one Scrubber that the log writer, the service and
// the server's log use, so that no credential the server resolves leaves
// runsvc (DESIGN §6), and makes the server's log scrub through it. It
// returns nil when the configuration disables the scrub.
func (s *Server) scrubLog() *secret.Scrubber {
	if s.cfg.DisableScrub {
		return nil
	}
	scrub := secret.NewScrubber()
	if s.log == nil {
		s.log = slog.Default()
	}
	s.log = slog.New(secret.Handler(s.log.Handler(), scrub))
	return scrub
}
