// Package pgtest starts throwaway PostgreSQL clusters for tests: initdb into
// a temporary directory, a server bound to a free port on 127.0.0.1 only,
// a fresh database per Cluster (and more on demand), all removed when the
// test ends.
//
// It needs the PostgreSQL server binaries (initdb, pg_ctl, postgres) under
// /usr/lib/postgresql/*/bin or on PATH. Without them the test is skipped,
// unless RUNSVC_REQUIRE_ALL=1, which makes it fail instead. Run as root, the
// cluster runs as the postgres OS user, since PostgreSQL refuses root.
package pgtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// RequireAllEnv is the environment variable that turns a missing
// PostgreSQL from a skipped test into a failed one when set to "1".
const RequireAllEnv = "RUNSVC_REQUIRE_ALL"

// superuser is the cluster's only role; authentication is trust, on
// loopback only.
const superuser = "app"

// Cluster is a running throwaway PostgreSQL cluster. Its methods may be
// called from several goroutines.
type Cluster struct {
	bin  string
	dir  string // owned by the server's OS user; holds data/, the socket and the log
	port int
	cred *syscall.Credential // nil when the test runs as a non-root user

	mu      sync.Mutex
	running bool
	dbs     int
	dsn     string
}

// Start initialises and starts a cluster and creates a fresh database in
// it; t.Cleanup stops the cluster and removes its files. It skips t (or
// fails it, with RUNSVC_REQUIRE_ALL=1) when PostgreSQL is not installed.
func Start(t testing.TB) *Cluster {
	t.Helper()
	bin, ok := FindBinaries()
	if !ok {
		unavailable(t, "PostgreSQL not installed")
	}
	cred, err := ServerCredential()
	if err != nil {
		unavailable(t, err.Error())
	}
	dir, err := os.MkdirTemp("", "runsvc-pgtest-")
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	c := &Cluster{bin: bin, dir: dir, cred: cred}
	t.Cleanup(c.destroy)
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			t.Fatalf("pgtest: handing %s to the postgres user: %v", dir, err)
		}
	}
	if out, err := c.run("initdb", "-U", superuser, "--auth=trust", "-D", c.dataDir(),
		"--no-sync", "--no-instructions", "-E", "UTF8", "--locale=C"); err != nil {
		t.Fatalf("pgtest: initdb: %v\n%s", err, out)
	}
	c.port, err = FreePort()
	if err != nil {
		t.Fatalf("pgtest: finding a free port: %v", err)
	}
	c.Start(t)
	c.dsn = c.NewDatabase(t)
	return c
}

// DSN returns the connection string of the Cluster's own database.
func (c *Cluster) DSN() string { return c.dsn }

// Port returns the port the server listens on, on 127.0.0.1.
func (c *Cluster) Port() int { return c.port }

// NewDatabase creates another empty database in the cluster and returns
// its connection string. It is cheap enough to call once per subtest.
func (c *Cluster) NewDatabase(t testing.TB) string {
	t.Helper()
	c.mu.Lock()
	c.dbs++
	name := fmt.Sprintf("runsvc_test_%d", c.dbs)
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.dsnFor("postgres"))
	if err != nil {
		t.Fatalf("pgtest: connecting to create a database: %v", err)
	}
	defer func() { _ = conn.Close(context.Background()) }()
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest: creating database %s: %v", name, err)
	}
	return c.dsnFor(name)
}

// Stop stops the server at once (pg_ctl stop -m immediate), as a crash or
// an outage would; its data stays for Start.
func (c *Cluster) Stop(t testing.TB) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.running {
		return
	}
	if out, err := c.run("pg_ctl", "-D", c.dataDir(), "-m", "immediate", "-w", "stop"); err != nil {
		t.Fatalf("pgtest: pg_ctl stop: %v\n%s", err, out)
	}
	c.running = false
}

