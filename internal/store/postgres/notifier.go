package postgres

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/runsvc/runsvc/internal/store/notify"
)

// Notifier timing.
const (
	// notifyTimeout bounds one batch of NOTIFYs.
	notifyTimeout = 5 * time.Second
	// resignalEvery is how often every local subscriber is signalled to
	// look again, in case a replica died between a commit and its NOTIFY.
	resignalEvery = 10 * time.Second
)

// notifier sends the topics of committed writes to the other replicas in
// batches, with NOTIFY in a transaction of its own. NOTIFY inside each
// write transaction serialised every commit on the notification queue's
// lock, held through the commit's WAL flush.
type notifier struct {
	instance string
	pool     *pgxpool.Pool
	hub      *notify.Hub
	log      *slog.Logger

	mu      sync.Mutex
	pending map[string]struct{}
	kick    chan struct{}
	stopped chan struct{}
	done    chan struct{}
	once    sync.Once
}

func startNotifier(instance string, pool *pgxpool.Pool, hub *notify.Hub, log *slog.Logger) *notifier {
	n := &notifier{
		instance: instance, pool: pool, hub: hub, log: log, pending: map[string]struct{}{},
		kick: make(chan struct{}, 1), stopped: make(chan struct{}), done: make(chan struct{}),
	}
	go n.run()
	return n
}

// send queues topics; the notifier goroutine sends them soon, coalesced.
func (n *notifier) send(topics []string) {
	n.mu.Lock()
	for _, t := range topics {
		n.pending[t] = struct{}{}
	}
	n.mu.Unlock()
	select {
	case n.kick <- struct{}{}:
	default:
	}
}

func (n *notifier) run() {
	defer close(n.done)
	resignal := time.NewTicker(resignalEvery)
	defer resignal.Stop()
	for {
		select {
		case <-n.kick:
			n.flush()
		case <-resignal.C:
			n.hub.PublishAll()
		case <-n.stopped:
			n.flush()
			return
		}
	}
}

func (n *notifier) flush() {
	n.mu.Lock()
	if len(n.pending) == 0 {
		n.mu.Unlock()
		return
	}
	// Payloads name their source, so that this process's listener skips
	// what it published locally already.
	topics := make([]string, 0, len(n.pending))
	for t := range n.pending {
		topics = append(topics, n.instance+" "+t)
	}
	n.pending = map[string]struct{}{}
	n.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
	defer cancel()
	// NOTIFY gives the transaction an xid, so its commit would wait for a
	// WAL flush like a write's: turned off for this transaction alone, the
	// notifications are delivered at commit all the same and the flush
	// happens in the background. They are hints that lose nothing if a
	// crash drops them: the data they announce was flushed by its own
	// commit, and every listener signals everything when it reconnects.
	if _, err := n.pool.Exec(ctx, `SELECT pg_notify('`+channel+`', t)
		FROM (SELECT set_config('synchronous_commit', 'off', true)) AS async, unnest($1::text[]) AS t`, topics); err != nil {
		// The other replicas' listeners lose their connection too when the
		// server is down, and signal everything once they are back.
		n.log.Warn("postgres store: sending notifications failed", "topics", len(topics), "err", err)
	}
}

func (n *notifier) stop() {
	n.once.Do(func() { close(n.stopped) })
	<-n.done
}
