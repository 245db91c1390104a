package server_test

import (
	"os"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

// within polls cond every 50 ms for up to limit and reports whether it
// became true, and after how long.
func within(limit time.Duration, cond func() bool) (time.Duration, bool) {
	start := time.Now()
	for time.Since(start) < limit {
		if cond() {
			return time.Since(start), true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return limit, false
}

// TestKeysFileReloads: a key removed from the keys file is refused within
// 2 s and a key added is accepted, without a restart.
func TestKeysFileReloads(t *testing.T) {
	s := startSecured(t, []string{"acme"})
	reader := runsvcv1.NewRunServiceClient(s.conn(t, s.keys["acme/reader"], nil))
	if _, err := reader.ListRuns(ctxT(t), &runsvcv1.ListRunsRequest{}); err != nil {
		t.Fatalf("before the edit: %v", err)
	}
	newKey, newEntry := tlstest.Key(t, "late", "acme", auth.RoleReader)
	newcomer := runsvcv1.NewRunServiceClient(s.conn(t, newKey, nil))
	if _, err := newcomer.ListRuns(ctxT(t), &runsvcv1.ListRunsRequest{}); reasonOf(err) != "UNAUTHENTICATED" {
		t.Fatalf("a key not yet in the file: %v", err)
	}
	var kept []auth.Entry
	for _, e := range s.entries {
		if e.Name != "acme-reader" {
			kept = append(kept, e)
		}
	}
	tlstest.WriteKeys(t, s.keysFile, append(kept, newEntry))
	took, ok := within(2*time.Second, func() bool {
		_, err := reader.ListRuns(ctxT(t), &runsvcv1.ListRunsRequest{})
		return reasonOf(err) == "UNAUTHENTICATED"
	})
	if !ok {
		t.Fatal("the removed key is still accepted 2 s after the edit")
	}
	t.Logf("removed key refused %v after the edit", took)
	if _, err := newcomer.ListRuns(ctxT(t), &runsvcv1.ListRunsRequest{}); err != nil {
		t.Fatalf("the added key: %v", err)
	}
	if err := os.WriteFile(s.keysFile, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1200 * time.Millisecond)
	if _, err := newcomer.ListRuns(ctxT(t), &runsvcv1.ListRunsRequest{}); err != nil {
		t.Fatalf("after a broken edit the previous keys must stay: %v", err)
	}
}

// TestCertificatesReload: the server's certificate is replaced by one of
// another CA while it runs; new connections get the new one.
func TestCertificatesReload(t *testing.T) {
	s := startSecured(t, []string{"acme"})
	call := func(ca *tlstest.CA) error {
		conn, err := grpc.NewClient(s.srv.Addr, grpc.WithTransportCredentials(credentials.NewTLS(tlstest.ClientConfig(t, ca, nil))),
			grpc.WithPerRPCCredentials(bearer(s.keys["acme/reader"])))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_, err = runsvcv1.NewRunServiceClient(conn).ListRuns(ctxT(t), &runsvcv1.ListRunsRequest{})
		return err
	}
	next := tlstest.NewCA(t, "next")
	if err := call(next); err == nil {
		t.Fatal("a client trusting only the next CA connected before the rotation")
	}
	if err := call(s.ca); err != nil {
		t.Fatalf("before the rotation: %v", err)
	}
	pair := next.Server("runsvc")
	for _, f := range [][2]string{{pair.CertFile, s.serverPair.CertFile}, {pair.KeyFile, s.serverPair.KeyFile}} {
		b, err := os.ReadFile(f[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f[1], b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := within(3*time.Second, func() bool { return call(next) == nil }); !ok {
		t.Fatalf("the new certificate is not served 3 s after the rotation: %v", call(next))
	}
	if err := call(s.ca); err == nil {
		t.Error("a client trusting only the old CA still connects after the rotation")
	}
}

// TestClientCertificateIdentity: a client certificate whose CN or URI SAN
// the keys file lists authenticates as that entry's tenant and roles.
func TestClientCertificateIdentity(t *testing.T) {
	s := startSecured(t, []string{"acme"})
	byCN := s.ca.Client("worker-7", "")
	byURI := s.ca.Client("anything", "spiffe://example.test/reader")
	tlstest.WriteKeys(t, s.keysFile, append(s.entries,
		auth.Entry{Certificate: "worker-7", Tenant: "acme", Roles: []string{auth.RoleWorker}},
		auth.Entry{Certificate: "spiffe://example.test/reader", Tenant: "acme", Roles: []string{auth.RoleReader}}))
	reader := runsvcv1.NewRunServiceClient(s.conn(t, "", &byURI))
	if _, ok := within(2*time.Second, func() bool {
		_, err := reader.ListRuns(ctxT(t), &runsvcv1.ListRunsRequest{})
		return err == nil
	}); !ok {
		t.Fatal("the URI SAN identity is not accepted")
	}
	_, err := runsvcv1.NewRunServiceClient(s.conn(t, "", &byCN)).ListRuns(ctxT(t), &runsvcv1.ListRunsRequest{})
	if got := reasonOf(err); got != "ROLE_DENIED" {
		t.Fatalf("the worker certificate reading Runs: %q (%v), want ROLE_DENIED", got, err)
	}
}
