package server_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// allowedRoles is DESIGN.md §6 written out by hand: the roles besides admin
// that may call each method.
var allowedRoles = map[string][]string{
	"/runsvc.v1.SpecService/PublishSpec":           {"publisher"},
	"/runsvc.v1.SpecService/GetSpec":               {"publisher", "runner", "reader"},
	"/runsvc.v1.SpecService/ListSpecs":             {"publisher", "runner", "reader"},
	"/runsvc.v1.RunService/StartRun":               {"runner"},
	"/runsvc.v1.RunService/GetRun":                 {"publisher", "runner", "reader"},
	"/runsvc.v1.RunService/ListRuns":               {"publisher", "runner", "reader"},
	"/runsvc.v1.RunService/WatchRun":               {"publisher", "runner", "reader"},
	"/runsvc.v1.RunService/StreamText":             {"publisher", "runner", "reader"},
	"/runsvc.v1.RunService/WaitRun":                {"publisher", "runner", "reader"},
	"/runsvc.v1.RunService/SendMessage":            {"runner"},
	"/runsvc.v1.RunService/ResumeRun":              {"runner"},
	"/runsvc.v1.RunService/InterruptRun":           {"runner"},
	"/runsvc.v1.RunService/GetReport":              {"publisher", "runner", "reader"},
	"/runsvc.v1.ToolService/ListTools":             {"publisher", "runner", "reader"},
	"/runsvc.v1.ToolService/InvokeTool":            {"runner"},
	"/runsvc.v1.ToolService/ServeTools":            {"worker"},
	"/runsvc.v1.DelegationService/Delegate":        {"runner"},
	"/runsvc.v1.DelegationService/GetDelegation":   {"publisher", "runner", "reader"},
	"/runsvc.v1.DelegationService/AwaitDelegation": {"publisher", "runner", "reader"},
	"/runsvc.v1.MemoryService/SetValue":            {"runner"},
	"/runsvc.v1.MemoryService/GetValue":            {"publisher", "runner", "reader"},
	"/runsvc.v1.MemoryService/WatchMemory":         {"publisher", "runner", "reader"},
	"/runsvc.v1.BusService/SendMessage":            {"runner"},
	"/runsvc.v1.BusService/Receive":                {"runner"},
	"/runsvc.v1.BusService/AcknowledgeMessages":    {"runner"},
}

// TestRoleGateOnEveryRPC calls every RPC of every service over TLS as each
// role of two tenants, with no key and with a forged one: an allowed
// combination gets past the gate (whatever the empty request then earns),
// any other is ROLE_DENIED or UNAUTHENTICATED.
// It runs on SQLite and on PostgreSQL.
func TestRoleGateOnEveryRPC(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { roleGate(t) })
	t.Run("postgres", func(t *testing.T) {
		dsn := pgtest.Start(t).NewDatabase(t)
		roleGate(t, func(c *server.Config) { c.Store = dsn })
	})
}

func roleGate(t *testing.T, opts ...testserver.Option) {
	s := startSecured(t, []string{"acme", "globex"}, opts...)
	rpcs := everyRPC()
	if len(rpcs) != len(allowedRoles) {
		t.Fatalf("%d RPCs called, %d in the expectations", len(rpcs), len(allowedRoles))
	}
	callers := map[string]string{"none": "", "forged": "rsk_not-a-real-key"}
	for key, token := range s.keys {
		callers[key] = token
	}
	for name, token := range callers {
		conn := s.conn(t, token, nil)
		role := roleOf(name)
		for _, r := range rpcs {
			want := "pass"
			switch {
			case token == "" || name == "forged":
				want = "UNAUTHENTICATED"
			case role != "admin" && !slices.Contains(allowedRoles[r.method], role):
				want = "ROLE_DENIED"
			}
			t.Run(name+r.method, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				err := r.call(ctx, conn)
				got := reasonOf(err)
				if want == "pass" {
					if got == "UNAUTHENTICATED" || got == "ROLE_DENIED" || status.Code(err) == codes.Unavailable {
						t.Fatalf("%s as %s: %v, want past the role gate", r.method, name, err)
					}
					return
				}
				if got != want {
					t.Fatalf("%s as %s: %q (%v), want %s", r.method, name, got, err, want)
				}
			})
		}
	}
}

// roleOf returns the role of a "tenant/role" caller name.
func roleOf(name string) string {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '/' {
			return name[i+1:]
		}
	}
	return ""
}
