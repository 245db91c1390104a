package sqlite

import "database/sql"

// checkpointEvery is how many commits the writer makes between two
// checkpoints: about 20 WAL frames a commit at c16, so some 600 frames
// (SQLite's own automatic checkpoint runs at 1,000).
const checkpointEvery = 32

// checkpointer copies committed WAL frames into the database file on a
// connection of its own (PASSIVE: it waits for no reader and no writer),
// so the writer goroutine never does it inside a commit. The writer's
// connection has wal_autocheckpoint off; the writer restarts the WAL from
// its beginning by itself once a checkpoint has copied all of it. A failed
// checkpoint only leaves the WAL longer until the next one.
func (db *DB) checkpointer(conn *sql.DB) {
	defer close(db.ckptDone)
	for {
		select {
		case <-db.ckptKick:
		case <-db.stop:
			return
		}
		var busy, frames, copied int
		_ = conn.QueryRow(`PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &copied)
	}
}

// committed counts a commit and asks for a checkpoint every
// checkpointEvery of them, without waiting for it.
func (db *DB) committed() {
	db.commits++
	if db.commits%checkpointEvery != 0 {
		return
	}
	select {
	case db.ckptKick <- struct{}{}:
	default:
	}
}
