// Package store is the port through which runsvc keeps everything durable:
// Specs, Run logs with their index and leases, memory, the bus, and the
// worker tool calls routed between replicas. Two adapters implement it,
// sqlite (embedded default, also the tests' store) and postgres, and
// both pass the same conformance suite in storetest.
// docs/storage.md is the schema of what they hold.
//
// Every method returns *errs.StoreUnavailable when the store cannot be
// reached, the context's own error when ctx ended, and the typed errors its
// doc comment names.
package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// DefaultTenant is every caller's tenant until authentication exists.
const DefaultTenant = "default"

// Store is everything runsvc keeps.
type Store interface {
	Specs
	Runs
	Threads
	ConcurrencyKeys
	Leases
	Memory
	Bus
	ToolCalls
	Lifecycle
	// Notifier tells subscribers when something they follow changed, in
	// this process and, for a shared store, in every replica.
	Notifier() Notifier
	// Ping asks the store one question whose cost does not depend on what
	// it holds (the health probe's): an error when it does not answer.
	Ping(ctx context.Context) error
	// Close releases the store.
	Close() error
}

// Spec is a stored Spec Version.
type Spec struct {
	Tenant     string
	Name       string
	Version    string
	Body       []byte
	CreateTime time.Time
}

// SpecQuery selects Specs to list.
type SpecQuery struct {
	// Name lists every Version of one Spec; empty lists the newest of each.
	Name      string
	PageSize  int
	PageToken string
}

// Specs keeps published Spec Versions.
type Specs interface {
	// PutSpec stores a Version unless (tenant, name, version) exists, and
	// returns the stored one with created false when it did.
	PutSpec(ctx context.Context, s Spec) (Spec, bool, error)
	// GetSpec returns a Version, the newest when version is empty, or
	// *errs.SpecNotFound.
	GetSpec(ctx context.Context, tenant, name, version string) (Spec, error)
	// ListSpecs lists Specs by name, then by publish time.
	ListSpecs(ctx context.Context, tenant string, q SpecQuery) ([]Spec, string, error)
}

// ErrConditionFailed is a conditional write's answer, having written
// nothing, when its condition does not hold (NewRun.IfNoNewerVersion).
var ErrConditionFailed = errors.New("store: the write's condition does not hold")

// Record is a stored log entry; the body is opaque to the store.
type Record struct {
	Seq     int64
	Time    time.Time
	Attempt int
	Kind    string
	Body    []byte
}

// Index is what the store keeps beside a Run's log, written with every
// append, so that Runs can be found, claimed and shown without folding.
type Index struct {
	// State is the Run's lifecycle state.
	State string
	// Runnable says a worker should take it now.
	Runnable bool
	// WakeAt is when an idle Run next needs a worker (suspension expiry or
	// deadline); zero for none.
	WakeAt time.Time
	// Summary is an opaque snapshot of the folded Run.
	Summary []byte
	// Suspension is what a SUSPENDED Run waits for, one of a few fixed
	// words (TOOL_RESULTS, APPROVAL, QUESTION, CHILDREN, IN_DOUBT), so
	// Runs can be counted by it; empty when the Run is not suspended.
	Suspension string
	// Settled says State is a final one, as the writer of the index knows:
	// the write that settles a Run on a thread hands the thread on to its
	// next Run. The store acts on it and does not keep it: a Run read back
	// has it false, and a reader tells settled states by State.
	Settled bool
}

