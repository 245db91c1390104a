package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
)

// Backup writes a consistent copy of the store in dir (its runsvc.db) to
// dest while a server may be using it: VACUUM INTO reads the database in
// one read transaction, so the copy is the database as of one commit,
// every Run committed before the backup began is in it, and the server's
// writers go on meanwhile (WAL readers do not block writers). dest must
// not exist; it is created readable by its owner only. Restoring is
// starting a server with the copy as the runsvc.db of its --data.
func Backup(ctx context.Context, dir, dest string) error {
	src := filepath.Join(dir, "runsvc.db")
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("no store to back up: %w", err)
	}
	f, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	db, err := sql.Open("sqlite", "file:"+src+"?"+q.Encode())
	if err != nil {
		return errors.Join(err, os.Remove(dest))
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, dest); err != nil {
		return errors.Join(fmt.Errorf("VACUUM INTO: %w", err), os.Remove(dest))
	}
	return nil
}
