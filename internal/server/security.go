package server

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/errs"
)

// keysPoll is how often the keys file is checked for changes.
const keysPoll = 500 * time.Millisecond

// Security is how `runsvc serve` authenticates callers (DESIGN.md §6).
type Security struct {
	// KeysFile is the JSON keys file of hashed API keys and certificate
	// identities. Without it nobody is authenticated and every caller is
	// the default tenant, which is allowed only on a loopback address.
	KeysFile string
	// InsecureNoAuth allows serving without a keys file on any address.
	InsecureNoAuth bool
	// TLSCert and TLSKey are the server's certificate and key files;
	// TLSClientCA, when set, verifies client certificates (mTLS).
	TLSCert, TLSKey, TLSClientCA string
}

// check refuses an unsafe configuration before anything starts: no keys
// file on a non-loopback address, half a TLS configuration, or a keys or
// secrets file others may read.
func (sec Security) check(listen, secretsFile string) error {
	if sec.KeysFile == "" && !sec.InsecureNoAuth && !loopback(listen) {
		return &errs.ConfigurationInvalid{Subject: "listen address " + listen,
			Description: "without --keys-file runsvc authenticates nobody, so it serves only on a loopback address; give --keys-file, listen on 127.0.0.1, or pass --insecure-no-auth to serve everyone who can reach the port"}
	}
	if (sec.TLSCert == "") != (sec.TLSKey == "") {
		return &errs.ConfigurationInvalid{Subject: "TLS", Description: "--tls-cert and --tls-key go together"}
	}
	if sec.TLSClientCA != "" && sec.TLSCert == "" {
		return &errs.ConfigurationInvalid{Subject: "TLS", Description: "--tls-client-ca needs --tls-cert and --tls-key"}
	}
	if secretsFile != "" {
		if err := auth.CheckPrivate(secretsFile, "secrets file"); err != nil {
			return err
		}
	}
	return nil
}

// loopback reports whether a listen address accepts only local callers.
func loopback(listen string) bool {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// security loads the keys file and TLS files, adds the authenticator to
// the interceptor chains (after the error mapper, so its refusals are
// mapped) and returns the server's TLS option.
func (s *Server) security(unary *[]grpc.UnaryServerInterceptor, stream *[]grpc.StreamServerInterceptor) ([]grpc.ServerOption, error) {
	sec := s.cfg.Security
	var opts []grpc.ServerOption
	if sec.TLSCert != "" {
		files, err := newTLSFiles(sec.TLSCert, sec.TLSKey, sec.TLSClientCA)
		if err != nil {
			return nil, err
		}
		s.tls = files
		opts = append(opts, grpc.Creds(credentials.NewTLS(files.config())))
	}
	if sec.KeysFile == "" {
		if !loopback(s.cfg.Listen) {
			s.log.Warn("serving without authentication on a non-loopback address (--insecure-no-auth)", "listen", s.cfg.Listen)
		}
		return opts, nil
	}
	if sec.TLSCert == "" && !loopback(s.cfg.Listen) {
		s.log.Warn("API keys travel in the clear: give --tls-cert and --tls-key", "listen", s.cfg.Listen)
	}
	keys, err := auth.LoadKeys(sec.KeysFile, s.log)
	if err != nil {
		return nil, fmt.Errorf("loading keys: %w", err)
	}
	s.keys = keys
	a := &authenticator{keys: keys, quotas: newQuotas(s.store, s.cfg.Clock), log: s.log}
	s.auth = a
	*unary = append(*unary, a.UnaryServerInterceptor())
	*stream = append(*stream, a.StreamServerInterceptor())
	return opts, nil
}

// ownerOnly makes the data directory 0700 and the database files in it
// 0600: Runs, memory and tool results are nobody else's to read. SQLite
// gives the -wal and -shm files it creates later the database's mode.
func ownerOnly(dir string) error {
	if err := os.Chmod(dir, 0o700); err != nil {
		return &errs.ConfigurationInvalid{Subject: "data directory " + dir, Description: err.Error()}
	}
	for _, name := range []string{"runsvc.db", "runsvc.db-wal", "runsvc.db-shm"} {
		err := os.Chmod(filepath.Join(dir, name), 0o600)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return &errs.ConfigurationInvalid{Subject: "data file " + name, Description: err.Error()}
		}
	}
	return nil
}
