package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/runsvc/runsvc/internal/a2a"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/httpapi"
	"github.com/runsvc/runsvc/internal/service"
)

// HTTP configures the HTTP API (issue 33): REST/JSON, Connect and
// gRPC-Web, transcoded into calls of the gRPC server, so through its
// interceptors (one auth, one error table).
//
// It has its own listener rather than sharing --listen. Sharing would mean
// either serving native gRPC through net/http (grpc.Server.ServeHTTP:
// slower, and without grpc-go's keepalive enforcement and connection ages)
// or choosing a handler per connection (cmux), which breaks as soon as a
// proxy or mesh pools HTTP/2 connections and sends gRPC and Connect
// requests over the same one. With two ports native gRPC keeps its own
// transport untouched, and a mesh routes each port by its protocol
// (Kubernetes appProtocol grpc and http), as it does for --console-listen.
// The HTTP port speaks HTTP/1.1 and HTTP/2 (h2c in the clear, ALPN with
// --tls-cert); it also passes native gRPC through, which is correct there
// but slower than --listen.
type HTTP struct {
	// Listen is the HTTP API's address; off when empty. Like the API,
	// without a keys file it must be a loopback address unless
	// --insecure-no-auth.
	Listen string
	// CORSOrigins are the origins whose browser pages may call the HTTP
	// API; none when empty (--cors-origin).
	CORSOrigins []string
}

// httpAPI is the HTTP API's listener and server.
type httpAPI struct {
	lis     net.Listener
	handler http.Handler
	srv     *http.Server
	scheme  string
	stop    context.CancelFunc
}

// listenHTTP opens the HTTP API's listener (see listenWeb): client
// certificates are verified as on --listen.
func (s *Server) listenHTTP() error {
	lis, scheme, err := s.listenWeb(s.cfg.HTTP.Listen, webListener{
		name:   "HTTP",
		what:   "HTTP",
		nobody: "runsvc authenticates nobody, so it serves HTTP",
	})
	if lis != nil {
		s.http.lis, s.http.scheme = lis, scheme
	}
	return err
}

// assembleHTTP builds the HTTP API's handler over the gRPC server, once
// every service is registered.
func (s *Server) assembleHTTP(mapper *errdetails.Mapper) error {
	if s.cfg.HTTP.Listen == "" {
		return nil
	}
	h, err := httpapi.New(s.grpc, httpapi.Options{Mapper: mapper, MaxRequestBytes: service.DefaultMaxRequestBytes, CORSOrigins: s.cfg.HTTP.CORSOrigins})
	if err != nil {
		return err
	}
	opts := a2a.Options{API: h, Mapper: mapper, MaxRequestBytes: service.DefaultMaxRequestBytes, MutualTLS: s.cfg.Security.TLSClientCA != ""}
	if m := s.webhooks.manager(); m != nil {
		opts.Push, opts.Tenant = m, s.a2aTenant
	}
	s.http = &httpAPI{handler: s.mountMCP(withA2A(h, opts))}
	return nil
}

// withA2A serves the A2A surface (the Agent Cards and bindings of the
// Specs exposed over A2A, DESIGN §14) beside the API on the HTTP port; its
// calls go through api, so through the same interceptors.
func withA2A(api http.Handler, opts a2a.Options) http.Handler {
	agents := a2a.New(opts)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a2a.Owns(r) {
			agents.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
}

// serveHTTP serves the HTTP API until the server drains.
func (s *Server) serveHTTP(ctx context.Context) {
	if s.http == nil {
		return
	}
	base, stop := context.WithCancel(context.WithoutCancel(ctx))
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	protocols.SetHTTP2(true)
	protocols.SetUnencryptedHTTP2(true)
	s.http.stop = stop
	s.http.srv = &http.Server{Handler: s.http.handler, Protocols: &protocols, ReadHeaderTimeout: 5 * time.Second,
		BaseContext: func(net.Listener) context.Context { return base }}
	s.log.Info("serving the API over HTTP (REST, Connect, gRPC-Web)", "url", s.HTTPURL())
	go func() {
		if err := s.http.srv.Serve(s.http.lis); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("serving HTTP failed", "err", err)
		}
	}()
}

// stopHTTP stops taking HTTP requests and waits for those in flight (the
// drain has already ended the long streams). It must come before the gRPC
// server's GracefulStop, which would cut the calls ServeHTTP carries.
func (s *Server) stopHTTP() {
	h := s.http
	if h == nil || h.srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.DrainTimeout)
	defer cancel()
	_ = h.srv.Shutdown(ctx)
	h.stop()
}

// stopHTTPNow closes whatever of the HTTP API is left after a drain
// timed out.
func (s *Server) stopHTTPNow() {
	if h := s.http; h != nil && h.srv != nil {
		_ = h.srv.Close()
	}
}

// HTTPURL is where the HTTP API is served, "" when it is not.
func (s *Server) HTTPURL() string {
	if s.http == nil || s.http.lis == nil {
		return ""
	}
	return s.http.scheme + "://" + s.http.lis.Addr().String()
}