// Start starts a stopped cluster again on the same port and returns once
// it accepts connections. Starting a running cluster does nothing.
func (c *Cluster) Start(t testing.TB) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running {
		return
	}
	// fsync=off speeds the server up and loses nothing here: Stop kills
	// the server, not the machine, so written data stays in the page
	// cache. (synchronous_commit=off would lose commits on Stop.)
	opts := strings.Join([]string{
		"-c listen_addresses=127.0.0.1",
		"-p " + strconv.Itoa(c.port),
		"-k " + c.dir,
		"-c max_connections=300",
		"-c fsync=off",
		"-c full_page_writes=off",
	}, " ")
	out, err := c.run("pg_ctl", "-D", c.dataDir(), "-l", c.logFile(), "-w", "-t", "60", "-o", opts, "start")
	if err != nil {
		log, _ := os.ReadFile(c.logFile())
		t.Fatalf("pgtest: pg_ctl start: %v\n%s\nserver log:\n%s", err, out, log)
	}
	c.running = true
	if err := c.waitReady(); err != nil {
		log, _ := os.ReadFile(c.logFile())
		t.Fatalf("pgtest: server does not accept connections: %v\nserver log:\n%s", err, log)
	}
}

// destroy stops the server if it runs and removes the cluster's files.
func (c *Cluster) destroy() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running {
		_, _ = c.run("pg_ctl", "-D", c.dataDir(), "-m", "immediate", "-w", "stop")
		c.running = false
	}
	_ = os.RemoveAll(c.dir)
}

func (c *Cluster) waitReady() error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, c.dsnFor("postgres"))
		if err == nil {
			err = conn.Ping(ctx)
			_ = conn.Close(ctx)
		}
		cancel()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (c *Cluster) dataDir() string { return filepath.Join(c.dir, "data") }
func (c *Cluster) logFile() string { return filepath.Join(c.dir, "server.log") }

func (c *Cluster) dsnFor(db string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable", superuser, c.port, db)
}

// run runs one of the server binaries as the server's OS user.
func (c *Cluster) run(name string, args ...string) ([]byte, error) {
	return RunBinary(c.bin, c.dir, c.cred, name, args...)
}

// RunBinary runs the server binary name from the directory bin in the
// working directory dir, as the OS user cred when it is set, with LC_ALL=C,
// and returns its combined output. The benchmark runner starts its
// clusters with it too.
func RunBinary(bin, dir string, cred *syscall.Credential, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(bin, name), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	return cmd.CombinedOutput()
}

// FindBinaries returns the directory holding initdb, pg_ctl and postgres:
// the newest /usr/lib/postgresql/<version>/bin, else the one initdb on
// PATH resolves to.
func FindBinaries() (string, bool) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return majorVersion(dirs[i]) > majorVersion(dirs[j]) })
	if initdb, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(initdb); err == nil {
			dirs = append(dirs, filepath.Dir(real))
		}
	}
	for _, d := range dirs {
		if hasBinaries(d) {
			return d, true
		}
	}
	return "", false
}

func majorVersion(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func hasBinaries(dir string) bool {
	for _, name := range []string{"initdb", "pg_ctl", "postgres"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return false
		}
	}
	return true
}

// ServerCredential returns the postgres OS user's credential when the test
// (or benchmark) runs as root, and nil otherwise (the server runs as the test's user).
func ServerCredential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root and there is no postgres OS user to run PostgreSQL as: %v", err)
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("postgres OS user has uid %q: %v", u.Uid, err)
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("postgres OS user has gid %q: %v", u.Gid, err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// freePort returns a loopback port that nothing listens on now.
// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago,
// for a server a test or benchmark is about to start.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// unavailable skips the test, or fails it when every test must run.
func unavailable(t testing.TB, why string) {
	t.Helper()
	if os.Getenv(RequireAllEnv) == "1" {
		t.Fatalf("pgtest: %s, and %s=1 requires every test to run", why, RequireAllEnv)
	}
	t.Skip("skipped: " + why)
}

// Dump returns what pg_dump writes of the database at dsn (plain SQL,
// data included), for tests that look at every byte a database holds.
func (c *Cluster) Dump(t testing.TB, dsn string) []byte {
	t.Helper()
	cmd := exec.Command(filepath.Join(c.bin, "pg_dump"), "--no-owner", "--dbname="+dsn)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pgtest: pg_dump: %v", err)
	}
	return out
}
