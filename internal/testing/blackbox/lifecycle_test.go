package blackbox_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	_ "modernc.org/sqlite"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

const answerSpec = `{"name": "answer", "model": {"provider": "scripted", "script": {"turns": [{"text": "the answer"}]}}}`

// settleRuns starts n Runs of answerSpec from 16 clients and waits until
// all have settled; it returns their ids.
func settleRuns(t *testing.T, runs runsvcv1.RunServiceClient, n int) []string {
	t.Helper()
	ctx := testserver.Context(t)
	ids := make([]string, n)
	var wg sync.WaitGroup
	var failed atomic.Value
	for c := 0; c < 16; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := c; i < n; i += 16 {
				resp, err := runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "answer", Input: fmt.Sprintf("q%d", i)})
				if err != nil {
					failed.Store(err)
					return
				}
				ids[i] = resp.GetRun().GetRunId()
			}
		}(c)
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		t.Fatalf("StartRun: %v", err)
	}
	for _, id := range ids {
		waitState(t, runs, id, runsvcv1.RunState_RUN_STATE_COMPLETED)
	}
	return ids
}

// openFile opens a store file read-only for looking underneath.
func openFile(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// TestBackupWhileServing: `runsvc backup` while 16 clients start Runs
// writes a copy that opens, passes PRAGMA integrity_check, holds every Run
// settled before the backup began, and serves them when started on.
func TestBackupWhileServing(t *testing.T) {
	data := t.TempDir()
	addr := blackbox.FreePort(t)
	p := blackbox.Serve(t, addr, "--data", data)
	conn := p.Dial(t)
	runs := runsvcv1.NewRunServiceClient(conn)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(conn), answerSpec)
	before := settleRuns(t, runs, 200)

	ctx, stop := context.WithCancel(testserver.Context(t))
	var started atomic.Int64
	var wg sync.WaitGroup
	for c := 0; c < 16; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if _, err := runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "answer", Input: "during"}); err == nil {
					started.Add(1)
				}
			}
		}()
	}
	waitUntil(t, func() bool { return started.Load() >= 50 })
	dest := filepath.Join(t.TempDir(), "copy.db")
	out, err := exec.Command(blackbox.Binary(t), "backup", "--data", data, dest).CombinedOutput()
	during := started.Load()
	time.Sleep(100 * time.Millisecond)
	stop()
	wg.Wait()
	if err != nil {
		t.Fatalf("runsvc backup: %v\n%s", err, out)
	}
	t.Logf("runs started while the backup ran: %d before it returned, %d in all", during, started.Load())

	copyDB := openFile(t, dest)
	var check string
	if err := copyDB.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check of the copy = %q, %v", check, err)
	}
	var total int
	if err := copyDB.QueryRow(`SELECT count(*) FROM runs`).Scan(&total); err != nil {
		t.Fatal(err)
	}
	for _, id := range before {
		var state string
		var last, recs int64
		err := copyDB.QueryRow(`SELECT state, last_seq, (SELECT count(*) FROM records r WHERE r.run_id = runs.run_id) FROM runs WHERE run_id = ?`, id).Scan(&state, &last, &recs)
		if err != nil || state != "COMPLETED" || recs != last {
			t.Fatalf("run %s in the copy: %s, %d of %d records, %v", id, state, recs, last, err)
		}
	}
	t.Logf("the copy holds %d runs: the %d settled before the backup and %d started around it", total, len(before), total-len(before))

	restored := t.TempDir()
	if out, err := exec.Command("cp", dest, filepath.Join(restored, "runsvc.db")).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	p.Stop(t)
	q := blackbox.Serve(t, addr, "--data", restored)
	got, err := runsvcv1.NewRunServiceClient(q.Dial(t)).GetRun(testserver.Context(t), &runsvcv1.GetRunRequest{RunId: before[0]})
	if err != nil || got.GetRun().GetAnswer() != "the answer" {
		t.Fatalf("GetRun on the restored copy = %v, %v", got.GetRun(), err)
	}
}

