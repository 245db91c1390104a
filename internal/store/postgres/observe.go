package postgres

import "time"

// observe reports the operation op, begun at start and ended with *err, to
// the Observer of Options: every operation defers it once, under its
// method name.
func (db *DB) observe(op string, start time.Time, err *error) {
	if db.obs != nil {
		db.obs(op, time.Since(start), *err)
	}
}
