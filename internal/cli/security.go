package cli

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// clientSecurity is how the CLI reaches a runsvc that uses TLS and API
// keys (issue 12).
type clientSecurity struct {
	tls           bool
	ca, cert, key string
	token         string
}

func securityFromEnv() clientSecurity {
	s := clientSecurity{ca: os.Getenv("RUNSVC_CA"), cert: os.Getenv("RUNSVC_CERT"), key: os.Getenv("RUNSVC_KEY"), token: os.Getenv("RUNSVC_TOKEN")}
	s.tls, _ = strconv.ParseBool(os.Getenv("RUNSVC_TLS"))
	return s
}

// securityFlags registers the global TLS and token flags.
func (a *app) securityFlags(fs *flag.FlagSet) {
	fs.BoolVar(&a.sec.tls, "tls", a.sec.tls, "connect with TLS, verifying the server against the system roots or --ca (env RUNSVC_TLS)")
	fs.StringVar(&a.sec.ca, "ca", a.sec.ca, "CA certificate `FILE` that signed the server's certificate; implies --tls (env RUNSVC_CA)")
	fs.StringVar(&a.sec.cert, "cert", a.sec.cert, "client certificate `FILE` for mTLS; implies --tls (env RUNSVC_CERT)")
	fs.StringVar(&a.sec.key, "key", a.sec.key, "client private key `FILE` for --cert (env RUNSVC_KEY)")
	fs.StringVar(&a.sec.token, "token", a.sec.token, "an API `KEY`, sent as 'authorization: Bearer KEY'; prefer RUNSVC_TOKEN, which stays out of the process list (env RUNSVC_TOKEN)")
}

// dialOptions returns the transport credentials and the token.
func (a *app) dialOptions() ([]grpc.DialOption, error) {
	s := a.sec
	useTLS := s.tls || s.ca != "" || s.cert != ""
	var opts []grpc.DialOption
	if !useTLS {
		opts = append(opts, grpc.WithTransportCredentials(insecure.NewCredentials()))
	} else {
		cfg := &tls.Config{MinVersion: tls.VersionTLS12}
		if s.ca != "" {
			pem, err := os.ReadFile(s.ca)
			if err != nil {
				return nil, fmt.Errorf("reading --ca: %w", err)
			}
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pem) {
				return nil, fmt.Errorf("--ca %s holds no PEM certificate", s.ca)
			}
			cfg.RootCAs = pool
		}
		if s.cert != "" || s.key != "" {
			pair, err := tls.LoadX509KeyPair(s.cert, s.key)
			if err != nil {
				return nil, fmt.Errorf("reading --cert/--key: %w", err)
			}
			cfg.Certificates = []tls.Certificate{pair}
		}
		opts = append(opts, grpc.WithTransportCredentials(credentials.NewTLS(cfg)))
	}
	if s.token != "" {
		opts = append(opts, grpc.WithPerRPCCredentials(bearer{token: s.token, needTLS: !loopbackAddr(a.addr)}))
	}
	return opts, nil
}

// bearer sends the API key on every call. It refuses to send it in the
// clear except to a loopback address.
type bearer struct {
	token   string
	needTLS bool
}

// GetRequestMetadata returns the authorization header.
func (b bearer) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + b.token}, nil
}

// RequireTransportSecurity reports whether the token needs TLS.
func (b bearer) RequireTransportSecurity() bool { return b.needTLS }

func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return host == "localhost" || (ip != nil && ip.IsLoopback())
}

// tlsHint explains a failed handshake, or returns "".
func tlsHint(msg string) string {
	switch {
	case strings.Contains(msg, "certificate signed by unknown authority"):
		return "the server's certificate is not signed by a CA this client trusts: pass the CA that signed it with --ca (or RUNSVC_CA)."
	case strings.Contains(msg, "x509:") || strings.Contains(msg, "tls:"):
		return "the TLS handshake failed: check --ca, --cert and --key, and that the server's certificate names the host in --addr."
	case strings.Contains(msg, "first record does not look like a TLS handshake"):
		return "the server does not speak TLS: drop --tls/--ca."
	}
	return ""
}
