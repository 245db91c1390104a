package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"google.golang.org/grpc"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/mcpserver"
	"github.com/runsvc/runsvc/internal/service"
)

// MCP configures runsvc's MCP server (issue 36): the Specs a tenant
// exposes over MCP are the tools of a streamable-HTTP MCP server, served
// on a listener of its own, on a path of the HTTP API, or both.
type MCP struct {
	// Listen is the MCP server's own address (served at every path); off
	// when empty. Without a keys file it must be a loopback address unless
	// --insecure-no-auth.
	Listen string
	// Path serves the MCP server on the HTTP API (--http-listen) at this
	// path, e.g. "/mcp"; off when empty.
	Path string
}

// mcpServer is the MCP server's listener and HTTP server, and the
// in-process gRPC server it calls, as the console has: the API's services
// behind the API's interceptors.
type mcpServer struct {
	handler http.Handler
	api     *inProcess
	lis     net.Listener
	srv     *http.Server
	stop    context.CancelFunc
	scheme  string
}

// assembleInProcess builds what calls runsvc's services in process: the
// console and the MCP server.
func (s *Server) assembleInProcess(opts []grpc.ServerOption, svc *service.Service) error {
	if err := s.assembleConsole(opts, svc); err != nil {
		return err
	}
	return s.assembleMCP(opts, svc)
}

// assembleMCP builds the MCP server over an in-process gRPC server made
// from the API's server options (less its credentials).
func (s *Server) assembleMCP(opts []grpc.ServerOption, svc *service.Service) error {
	c := s.cfg.MCP
	if c.Listen == "" && c.Path == "" {
		return nil
	}
	if c.Path != "" && (s.cfg.HTTP.Listen == "" || c.Path[0] != '/') {
		return &errs.ConfigurationInvalid{Subject: "MCP path " + c.Path, Description: "--mcp-path is a path (\"/mcp\") of the HTTP API, which needs --http-listen"}
	}
	api, err := newInProcess(opts, svc, "runsvc-mcp")
	if err != nil {
		return err
	}
	s.mcpServer = &mcpServer{api: api, handler: mcpserver.New(mcpserver.Options{Conn: api.conn, Log: s.log.With("component", "mcp")})}
	return nil
}

// mountMCP serves the MCP server at --mcp-path of the HTTP API.
func (s *Server) mountMCP(api http.Handler) http.Handler {
	if s.mcpServer == nil || s.cfg.MCP.Path == "" {
		return api
	}
	path, mcp := s.cfg.MCP.Path, s.mcpServer.handler
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == path {
			mcp.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
}

// listenMCP opens the MCP server's own listener (see listenWeb): an MCP
// host authenticates with a key, not a certificate.
func (s *Server) listenMCP() error {
	lis, scheme, err := s.listenWeb(s.cfg.MCP.Listen, webListener{
		name:   "MCP",
		what:   "MCP",
		nobody: "runsvc authenticates nobody, so it serves MCP",
		keyed:  true,
	})
	if lis != nil {
		s.mcpServer.lis, s.mcpServer.scheme = lis, scheme
	}
	return err
}

// serveMCP serves the in-process gRPC server and the MCP listener until
// the server drains.
func (s *Server) serveMCP(ctx context.Context) {
	m := s.mcpServer
	if m == nil {
		return
	}
	m.api.serve()
	if m.lis == nil {
		return
	}
	base, stop := context.WithCancel(context.WithoutCancel(ctx))
	m.stop = stop
	m.srv = &http.Server{Handler: m.handler, ReadHeaderTimeout: 5 * time.Second, BaseContext: func(net.Listener) context.Context { return base }}
	s.log.Info("serving MCP", "url", s.MCPURL())
	go func() {
		if err := m.srv.Serve(m.lis); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("serving MCP failed", "err", err)
		}
	}()
}

// stopMCP ends the MCP server's calls (their Runs go on: they are
// durable), then its in-process gRPC server.
func (s *Server) stopMCP() {
	m := s.mcpServer
	if m == nil {
		return
	}
	if m.srv != nil {
		m.stop()
		ctx, cancel := context.WithTimeout(context.Background(), s.cfg.DrainTimeout)
		defer cancel()
		_ = m.srv.Shutdown(ctx)
	}
	m.api.stop()
}

// stopMCPNow closes whatever of the MCP server is left after a drain
// timed out.
func (s *Server) stopMCPNow() {
	if m := s.mcpServer; m != nil {
		if m.srv != nil {
			_ = m.srv.Close()
		}
		m.api.stopNow()
	}
}

// MCPURL is where the MCP server's own listener serves, "" when it has
// none.
func (s *Server) MCPURL() string {
	if s.mcpServer == nil || s.mcpServer.lis == nil {
		return ""
	}
	return s.mcpServer.scheme + "://" + s.mcpServer.lis.Addr().String()
}