// Run is a Run's identity, index and lease.
type Run struct {
	Tenant       string
	RunID        string
	Spec         string
	Version      string
	RequestID    string
	RequestHash  string
	ParentRunID  string
	RootRunID    string
	DelegationID string
	CreateTime   time.Time
	UpdateTime   time.Time
	LastSeq      int64
	Index        Index
	LeaseOwner   string
	LeaseExpires time.Time
	// ThreadID is the thread the Run continues; empty for none.
	ThreadID string
	// ThreadSeq is the Run's position on its thread, from 1.
	ThreadSeq int
	// ContinuesRunID is the thread's Run this one continues from (its
	// transcript comes first), set when the Run became its thread's active
	// Run; empty for a thread's first Run.
	ContinuesRunID string
	// Waiting says the Run waits for its thread's active Run to settle:
	// it is not claimable until the store makes it the active one.
	Waiting bool
	// ScheduleID is the schedule whose tick ScheduleTick started the Run;
	// empty (and ScheduleTick zero) for a Run no schedule started.
	ScheduleID   string
	ScheduleTick time.Time
	// Priority orders claims: a claimable Run of a higher priority is
	// claimed before any of a lower one (MinPriority to MaxPriority).
	Priority int
	// FairnessKey shares claims within a priority: the store gives the
	// Run a place (FairPass) in its key's turn, so that claims take the
	// keys waiting in turn, not the oldest Runs first.
	FairnessKey string
	// FairPass is the Run's place in its key's turn, set at creation: the
	// key's previous place (or the queue's head, when later) plus the
	// key's stride. Claims take the lowest first within a priority.
	FairPass int64
	// ConcurrencyKey is the concurrency key the Run takes a slot of (see
	// keyqueue); empty for none. ConcurrencyLimit is how many Runs of the
	// key may hold one at once, as the Run's start asked (the store keeps
	// the newest start's on the key).
	ConcurrencyKey   string
	ConcurrencyLimit int
	// KeySeq is the Run's position on its key, from 1.
	KeySeq int
	// KeyState says whether the Run holds a slot of its key (KeyHolds),
	// waits for one (KeyWaits: it is not claimable until the store gives it
	// one), or neither (KeyNone: no key, or it settled).
	KeyState int
	// EvaluationID is the evaluation a replay (or an LLM judge's) Run
	// belongs to; empty for every other Run. ListRuns lists the Runs of
	// one evaluation's namespace (RunQuery.EvaluationID), production's by
	// default.
	EvaluationID string
}

// The states of a Run's concurrency slot (Run.KeyState).
const (
	KeyNone  = 0
	KeyHolds = 1
	KeyWaits = 2
)

// The priorities a Run may have.
const (
	MinPriority     = 1
	MaxPriority     = 5
	DefaultPriority = 3
)

// Queueing fills in a new Run's claim order where it names none: the
// default priority and its tenant as its fairness key.
func Queueing(r *Run) {
	if r.Priority == 0 {
		r.Priority = DefaultPriority
	}
	if r.FairnessKey == "" {
		r.FairnessKey = r.Tenant
	}
}

// DefaultStride is the stride of a fairness key of weight 1: a key of
// weight w steps DefaultStride/w places per Run, so it gets w times the
// claims of a key of weight 1 while both wait.
const DefaultStride = 1_000_000

// NewRun is a Run to create with its first Records. Its UpdateTime is its
// CreateTime unless set (an imported Run keeps its own).
//
// A Run.LeaseOwner (with Run.LeaseExpires) admits the Run already leased
// to that worker, its first lease (token 1), in the same transaction, as
// a Claim right after would: no other worker claims it before the lease
// expires, and then any worker may, so the replica admitting a Run can
// run it without claiming it. A Run created Waiting is not leased. The
// Run returned has LeaseOwner set only when it was leased.
type NewRun struct {
	Run
	Records []Record
	// Ends says the Records settle or suspend the Run, as Append.Ends.
	Ends bool
	// RejectBusy, for a Run on a thread, fails the create with
	// *errs.ThreadBusy when the thread has an active Run; otherwise such a
	// Run is created Waiting, behind the Runs already on the thread.
	RejectBusy bool
	// FairStride is how far the Run's FairnessKey steps per Run
	// (DefaultStride/weight); 0 is DefaultStride.
	FairStride int64
	// RejectLimited, for a Run with a ConcurrencyKey, fails the create
	// with *errs.ConcurrencyLimited when every slot of the key is held;
	// otherwise such a Run is created waiting (KeyWaits), behind the Runs
	// already waiting on the key.
	RejectLimited bool
	// IfNoNewerVersion makes the create conditional: it fails with
	// ErrConditionFailed when a Version of the Run's Spec published after
	// its Version is stored (a Version not stored has none newer).
	IfNoNewerVersion bool
}

// AdmissionLease is the lease a new Run r is created under (see NewRun),
// once its thread decided whether it waits: its LeaseOwner until its
// LeaseExpires, or none ("") when it asks for none or is Waiting.
func AdmissionLease(r Run) (string, time.Time) {
	if r.LeaseOwner == "" || r.Waiting || r.KeyState == KeyWaits {
		return "", time.Time{}
	}
	return r.LeaseOwner, FromNanos(Nanos(r.LeaseExpires))
}

