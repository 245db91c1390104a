package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"google.golang.org/grpc"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/console"
	"github.com/runsvc/runsvc/internal/service"
)

// Console configures the web console (issue 21).
type Console struct {
	// Listen is the console's HTTP address; off when empty. Like the
	// API, without a keys file it must be a loopback address unless
	// --insecure-no-auth.
	Listen string
	// SessionTTL is how long a signed-in session lasts; default 12h.
	SessionTTL time.Duration
}

// consoleServer is the console's HTTP server and the in-process gRPC
// server it calls: the same services behind the same interceptors
// (errors, admission, authentication, roles, quotas) as the API's
// listener, without its transport security, reachable only from this
// process.
type consoleServer struct {
	lis    net.Listener
	http   *http.Server
	api    *inProcess
	stop   context.CancelFunc
	scheme string
}

// listenConsole opens the console's listener (see listenWeb): a browser
// signs in with a key, not a certificate.
func (s *Server) listenConsole() error {
	lis, scheme, err := s.listenWeb(s.cfg.Console.Listen, webListener{
		name:   "console",
		what:   "the console",
		nobody: "the console signs in nobody, so it serves",
		keyed:  true,
	})
	if lis != nil {
		s.console.lis, s.console.scheme = lis, scheme
	}
	return err
}

// assembleConsole builds the in-process gRPC server from the API's server
// options (less its credentials) and the console over it.
func (s *Server) assembleConsole(opts []grpc.ServerOption, svc *service.Service) error {
	if s.cfg.Console.Listen == "" {
		return nil
	}
	api, err := newInProcess(opts, svc, "runsvc-console")
	if err != nil {
		return err
	}
	s.console = &consoleServer{api: api}
	return nil
}

// consoleHandler builds the console's handler over the in-process server.
func (s *Server) consoleHandler() (http.Handler, error) {
	conn := s.console.api.conn
	cfg := console.Config{Conn: conn, Secure: s.tls != nil, Clock: s.cfg.Clock, SessionTTL: s.cfg.Console.SessionTTL, Log: s.log}
	if s.keys != nil {
		keys := s.keys
		cfg.SignIn = func(key string) (auth.Identity, bool) { return keys.ByKey(key) }
	}
	c, err := console.New(cfg)
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	return c.Handler(), nil
}

// serveConsole serves the console until the server drains.
func (s *Server) serveConsole(ctx context.Context) {
	if s.console == nil {
		return
	}
	s.console.api.serve()
	h, err := s.consoleHandler()
	if err != nil {
		s.log.Error("the console could not start", "err", err)
		return
	}
	base, stop := context.WithCancel(context.WithoutCancel(ctx))
	s.console.stop = stop
	s.console.http = &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, BaseContext: func(net.Listener) context.Context { return base }}
	go func() {
		if err := s.console.http.Serve(s.console.lis); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("serving the console failed", "err", err)
		}
	}()
}

// stopConsole ends the console's pages and streams, then its in-process
// gRPC server, letting unary calls in flight finish.
func (s *Server) stopConsole() {
	c := s.console
	if c == nil || c.http == nil {
		return
	}
	c.stop()
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.DrainTimeout)
	defer cancel()
	_ = c.http.Shutdown(ctx)
	c.api.stop()
}

// stopConsoleNow closes whatever of the console is left after a drain
// timed out.
func (s *Server) stopConsoleNow() {
	if c := s.console; c != nil && c.http != nil {
		_ = c.http.Close()
		c.api.stopNow()
	}
}

// ConsoleURL is where the console is served, "" when it is not.
func (s *Server) ConsoleURL() string {
	if s.console == nil || s.console.lis == nil {
		return ""
	}
	return s.console.scheme + "://" + s.console.lis.Addr().String()
}
