// Package auth knows who a caller is and what their roles allow: the keys
// file of hashed API keys and certificate identities, each naming a tenant,
// roles and quotas, and the table of which role may call which method. It
// knows nothing of gRPC beyond method names as strings.
package auth

import (
	"context"
	"slices"
	"strings"

	"github.com/runsvc/runsvc/internal/store"
)

// The roles of DESIGN.md §6.
const (
	RoleAdmin     = "admin"
	RolePublisher = "publisher"
	RoleRunner    = "runner"
	RoleReader    = "reader"
	RoleWorker    = "worker"
)

// Roles lists every role a keys file may name.
var Roles = []string{RoleAdmin, RolePublisher, RoleRunner, RoleReader, RoleWorker}

// reads are the methods that only read: every role but worker may call them.
var reads = []string{
	"/runsvc.v1.SpecService/GetSpec",
	"/runsvc.v1.SpecService/ListSpecs",
	"/runsvc.v1.RunService/GetRun",
	"/runsvc.v1.RunService/ListRuns",
	"/runsvc.v1.RunService/WatchRun",
	"/runsvc.v1.RunService/StreamText",
	"/runsvc.v1.RunService/WaitRun",
	"/runsvc.v1.RunService/GetReport",
	// An export is a read of the whole log, as WatchRun is.
	"/runsvc.v1.RunService/ExportRun",
	"/runsvc.v1.ToolService/ListTools",
	"/runsvc.v1.DelegationService/GetDelegation",
	"/runsvc.v1.DelegationService/AwaitDelegation",
	"/runsvc.v1.MemoryService/GetValue",
	"/runsvc.v1.MemoryService/WatchMemory",
	"/runsvc.v1.RunService/GetThread",
	"/runsvc.v1.RunService/ListThreads",
	"/runsvc.v1.ScheduleService/GetSchedule",
	"/runsvc.v1.ScheduleService/ListSchedules",
	"/runsvc.v1.AliasService/GetAlias",
	"/runsvc.v1.AliasService/ListAliases",
	"/runsvc.v1.AliasService/ListAliasHistory",
	"/runsvc.v1.AliasService/GetRollout",
	"/runsvc.v1.EvaluationService/GetEvaluation",
	"/runsvc.v1.EvaluationService/ListEvaluations",
	"/runsvc.v1.EvaluationService/CheckEvaluation",
}

// grants are the methods each role may call besides reads; admin may call
// everything, and only admin may delete Runs (DeleteRun) or import them
// (ImportRun): erasing data and writing logs runsvc did not produce are
// operator actions, not a runner's.
var grants = map[string][]string{
	// Moving or deleting the prod alias needs publisher or admin (the
	// AliasService checks that itself); a runner may move the others.
	RolePublisher: {
		"/runsvc.v1.SpecService/PublishSpec",
		"/runsvc.v1.AliasService/MoveAlias",
		"/runsvc.v1.AliasService/DeleteAlias",
		"/runsvc.v1.EvaluationService/EvaluateVersion",
		"/runsvc.v1.EvaluationService/DeleteEvaluation",
	},
	RoleRunner: {
		"/runsvc.v1.RunService/StartRun",
		"/runsvc.v1.RunService/SendMessage",
		"/runsvc.v1.RunService/ResumeRun",
		"/runsvc.v1.RunService/InterruptRun",
		"/runsvc.v1.ToolService/InvokeTool",
		"/runsvc.v1.DelegationService/Delegate",
		"/runsvc.v1.MemoryService/SetValue",
		"/runsvc.v1.BusService/SendMessage",
		"/runsvc.v1.BusService/Receive",
		"/runsvc.v1.BusService/AcknowledgeMessages",
		"/runsvc.v1.RunService/ForkRun",
		"/runsvc.v1.ScheduleService/CreateSchedule",
		"/runsvc.v1.ScheduleService/PauseSchedule",
		"/runsvc.v1.ScheduleService/ResumeSchedule",
		"/runsvc.v1.ScheduleService/DeleteSchedule",
		"/runsvc.v1.ScheduleService/TriggerSchedule",
		"/runsvc.v1.AliasService/MoveAlias",
		"/runsvc.v1.AliasService/DeleteAlias",
	},
	RoleReader: {},
	RoleWorker: {"/runsvc.v1.ToolService/ServeTools"},
}

// Open reports whether a method needs no identity at all: health checks
// and reflection.
func Open(method string) bool {
	return strings.HasPrefix(method, "/grpc.health.v1.") || strings.HasPrefix(method, "/grpc.reflection.")
}

// Allows reports whether role may call method (a full gRPC method name,
// "/runsvc.v1.RunService/StartRun").
func Allows(role, method string) bool {
	switch role {
	case RoleAdmin:
		return true
	case RoleWorker:
		return slices.Contains(grants[RoleWorker], method)
	}
	g, ok := grants[role]
	if !ok {
		return false
	}
	return slices.Contains(g, method) || slices.Contains(reads, method)
}

// Identity is an authenticated caller.
type Identity struct {
	// Name names the key or certificate, for logs; never the key itself.
	Name   string
	Tenant string
	Roles  []string
	Quota  Quota
	// Robots are the bus robots it may send as besides Name; see Entry.
	Robots []string
}

// MaySendAs reports whether the identity may send bus messages as robot:
// an admin may send as any robot, anyone else as the robot named like its
// keys file entry or one its entry's robots list names ("*": any).
func (id Identity) MaySendAs(robot string) bool {
	return slices.Contains(id.Roles, RoleAdmin) || robot == id.Name ||
		slices.Contains(id.Robots, robot) || slices.Contains(id.Robots, "*")
}

// Allows reports whether any of the identity's roles allows method.
func (id Identity) Allows(method string) bool {
	for _, r := range id.Roles {
		if Allows(r, method) {
			return true
		}
	}
	return false
}

type identityKey struct{}

// WithIdentity returns ctx carrying the caller's identity.
func WithIdentity(ctx context.Context, id Identity) context.Context {
	return context.WithValue(ctx, identityKey{}, id)
}

// FromContext returns the caller's identity, if authentication found one.
func FromContext(ctx context.Context) (Identity, bool) {
	id, ok := ctx.Value(identityKey{}).(Identity)
	return id, ok
}

// Tenant returns the caller's tenant: the identity's, or the default
// tenant when the server runs without authentication.
func Tenant(ctx context.Context) string {
	if id, ok := FromContext(ctx); ok && id.Tenant != "" {
		return id.Tenant
	}
	return store.DefaultTenant
}