// Thread is a conversation: the Runs started on it, one active at a time.
type Thread struct {
	Tenant     string
	ThreadID   string
	CreateTime time.Time
	UpdateTime time.Time
	// ActiveRunID is the Run running on the thread; empty when none is.
	ActiveRunID string
	// LastRunID is the thread's newest settled Run, which the next one
	// continues from.
	LastRunID string
	// Runs counts the Runs started on the thread.
	Runs int
	// Deletions counts the thread's Runs deleted so far: a history read
	// before a deletion may hold a Run that is gone.
	Deletions int64
}

// HistoryPart is one settled Run's part of its thread's history, as the
// engine encoded it (Body is opaque to the store): a copy, derived from
// the Run's log, that lets a later Run of the thread read the history
// before it in one query instead of one log per earlier Run.
type HistoryPart struct {
	Tenant    string
	ThreadID  string
	ThreadSeq int
	RunID     string
	// ContinuesRunID is the Run's: the part before this one.
	ContinuesRunID string
	Body           []byte
}

// ThreadQuery selects threads to list, newest first.
type ThreadQuery struct {
	PageSize  int
	PageToken string
}

// Threads keeps threads. A Run on a thread is created by CreateRun with
// Run.ThreadID set: the thread is created on first use; the first Run
// becomes the active one and later ones wait (or fail, see
// NewRun.RejectBusy). When the active Run's index becomes settled, the
// same transaction makes the oldest waiting Run the active one, continuing
// from the settled Run, and claimable.
type Threads interface {
	// GetThread returns a thread, with found false when no Run used it.
	GetThread(ctx context.Context, tenant, threadID string) (Thread, bool, error)
	// ListThreads lists threads newest first.
	ListThreads(ctx context.Context, tenant string, q ThreadQuery) ([]Thread, string, error)
	// PutHistoryParts stores each Run's history part, in one transaction,
	// unless one is stored for the Run or the Run no longer exists.
	// Deleting a Run deletes its part in the same transaction and counts
	// in its thread's Deletions, so no part outlives its Run.
	PutHistoryParts(ctx context.Context, parts []HistoryPart) error
	// HistoryParts returns the parts stored for a thread's Runs before
	// position before (ThreadSeq < before), oldest first.
	HistoryParts(ctx context.Context, tenant, threadID string, before int) ([]HistoryPart, error)
}

// KeyQueue is a concurrency key's Runs that hold or wait for its slots,
// each in start order.
type KeyQueue struct {
	Holding []string
	Waiting []string
}

// ConcurrencyKeys reads concurrency keys. A Run with Run.ConcurrencyKey set
// is created by CreateRun holding a slot of the key when one is free, else
// waiting (or refused, see NewRun.RejectLimited); when a Run holding a slot
// settles, the same transaction hands the slot to the key's oldest waiting
// Run, which becomes claimable (see keyqueue).
type ConcurrencyKeys interface {
	// KeyQueue returns the Runs holding and waiting for the key's slots.
	KeyQueue(ctx context.Context, tenant, key string) (KeyQueue, error)
}

// Append adds Records to a Run's log.
type Append struct {
	Tenant string
	RunID  string
	// Records start at the log's last seq + 1.
	Records []Record
	// Index replaces the Run's index.
	Index Index
	// Lease, when set, must still be held: the append is a worker's.
	Lease *Lease
	// Release gives the lease up in the same transaction.
	Release bool
	// Ends says the Records settle or suspend the Run: the append signals
	// RunEndTopic.
	Ends bool
	// Events are webhook outbox rows written in the same transaction as
	// the Records (see Webhooks); an append that stores no Record stores
	// none of them.
	Events []WebhookEvent
}

// Claimable reports whether the Run can be claimed once the append is
// stored.
func (a Append) Claimable() bool { return a.Index.Runnable && (a.Lease == nil || a.Release) }

// RunQuery selects Runs to list, newest first.
type RunQuery struct {
	States      []string
	Spec        string
	ParentRunID string
	PageSize    int
	PageToken   string
	// ThreadID lists one thread's Runs in the order they were started
	// (oldest first) instead.
	ThreadID string
	// ScheduleID lists the Runs one schedule started.
	ScheduleID string
	// EvaluationID lists the Runs of one evaluation; empty lists the
	// Runs of no evaluation.
	EvaluationID string
}

