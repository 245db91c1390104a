package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
)

// skipError is a phase that cannot run on this machine, and why.
type skipError string

func (s skipError) Error() string { return string(s) }

// pgCluster is a throwaway PostgreSQL cluster started the way pgtest
// starts one (initdb and pg_ctl, as the postgres OS user when run as
// root, on 127.0.0.1 only), by default with PostgreSQL's durable
// settings: fsync, full_page_writes and synchronous_commit on, to compare
// fairly with SQLite's synchronous=FULL. Without fsync it runs as pgtest
// does (fsync and full_page_writes off).
type pgCluster struct {
	bin     string
	dir     string
	port    int
	cred    *syscall.Credential
	version string
}

const pgUser = "app"

func startPostgres(fsync bool) (*pgCluster, error) {
	bin, ok := pgtest.FindBinaries()
	if !ok {
		return nil, skipError("PostgreSQL server binaries (initdb, pg_ctl, postgres) not found")
	}
	c := &pgCluster{bin: bin, version: filepath.Base(filepath.Dir(bin))}
	cred, err := pgtest.ServerCredential()
	if err != nil {
		return nil, skipError(err.Error())
	}
	c.cred = cred
	dir, err := os.MkdirTemp("", "runsvc-bench-pg-")
	if err != nil {
		return nil, err
	}
	c.dir = dir
	if c.cred != nil {
		if err := os.Chown(dir, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
			c.remove()
			return nil, err
		}
	}
	// --no-sync only skips initdb's own final fsync of the new files.
	if out, err := c.run("initdb", "-U", pgUser, "--auth=trust", "-D", c.dataDir(),
		"--no-sync", "--no-instructions", "-E", "UTF8", "--locale=C"); err != nil {
		c.remove()
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	if c.port, err = pgtest.FreePort(); err != nil {
		c.remove()
		return nil, err
	}
	durable := "on"
	if !fsync {
		durable = "off"
	}
	opts := strings.Join([]string{
		"-c listen_addresses=127.0.0.1",
		"-p " + strconv.Itoa(c.port),
		"-k " + c.dir,
		"-c max_connections=300",
		"-c fsync=" + durable,
		"-c synchronous_commit=on",
		"-c full_page_writes=" + durable,
	}, " ")
	if out, err := c.run("pg_ctl", "-D", c.dataDir(), "-l", filepath.Join(c.dir, "server.log"), "-w", "-t", "60", "-o", opts, "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "server.log"))
		c.remove()
		return nil, fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	return c, nil
}

func (c *pgCluster) dataDir() string { return filepath.Join(c.dir, "data") }

func (c *pgCluster) dsn() string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/postgres?sslmode=disable", pgUser, c.port)
}

// stop stops the server and removes the cluster.
func (c *pgCluster) stop() {
	if out, err := c.run("pg_ctl", "-D", c.dataDir(), "-m", "fast", "-w", "stop"); err != nil {
		progress("pg_ctl stop: %v\n%s", err, out)
	}
	c.remove()
}

func (c *pgCluster) remove() { _ = os.RemoveAll(c.dir) }

// run runs one of the server binaries as the server's OS user.
func (c *pgCluster) run(name string, args ...string) ([]byte, error) {
	return pgtest.RunBinary(c.bin, c.dir, c.cred, name, args...)
}

// waitEvent is how often client backends were seen in one wait event.
type waitEvent struct {
	// Event is "type:event state", e.g. "Lock:object active"; "-" is none.
	Event string `json:"event"`
	// Samples counts backends seen in it; Share is of all backends seen.
	Samples int     `json:"samples"`
	Share   float64 `json:"share"`
}

// waitSampler polls pg_stat_activity until stopped.
type waitSampler struct {
	cancel context.CancelFunc
	done   chan struct{}
	counts map[string]int
}

// sampleWaits starts sampling the wait events of the server's client
// backends (but its own) every 20ms.
func sampleWaits(ctx context.Context, dsn string) (*waitSampler, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &waitSampler{cancel: cancel, done: make(chan struct{}), counts: map[string]int{}}
	go func() {
		defer close(s.done)
		defer conn.Close(context.WithoutCancel(ctx))
		for ctx.Err() == nil {
			rows, err := conn.Query(ctx, `SELECT coalesce(wait_event_type, '-') || ':' || coalesce(wait_event, '-') || ' ' || coalesce(state, '-'), count(*)
				FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() GROUP BY 1`)
			if err != nil {
				return
			}
			for rows.Next() {
				var event string
				var n int
				if rows.Scan(&event, &n) == nil {
					s.counts[event] += n
				}
			}
			rows.Close()
			select {
			case <-ctx.Done():
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return s, nil
}

// stop ends the sampling and returns the events, most frequent first.
func (s *waitSampler) stop() []waitEvent {
	s.cancel()
	<-s.done
	total := 0
	for _, n := range s.counts {
		total += n
	}
	out := make([]waitEvent, 0, len(s.counts))
	for e, n := range s.counts {
		out = append(out, waitEvent{Event: e, Samples: n, Share: float64(n) / float64(max(total, 1))})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Samples > out[j].Samples })
	return out
}
