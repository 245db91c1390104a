// Package tlstest makes a throwaway CA and certificates for tests, written
// as PEM files in a temporary directory, and keys files for them.
package tlstest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/auth"
)

// CA is a certificate authority whose files live in Dir.
type CA struct {
	t    testing.TB
	Dir  string
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	// CertFile is the CA certificate's PEM file.
	CertFile string
}

// NewCA makes a CA named name.
func NewCA(t testing.TB, name string) *CA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	ca := &CA{t: t, Dir: t.TempDir(), cert: cert, key: key}
	ca.CertFile = ca.write(name+"-ca.pem", "CERTIFICATE", der)
	return ca
}

func (ca *CA) write(name, typ string, der []byte) string {
	p := filepath.Join(ca.Dir, name)
	if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		ca.t.Fatal(err)
	}
	return p
}

// Pair is a certificate and key file.
type Pair struct{ CertFile, KeyFile string }

// Server issues a certificate for 127.0.0.1 and localhost.
func (ca *CA) Server(name string) Pair {
	return ca.issue(name, &x509.Certificate{
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	})
}

// Client issues a client certificate with common name cn and, when uri is
// not empty, a URI SAN.
func (ca *CA) Client(cn, uri string) Pair {
	tmpl := &x509.Certificate{ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	if uri != "" {
		u, err := url.Parse(uri)
		if err != nil {
			ca.t.Fatal(err)
		}
		tmpl.URIs = []*url.URL{u}
	}
	return ca.issue(cn, tmpl)
}

var serial int64 = 100

func (ca *CA) issue(cn string, tmpl *x509.Certificate) Pair {
	ca.t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		ca.t.Fatal(err)
	}
	serial++
	tmpl.SerialNumber = big.NewInt(serial)
	tmpl.Subject = pkix.Name{CommonName: cn}
	tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour)
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		ca.t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		ca.t.Fatal(err)
	}
	return Pair{CertFile: ca.write(cn+".pem", "CERTIFICATE", der), KeyFile: ca.write(cn+"-key.pem", "PRIVATE KEY", kder)}
}

// ClientConfig returns a TLS client configuration trusting ca, with the
// client pair when given.
func ClientConfig(t testing.TB, ca *CA, pair *Pair) *tls.Config {
	t.Helper()
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	cfg := &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	if pair != nil {
		c, err := tls.LoadX509KeyPair(pair.CertFile, pair.KeyFile)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Certificates = []tls.Certificate{c}
	}
	return cfg
}

// WriteKeys writes a keys file (mode 0600) of entries to path. Writing
// goes through a temporary file and a rename, as an operator's edit would.
func WriteKeys(t testing.TB, path string, entries []auth.Entry) {
	t.Helper()
	b, err := json.Marshal(auth.File{Identities: entries})
	if err != nil {
		t.Fatal(err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// Key mints an API key for tenant and roles and returns it with its entry.
func Key(t testing.TB, name, tenant string, roles ...string) (string, auth.Entry) {
	t.Helper()
	key, e, err := auth.Mint(name, tenant, roles)
	if err != nil {
		t.Fatal(err)
	}
	return key, e
}