// Runs keeps Run logs and their index.
type Runs interface {
	// CreateRun creates a Run with its first Records. When the Run's
	// request id was used before, nothing is created and the existing Run
	// is returned with created false.
	CreateRun(ctx context.Context, r NewRun) (Run, bool, error)
	// Append adds Records if the first one's seq follows the log's last:
	// otherwise *errs.SeqConflict. Records must be consecutive. With a lease, *errs.LeaseLost when the
	// lease is no longer held. *errs.RunNotFound for an unknown Run.
	Append(ctx context.Context, a Append) error
	// ReadLog returns up to limit Records from seq from (limit <= 0: all).
	ReadLog(ctx context.Context, tenant, runID string, from int64, limit int) ([]Record, error)
	// GetRun returns a Run or *errs.RunNotFound.
	GetRun(ctx context.Context, tenant, runID string) (Run, error)
	// GetRunByDelegation returns the child Run of a delegation or
	// *errs.DelegationNotFound.
	GetRunByDelegation(ctx context.Context, tenant, delegationID string) (Run, error)
	// ListRuns lists Runs newest first.
	ListRuns(ctx context.Context, tenant string, q RunQuery) ([]Run, string, error)
	// SetIndex replaces a Run's index without adding Records, if its log's
	// last seq is still lastSeq: otherwise *errs.SeqConflict. It is for a
	// log no Record may follow, a corrupt one, whose Run fails beside its
	// log (the log itself is never repaired). The lease is left as it is.
	// *errs.RunNotFound for an unknown Run.
	SetIndex(ctx context.Context, tenant, runID string, lastSeq int64, idx Index, now time.Time) error
	// CountRuns counts the Runs of every tenant whose state is one of
	// states, by state and suspension; a group with no Run is left out.
	// It is for the metrics, so it reads the index only.
	CountRuns(ctx context.Context, states []string) ([]RunCount, error)
}

// RunCount is how many Runs share a state and a suspension.
type RunCount struct {
	State      string
	Suspension string
	Count      int64
}

// Lease is a worker's exclusive right to write a Run's log.
type Lease struct {
	Tenant string
	RunID  string
	Owner  string
	// Token tells one lease of the Run from the next: it counts the Run's
	// leases, so the first one it ever had has token 1.
	Token   int64
	Expires time.Time
}

// Leases hands Runs to workers.
type Leases interface {
	// Claim leases up to limit Runs that need a worker (runnable ones
	// first, the longest waiting first; then idle ones past their wake
	// time) and whose lease is free or expired; none is not an error. A Run
	// is never leased to two owners at once.
	Claim(ctx context.Context, owner string, now time.Time, ttl time.Duration, limit int) ([]*Lease, error)
	// Renew extends a lease, or returns *errs.LeaseLost.
	Renew(ctx context.Context, l *Lease, now time.Time, ttl time.Duration) error
	// Release gives a lease up; releasing a lost lease does nothing.
	Release(ctx context.Context, l *Lease) error
	// NextWake returns the earliest time Claim may find an idle Run due: its
	// wake time, or the end of the lease someone holds on it.
	NextWake(ctx context.Context) (time.Time, bool, error)
}

// Entry is a memory key's value.
type Entry struct {
	Key        string
	Value      []byte
	Version    int64
	UpdateTime time.Time
}

// Memory keeps key-value memories, one per (tenant, namespace).
type Memory interface {
	// SetValue writes a key; the entry's version is greater than every
	// version written before in that memory.
	SetValue(ctx context.Context, tenant, namespace, key string, value []byte, now time.Time) (Entry, error)
	// GetValues returns the entries of the keys that exist.
	GetValues(ctx context.Context, tenant, namespace string, keys []string) ([]Entry, error)
	// Changes returns entries written with a version above after, by version.
	Changes(ctx context.Context, tenant, namespace string, after int64) ([]Entry, error)
}

// BusMessage is a message on a channel.
type BusMessage struct {
	Tenant        string
	MessageID     string
	Channel       string
	Sender        string
	Content       []byte
	InReplyTo     string
	SendTime      time.Time
	DeliveryCount int
}

