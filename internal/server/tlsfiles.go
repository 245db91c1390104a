package server

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
)

// tlsFiles serves a certificate, key and optional client CA read from
// files, and reads them again when they change (checked at most once a
// second, on the next handshake): no restart.
type tlsFiles struct {
	cert, key, clientCA string
	mu                  sync.Mutex
	checked             time.Time
	stamps              [3]time.Time
	pair                *tls.Certificate
	pool                *x509.CertPool
}

func newTLSFiles(cert, key, clientCA string) (*tlsFiles, error) {
	f := &tlsFiles{cert: cert, key: key, clientCA: clientCA}
	if err := f.load(); err != nil {
		return nil, err
	}
	return f, nil
}

func tlsInvalid(path string, err error) error {
	return &errs.ConfigurationInvalid{Subject: "TLS file " + path, Description: err.Error()}
}

func (f *tlsFiles) mtimes() ([3]time.Time, error) {
	var out [3]time.Time
	for i, p := range []string{f.cert, f.key, f.clientCA} {
		if p == "" {
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			return out, tlsInvalid(p, err)
		}
		out[i] = fi.ModTime()
	}
	return out, nil
}

func (f *tlsFiles) load() error {
	stamps, err := f.mtimes()
	if err != nil {
		return err
	}
	pair, err := tls.LoadX509KeyPair(f.cert, f.key)
	if err != nil {
		return tlsInvalid(f.cert, err)
	}
	var pool *x509.CertPool
	if f.clientCA != "" {
		pem, err := os.ReadFile(f.clientCA)
		if err != nil {
			return tlsInvalid(f.clientCA, err)
		}
		pool = x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return tlsInvalid(f.clientCA, fmt.Errorf("no PEM certificate in it"))
		}
	}
	f.pair, f.pool, f.stamps = &pair, pool, stamps
	return nil
}

// current returns the certificate and client CA pool, reloading them when
// a file changed. A reload that fails keeps the previous ones.
func (f *tlsFiles) current() (*tls.Certificate, *x509.CertPool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if time.Since(f.checked) >= time.Second {
		f.checked = time.Now()
		if stamps, err := f.mtimes(); err == nil && stamps != f.stamps {
			_ = f.load()
		}
	}
	return f.pair, f.pool
}

// config returns the server's TLS configuration: TLS 1.2 or later, and
// client certificates verified against the client CA when one is given.
// A client may still authenticate with a bearer token instead.
func (f *tlsFiles) config() *tls.Config {
	return &tls.Config{
		MinVersion: tls.VersionTLS12,
		GetConfigForClient: func(*tls.ClientHelloInfo) (*tls.Config, error) {
			pair, pool := f.current()
			c := &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{*pair}, NextProtos: []string{"h2"}}
			if pool != nil {
				c.ClientCAs = pool
				c.ClientAuth = tls.VerifyClientCertIfGiven
			}
			return c, nil
		},
	}
}
