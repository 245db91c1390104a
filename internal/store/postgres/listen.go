package postgres

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/runsvc/runsvc/internal/store/notify"
)

// Listener timing.
const (
	// pingTimeout bounds the ping of an idle connection.
	pingTimeout = 5 * time.Second
	// Reconnection backoff, doubled per failed attempt, with jitter.
	minBackoff = 50 * time.Millisecond
	maxBackoff = 2 * time.Second
)

// listener holds one connection, outside the pool, that LISTENs on the
// channel and publishes every payload (a topic) to the hub. When the
// connection drops it calls lost, reconnects with backoff and then signals
// every subscriber, since changes made meanwhile were not heard.
type listener struct {
	// instance names this process in the payloads it sends.
	instance string
	cfg      *pgx.ConnConfig
	hub      *notify.Hub
	log      *slog.Logger
	idle     time.Duration // Options.ListenCheckInterval
	lost     func()

	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
}

func newListener(instance string, cfg *pgx.ConnConfig, hub *notify.Hub, log *slog.Logger, idle time.Duration, lost func()) *listener {
	return &listener{instance: instance, cfg: cfg, hub: hub, log: log, idle: idle, lost: lost, cancel: func() {}, done: make(chan struct{})}
}

// start connects and LISTENs before it returns, so that no change
// committed after Open is missed, then follows the channel until stop.
func (l *listener) start(ctx context.Context) error {
	conn, err := listen(ctx, l.cfg)
	if err != nil {
		return err
	}
	runCtx, cancel := context.WithCancel(context.Background())
	l.cancel = cancel
	go l.run(runCtx, conn)
	return nil
}

// stop ends a started listener and waits for it to close its connection.
func (l *listener) stop() {
	l.once.Do(l.cancel)
	<-l.done
}

func (l *listener) run(ctx context.Context, conn *pgx.Conn) {
	defer close(l.done)
	for {
		err := l.receive(ctx, conn)
		closeConn(conn)
		if ctx.Err() != nil {
			return
		}
		l.log.Warn("postgres store: lost the notification connection; reconnecting", "error", err)
		l.lost()
		if conn = l.reconnect(ctx); conn == nil {
			return
		}
		l.log.Info("postgres store: notification connection restored")
		l.hub.PublishAll()
	}
}

// receive publishes notifications until the connection fails or ctx ends.
func (l *listener) receive(ctx context.Context, conn *pgx.Conn) error {
	for {
		waitCtx, cancel := context.WithTimeout(ctx, l.idle)
		n, err := conn.WaitForNotification(waitCtx)
		cancel()
		if n != nil {
			if source, topic, ok := strings.Cut(n.Payload, " "); !ok {
				l.hub.Publish(n.Payload)
			} else if source != l.instance {
				l.hub.Publish(topic) // this process published its own at commit
			}
		}
		switch {
		case err == nil:
		case ctx.Err() != nil:
			return ctx.Err()
		case pgconn.Timeout(err) && !conn.IsClosed():
			pingCtx, cancel := context.WithTimeout(ctx, pingTimeout)
			err := conn.Ping(pingCtx)
			cancel()
			if err != nil {
				return err
			}
		default:
			return err
		}
	}
}

// reconnect retries until it has a listening connection, or returns nil
// when ctx ends.
func (l *listener) reconnect(ctx context.Context) *pgx.Conn {
	delay := minBackoff
	for {
		jittered := delay/2 + rand.N(delay/2+1)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(jittered):
		}
		conn, err := listen(ctx, l.cfg)
		if err == nil {
			return conn
		}
		if ctx.Err() != nil {
			return nil
		}
		l.log.Debug("postgres store: notification connection still down", "error", err)
		delay = min(2*delay, maxBackoff)
	}
}

// listen opens a connection of its own and LISTENs on the channel.
func listen(ctx context.Context, cfg *pgx.ConnConfig) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, cfg.Copy())
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		closeConn(conn)
		return nil, err
	}
	return conn, nil
}

func closeConn(conn *pgx.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = conn.Close(ctx)
}