// Bus keeps channels and their messages until acknowledged.
type Bus interface {
	// DeclareChannels records that owner (a Spec) receives on channels.
	DeclareChannels(ctx context.Context, tenant, owner string, channels []string) error
	// ChannelExists reports whether some Spec declared the channel.
	ChannelExists(ctx context.Context, tenant, channel string) (bool, error)
	// SendBus stores a message.
	SendBus(ctx context.Context, m BusMessage) error
	// DeliverBus takes up to limit unacknowledged messages of a channel
	// that are not out for delivery, oldest first, and marks them out until
	// now+ackTimeout. inReplyTo, when set, selects replies to one message.
	DeliverBus(ctx context.Context, tenant, channel, inReplyTo string, now time.Time, ackTimeout time.Duration, limit int) ([]BusMessage, error)
	// AckBus acknowledges messages; it returns how many were unacknowledged.
	AckBus(ctx context.Context, tenant, channel string, ids []string) (int, error)
	// NextRedelivery returns when the earliest message out for delivery on
	// a channel comes back.
	NextRedelivery(ctx context.Context, tenant, channel string) (time.Time, bool, error)
}

// ToolAdvert says that a replica's connected workers serve a tool for a
// tenant.
type ToolAdvert struct {
	Tenant string
	Tool   string
	// Description and Parameters (a JSON Schema) are one serving worker's
	// definition of the tool.
	Description string
	Parameters  []byte
	// Workers is how many of the replica's workers serve the tool.
	Workers int
}

// ServedTool is a tool that the workers of live replicas serve.
type ServedTool struct {
	Tool        string
	Description string
	Parameters  []byte
	// Replicas is how many live replicas advertise the tool, and Workers
	// how many workers they have serving it in all.
	Replicas int
	Workers  int
}

// ToolCall is a worker tool call routed through the store: the replica
// running the Run enqueues it, a replica whose worker serves the tool
// claims it, and the result comes back in the same row.
type ToolCall struct {
	Tenant string
	// CallID is unique across Runs and stable across retries and
	// takeovers of the call ("<runID>/<callID>" for a Run's call).
	CallID    string
	RunID     string
	Tool      string
	Arguments []byte
	// TraceParent is the W3C trace context of the caller's tool call, ""
	// when untraced; the first enqueue's is kept.
	TraceParent string
	// Deadline is when the caller stops waiting; a call past it is never
	// claimed. Zero for none.
	Deadline   time.Time
	CreateTime time.Time
	// Owner holds the claim until ClaimExpires; Token tells one claim of
	// the call from the next. Owner is empty when the call is unclaimed.
	Owner        string
	Token        int64
	ClaimExpires time.Time
	// Claims counts the claims of the call so far.
	Claims int
	// Done says Result is recorded, at CompleteTime.
	Done         bool
	Result       ToolCallResult
	CompleteTime time.Time
}

// ToolCallResult is a call's outcome: its output, a JSON value, or the
// tool's failure.
type ToolCallResult struct {
	Output  []byte
	Failure *ToolCallFailure
}

// ToolCallFailure is a worker's report that its tool failed.
type ToolCallFailure struct {
	Message   string
	Retryable bool
}

// ToolCalls lets a replica call a worker tool whose workers are connected
// to another replica. Replicas advertise the tools their workers serve,
// with an expiry they keep pushing back while they live; a caller enqueues
// a call, a serving replica claims it (at least once: a claim whose
// replica died expires and the call is claimable again), runs it on a
// worker and completes it, and the caller reads the result.
type ToolCalls interface {
	// AdvertiseTools replaces every advert of replica with adverts, live
	// until expires; no adverts withdraws them all.
	AdvertiseTools(ctx context.Context, replica string, adverts []ToolAdvert, expires time.Time) error
	// ServedTools returns, by name, the tenant's tools that replicas
	// advertise live at now, leaving out exceptReplica's adverts when it is
	// set (a replica knows its own workers better).
	ServedTools(ctx context.Context, tenant string, now time.Time, exceptReplica string) ([]ServedTool, error)
	// EnqueueToolCall stores a pending call, unless (tenant, call id)
	// exists: then the stored call is returned with created false, so a
	// retried or taken-over call is not duplicated. Only its deadline may
	// change: when it is not done and c's deadline is later (or none), it
	// becomes c's, so that a retry after a timeout can be claimed again.
	EnqueueToolCall(ctx context.Context, c ToolCall) (ToolCall, bool, error)
	// ClaimToolCalls claims for owner, until now+ttl, up to limit of the
	// tenant's calls of the named tools that are not done, whose claim is
	// free or expired and whose deadline is not past, oldest first; none is
	// not an error. A call is never claimed by two owners at once.
	ClaimToolCalls(ctx context.Context, tenant, owner string, tools []string, now time.Time, ttl time.Duration, limit int) ([]ToolCall, error)
	// RenewToolCall extends a claim to now+ttl, or returns *errs.LeaseLost
	// (the call's run id and the owner) when it is no longer held.
	RenewToolCall(ctx context.Context, c *ToolCall, now time.Time, ttl time.Duration) error
	// ReleaseToolCall gives a claim up so that the call can be claimed again
	// at once; releasing a claim no longer held does nothing.
	ReleaseToolCall(ctx context.Context, c ToolCall) error
	// CompleteToolCall records the result of a call claimed as c, once:
	// *errs.LeaseLost (the call's run id and the owner) when c's claim is
	// no longer held, or the call is done already.
	CompleteToolCall(ctx context.Context, c ToolCall, r ToolCallResult, now time.Time) error
	// GetToolCall returns a call, with found false when there is none.
	GetToolCall(ctx context.Context, tenant, callID string) (ToolCall, bool, error)
	// AbandonToolCall deletes a call its caller no longer waits for, unless
	// it is done or under a claim live at now; it reports whether it did.
	AbandonToolCall(ctx context.Context, tenant, callID string, now time.Time) (bool, error)
	// PruneToolCalls deletes the adverts expired at now, the calls done
	// more than keep before now, and the calls not done whose deadline (or,
	// without one, whose creation) is more than keep before now; it returns
	// how many calls it deleted.
	PruneToolCalls(ctx context.Context, now time.Time, keep time.Duration) (int, error)
}

