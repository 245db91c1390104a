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
	diag   *serverDiag
}

// sampleWaits starts sampling the wait events of the server's client
// backends (but its own) every 20ms.
func sampleWaits(ctx context.Context, dsn string) (*waitSampler, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &waitSampler{cancel: cancel, done: make(chan struct{}), counts: map[string]int{}, diag: startDiag(ctx, conn)}
	go func() {
		defer close(s.done)
		defer conn.Close(context.WithoutCancel(ctx))
		defer s.diag.report(context.WithoutCancel(ctx), conn)
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

// serverDiag is what the PostgreSQL phase prints on stderr besides its
// table, per Run created over the phase (warm-up included): the CPU the
// server's processes used, its WAL, how many updates of the runs table
// were HOT (wrote no index entry).
type serverDiag struct {
	cpu0  map[int]time.Duration
	start time.Time
}

// startDiag resets the WAL statistics and reads the CPU time of the
// server's processes.
func startDiag(ctx context.Context, conn *pgx.Conn) *serverDiag {
	d := &serverDiag{start: time.Now()}
	_, _ = conn.Exec(ctx, `SELECT pg_stat_reset_shared('wal')`)
	d.cpu0 = serverCPU(ctx, conn)
	return d
}

// report prints the server's CPU, WAL and row updates per Run.
func (d *serverDiag) report(ctx context.Context, conn *pgx.Conn) {
	cpu := time.Duration(0)
	for pid, t := range serverCPU(ctx, conn) {
		cpu += t - d.cpu0[pid]
	}
	wall := time.Since(d.start)
	var runs, records, syncs, writes, updates, hot float64
	_ = conn.QueryRow(ctx, `SELECT count(*)::float8 FROM runs`).Scan(&runs)
	runs = max(runs, 1)
	_ = conn.QueryRow(ctx, `SELECT wal_records::float8, wal_sync::float8, wal_write::float8 FROM pg_stat_wal`).Scan(&records, &syncs, &writes)
	_ = conn.QueryRow(ctx, `SELECT n_tup_upd::float8, n_tup_hot_upd::float8 FROM pg_stat_user_tables WHERE relname = 'runs'`).Scan(&updates, &hot)
	var b strings.Builder
	fmt.Fprintf(&b, "postgres diagnostics: %.0f Runs created; server CPU %.2fs over %.1fs (%.2f cores, %.2f ms/Run)\n",
		runs, cpu.Seconds(), wall.Seconds(), cpu.Seconds()/wall.Seconds(), float64(cpu.Milliseconds())/runs)
	fmt.Fprintf(&b, "  per Run: WAL %.1f records, %.2f writes, %.2f syncs; runs rows updated %.2f times, %.2f of them HOT",
		records/runs, writes/runs, syncs/runs, updates/runs, hot/runs)
	progress("%s", b.String())
}

// serverCPU returns the user+system CPU time of each of the server's
// processes, read from /proc (the server runs on this machine).
func serverCPU(ctx context.Context, conn *pgx.Conn) map[int]time.Duration {
	out := map[int]time.Duration{}
	rows, err := conn.Query(ctx, `SELECT pid FROM pg_stat_activity`)
	if err != nil {
		return out
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return out
	}
	for _, pid := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// Fields after the command's closing parenthesis; utime and stime
		// are the 14th and 15th of the line, in clock ticks (100 a second).
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) < 13 {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		out[int(pid)] = time.Duration(u+st) * 10 * time.Millisecond
	}
	return out
}
