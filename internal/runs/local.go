package runs

import (
	"time"

	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/store"
)

// Local is a worker in this process that can take a Run as it is
// admitted (the engine): the Run is created already leased to it, in the
// same transaction, and handed over in-process, with no claim and no
// notification between. A process that dies with such a Run leaves its
// lease to expire, and any replica's worker then claims the Run as it
// would any other.
type Local interface {
	// Reserve takes one of the worker's free slots for a Run about to be
	// admitted and returns the owner and lease duration to admit it under;
	// ok is false when the worker has no free slot or is stopping. Every
	// reservation ends with Adopt or Unreserve.
	Reserve() (owner string, ttl time.Duration, ok bool)
	// Adopt runs, in the reserved slot, a Run admitted under lease. adm
	// is what the admission wrote, so the worker need not read it back;
	// the worker owns adm.State from here on.
	Adopt(lease *store.Lease, adm *Handover)
	// Unreserve gives back a reserved slot whose Run was not admitted
	// leased (it failed, its request id found an earlier Run, or it waits
	// on its thread).
	Unreserve()
}

// Handover is what the Manager hands its local worker with a Run it
// admitted leased to it (Local.Adopt), so that the worker's first
// Attempt reads nothing back: its one job is that hand-over.
type Handover struct {
	// State is the Run's log folded, up to and with its Admitted Record.
	State *runlog.State
	// Row is the Run's row as CreateRun returned it.
	Row store.Run
}

// reservation is a slot of the local worker held for one admission.
type reservation struct {
	local Local
	owner string
	ttl   time.Duration
}

// reserve asks the local worker for a slot; nil when there is no room (or
// no local worker): the Run is then admitted for any worker to claim.
func (m *Manager) reserve() *reservation {
	if m.local == nil {
		return nil
	}
	owner, ttl, ok := m.local.Reserve()
	if !ok {
		return nil
	}
	return &reservation{local: m.local, owner: owner, ttl: ttl}
}

// lease asks for the Run to be admitted leased to the reserved worker.
func (r *reservation) lease(run *store.Run, now time.Time) {
	if r != nil {
		run.LeaseOwner, run.LeaseExpires = r.owner, now.Add(r.ttl)
	}
}

// end hands the created Run, whose log folds to st, to the worker when it
// was admitted leased to it, or gives the slot back.
func (r *reservation) end(row store.Run, st *runlog.State, created bool, err error) {
	if r == nil {
		return
	}
	if err != nil || !created || row.LeaseOwner != r.owner {
		r.local.Unreserve()
		return
	}
	r.local.Adopt(&store.Lease{Tenant: row.Tenant, RunID: row.RunID, Owner: r.owner, Token: 1, Expires: row.LeaseExpires},
		&Handover{State: st, Row: row})
}