// RunTopic is signalled when a Run's log grows.
func RunTopic(tenant, runID string) string { return "run/" + tenant + "/" + runID }

// OutsiderTopic is signalled when a Run's log gets Records written by an
// outsider (Attempt 0): an interrupt, a message, a resume, a child's end.
func OutsiderTopic(tenant, runID string) string { return "runx/" + tenant + "/" + runID }

// RunEndTopic is signalled when a Run may have settled or suspended: an
// append of a settled or suspended Record, a change of its index alone,
// its deletion. A waiter for either (WaitRun) follows it instead of
// RunTopic, so that it does not read the Run again after every append.
func RunEndTopic(tenant, runID string) string { return "rune/" + tenant + "/" + runID }

// AppendTopics returns the topics an append of recs to a Run signals:
// TopicRunnable only when the Run can be claimed now (runnable, and no
// worker keeps holding it), so that a running Run's appends do not wake
// idle workers for nothing; RunEndTopic only when they end it (they
// settle or suspend it: Append.Ends).
func AppendTopics(tenant, runID string, claimable, ends bool, recs []Record) []string {
	topics := []string{RunTopic(tenant, runID)}
	if claimable {
		topics = append(topics, TopicRunnable)
	}
	outsider := false
	for _, r := range recs {
		outsider = outsider || r.Attempt == 0
	}
	if outsider {
		topics = append(topics, OutsiderTopic(tenant, runID))
	}
	if ends {
		topics = append(topics, RunEndTopic(tenant, runID))
	}
	return topics
}

// DeletedTopics returns the topics a Run's deletion signals.
func DeletedTopics(tenant, runID string) []string {
	return []string{RunTopic(tenant, runID), RunEndTopic(tenant, runID)}
}

// IndexTopics returns the topics a change of a Run's index alone signals:
// the Run's, its RunEndTopic (the change may settle or suspend it), and
// TopicRunnable when it can be claimed.
func IndexTopics(tenant, runID string, idx Index) []string {
	if idx.Runnable {
		return []string{RunTopic(tenant, runID), RunEndTopic(tenant, runID), TopicRunnable}
	}
	return []string{RunTopic(tenant, runID), RunEndTopic(tenant, runID)}
}

// WebhooksTopic is signalled when a webhook subscription is created,
// changed or deleted, so every replica's copy follows at once.
const WebhooksTopic = "webhooks"

// MemoryTopic is signalled when a memory is written.
func MemoryTopic(tenant, namespace string) string { return "mem/" + tenant + "/" + namespace }

// BusTopic is signalled when a channel gets a message.
func BusTopic(tenant, channel string) string { return "bus/" + tenant + "/" + channel }

// ToolCallsTopic is signalled when a call of a tenant's tool can be
// claimed: it was enqueued, or its claim given up.
func ToolCallsTopic(tenant, tool string) string { return "toolq/" + tenant + "/" + tool }

