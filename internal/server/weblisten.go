package server

import (
	"crypto/tls"
	"fmt"
	"net"

	"github.com/runsvc/runsvc/internal/errs"
)

// webListener says which of the HTTP listeners (console, HTTP API, MCP)
// listenWeb opens.
type webListener struct {
	// name starts the refusal's subject: "<name> listen address".
	name string
	// what is the listener in a failure to listen: "listening for <what>".
	what string
	// nobody says, in the refusal, who is not authenticated and what is
	// therefore served only on loopback.
	nobody string
	// keyed is true where callers authenticate with an API key, never a
	// client certificate, so TLS asks for none.
	keyed bool
}

// listenWeb opens an HTTP listener at addr, nil for an empty addr. It
// refuses a non-loopback address when nobody is authenticated, as check
// does for the API, and serves TLS with the server's certificate when it
// has one, offering h2 and http/1.1.
func (s *Server) listenWeb(addr string, l webListener) (net.Listener, string, error) {
	if addr == "" {
		return nil, "", nil
	}
	sec := s.cfg.Security
	if sec.KeysFile == "" && !sec.InsecureNoAuth && !loopback(addr) {
		return nil, "", &errs.ConfigurationInvalid{Subject: l.name + " listen address " + addr,
			Description: "without --keys-file " + l.nobody + " only on a loopback address; give --keys-file, listen on 127.0.0.1, or pass --insecure-no-auth"}
	}
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", fmt.Errorf("listening for %s on %s: %w", l.what, addr, err)
	}
	if s.tls == nil {
		return lis, "http", nil
	}
	cfg := s.tls.config()
	return tls.NewListener(lis, &tls.Config{MinVersion: tls.VersionTLS12, GetConfigForClient: func(h *tls.ClientHelloInfo) (*tls.Config, error) {
		c, err := cfg.GetConfigForClient(h)
		if err == nil {
			if l.keyed {
				c.ClientAuth, c.ClientCAs = tls.NoClientCert, nil
			}
			c.NextProtos = []string{"h2", "http/1.1"}
		}
		return c, err
	}}), "https", nil
}