// runCount is how many Runs the store file holds now.
func runCount(t *testing.T, db *sql.DB) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM runs`).Scan(&n); err != nil {
		t.Fatalf("counting runs: %v", err)
	}
	return n
}

// killWhenDeleting kills p -9 once a quarter of the total Runs are gone
// from the file (the deletions are well under way), and returns how many
// it held then.
func killWhenDeleting(t *testing.T, p *blackbox.Process, db *sql.DB, total int) int {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if n := runCount(t, db); n <= total-total/4 {
			p.Kill()
			return n
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("no Run was deleted within a minute")
	return 0
}

// checkWholeOrGone checks the store file after a crash: it passes
// integrity_check, no Record is left without its Run, and every Run left
// has its whole log; then, served again, every Run is either NOT_FOUND on
// GetRun and WatchRun or COMPLETED with a gapless log. It returns how
// many are left.
func checkWholeOrGone(t *testing.T, data, addr string, ids []string) int {
	t.Helper()
	db := openFile(t, filepath.Join(data, "runsvc.db"))
	var check string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check after kill -9 = %q, %v", check, err)
	}
	var orphans, partial int
	if err := db.QueryRow(`SELECT count(*) FROM records r WHERE NOT EXISTS (SELECT 1 FROM runs u WHERE u.tenant = r.tenant AND u.run_id = r.run_id)`).Scan(&orphans); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT count(*) FROM runs u WHERE last_seq != (SELECT count(*) FROM records r WHERE r.tenant = u.tenant AND r.run_id = u.run_id)`).Scan(&partial); err != nil {
		t.Fatal(err)
	}
	if orphans != 0 || partial != 0 {
		t.Fatalf("after kill -9: %d records without their run, %d runs without their whole log", orphans, partial)
	}
	_ = db.Close()
	p := blackbox.Serve(t, addr, "--data", data)
	runs := runsvcv1.NewRunServiceClient(p.Dial(t))
	ctx := testserver.Context(t)
	left := 0
	for _, id := range ids {
		got, err := runs.GetRun(ctx, &runsvcv1.GetRunRequest{RunId: id})
		recs, werr := watchAll(ctx, runs, id)
		switch {
		case err != nil && status.Code(err) == codes.NotFound && status.Code(werr) == codes.NotFound:
		case err == nil && werr == nil && got.GetRun().GetState() == runsvcv1.RunState_RUN_STATE_COMPLETED && int64(len(recs)) == got.GetRun().GetLastSeq():
			for i, r := range recs {
				if r.GetSeq() != int64(i+1) {
					t.Fatalf("run %s: record %d has seq %d", id, i+1, r.GetSeq())
				}
			}
			left++
		default:
			t.Fatalf("run %s after kill -9: GetRun %v (%v), WatchRun %d records (%v): neither whole nor gone", id, got.GetRun().GetState(), err, len(recs), werr)
		}
	}
	p.Stop(t)
	return left
}

func watchAll(ctx context.Context, runs runsvcv1.RunServiceClient, id string) ([]*runsvcv1.Record, error) {
	st, err := runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: id})
	if err != nil {
		return nil, err
	}
	var out []*runsvcv1.Record
	for {
		resp, err := st.Recv()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, resp.GetRecord())
	}
}

// TestKillDuringDelete: kill -9 while DeleteRun deletes every Run of a
// Spec leaves each Run whole or gone, and the log uncorrupted.
func TestKillDuringDelete(t *testing.T) {
	data := t.TempDir()
	addr := blackbox.FreePort(t)
	p := blackbox.Serve(t, addr, "--data", data)
	conn := p.Dial(t)
	runs := runsvcv1.NewRunServiceClient(conn)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(conn), answerSpec)
	ids := settleRuns(t, runs, 600)
	db := openFile(t, filepath.Join(data, "runsvc.db"))
	go func() {
		_, _ = runs.DeleteRun(context.Background(), &runsvcv1.DeleteRunRequest{Spec: "answer"})
	}()
	at := killWhenDeleting(t, p, db, len(ids))
	_ = db.Close()
	left := checkWholeOrGone(t, data, addr, ids)
	t.Logf("killed with %d of %d runs left; after restart %d are whole, %d gone", at, len(ids), left, len(ids)-left)
	if left == 0 || left == len(ids) {
		t.Fatalf("%d of %d runs left: the kill did not land during the delete", left, len(ids))
	}
}

// TestKillDuringSweep: kill -9 during a retention sweep leaves each Run
// whole or gone; the next start's sweep deletes the rest.
func TestKillDuringSweep(t *testing.T) {
	data := t.TempDir()
	addr := blackbox.FreePort(t)
	p := blackbox.Serve(t, addr, "--data", data)
	conn := p.Dial(t)
	runs := runsvcv1.NewRunServiceClient(conn)
	testserver.Publish(t, runsvcv1.NewSpecServiceClient(conn), answerSpec)
	ids := settleRuns(t, runs, 600)
	p.Stop(t)

	db := openFile(t, filepath.Join(data, "runsvc.db"))
	sweeping := []string{"--data", data, "--retention", "1ms", "--retention-batch", "5"}
	p = blackbox.Start(t, addr, sweeping...)
	at := killWhenDeleting(t, p, db, len(ids))
	_ = db.Close()
	left := checkWholeOrGone(t, data, addr, ids)
	t.Logf("killed with %d of %d runs left; after restart %d are whole, %d gone", at, len(ids), left, len(ids)-left)
	if left == 0 || left == len(ids) {
		t.Fatalf("%d of %d runs left: the kill did not land during the sweep", left, len(ids))
	}
	q := blackbox.Serve(t, addr, sweeping...)
	waitUntil(t, func() bool { return strings.Contains(q.Log(), `"msg":"retention sweep"`) })
	q.Stop(t)
	if n := checkWholeOrGone(t, data, addr, ids); n != 0 {
		t.Errorf("after the next sweep %d runs are left, want 0", n)
	}
}