// ToolResultTopic is signalled when a call's result is recorded.
func ToolResultTopic(tenant, callID string) string { return "toolr/" + tenant + "/" + callID }

// TopicRunnable is signalled when a Run may need a worker.
const TopicRunnable = "runnable"

// Notifier signals changes. A signal means "look again": it may be
// coalesced with others and carries nothing but, from a write of this
// process, the row it left its Run in (Subscription.Run).
type Notifier interface {
	// Subscribe follows a topic until the subscription is closed.
	Subscribe(topic string) Subscription
}

// Subscription receives a topic's signals.
type Subscription interface {
	// C receives after every change; signals coalesce.
	C() <-chan struct{}
	// Run returns, for a Run's RunEndTopic, the row the latest write that
	// ended the Run and announced it with its signal left; false when no
	// signal carried a row. Only a store's own writes in this process carry
	// one, and a later write (another replica's, whose signal carries none)
	// may have changed the Run since: a caller compares its LastSeq with
	// what it read before.
	Run() (Run, bool)
	// Close ends the subscription.
	Close()
}

// CheckConsecutive returns an error unless records' seqs follow one
// another; adapters call it before an append.
func CheckConsecutive(records []Record) error {
	for i := 1; i < len(records); i++ {
		if records[i].Seq != records[0].Seq+int64(i) {
			return fmt.Errorf("store: appended records are not consecutive: seq %d follows %d", records[i].Seq, records[i-1].Seq)
		}
	}
	return nil
}

// Nanos encodes a time the way both adapters store it: unix nanoseconds,
// 0 for the zero time.
func Nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// FromNanos decodes a time Nanos encoded, in UTC; 0 is the zero time.
func FromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// RunDeletion is a Run to delete, as it was when its deleter looked at it.
type RunDeletion struct {
	Tenant string
	RunID  string
	// LastSeq is the log's last seq the deleter saw: a Run whose log moved
	// on since is not deleted.
	LastSeq int64
	// Namespaces are memories the Run owns, deleted with it.
	Namespaces []string
}

// RunGroup is the Runs of one Spec Version of a tenant.
type RunGroup struct {
	Tenant  string
	Spec    string
	Version string
}

// ExpiryQuery selects settled Runs of one RunGroup to sweep.
type ExpiryQuery struct {
	RunGroup
	// Settled are the states a Run is settled in.
	Settled []string
	// Before: Runs last updated before it.
	Before time.Time
	Limit  int
}

// Lifecycle deletes Runs for good: on request, or when their retention
// is over.
type Lifecycle interface {
	// DeleteRuns deletes, each in one transaction with everything it
	// holds, the Runs whose log's last seq is still the deletion's LastSeq:
	// the Run's row (and so the request id that started it), its log, its
	// worker tool calls, the memories named and the webhook subscriptions
	// that follow it (WebhookSubscription.RunID: A2A push configs) with
	// their outbox rows and log, signalling WebhooksTopic when there were
	// any; its children stay, no longer linked to it (their parent id is
	// cleared). It returns the ids of the Runs it deleted; a Run it did
	// not delete (gone already, or its log moved on) is not an error.
	DeleteRuns(ctx context.Context, ds []RunDeletion) ([]string, error)
	// DeleteThread deletes, in one transaction, the Runs of ds as
	// DeleteRuns would (a batch of one thread's Runs), then the thread's
	// row when no Run is left on it. It returns the ids of the Runs it
	// deleted and whether the thread's row is gone (false also when there
	// was none).
	DeleteThread(ctx context.Context, tenant, threadID string, ds []RunDeletion) ([]string, bool, error)
	// SettledGroups returns every (tenant, Spec, Version) that has a Run
	// in one of the settled states.
	SettledGroups(ctx context.Context, settled []string) ([]RunGroup, error)
	// ExpiredRuns returns up to q.Limit Runs of q's group that are in a
	// settled state and were last updated before q.Before, oldest first,
	// leaving out any whose parent Run exists and is not settled, and any
	// on a thread that has a Run not settled (active or waiting): a
	// thread's chain is kept whole until the thread is idle.
	ExpiredRuns(ctx context.Context, q ExpiryQuery) ([]Run, error)
	// Compact makes what deletions removed unrecoverable from the store's
	// own files, as far as the database allows (docs/lifecycle.md).
	Compact(ctx context.Context) error
}
