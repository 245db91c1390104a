package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestCommitFencesFailedWrites: a write that changed rows and then failed
// leaves nothing behind, alone in its batch or among others, and the
// other writes of its batch commit.
func TestCommitFencesFailedWrites(t *testing.T) {
	failed := errors.New("failed after writing")
	for _, tc := range []struct {
		name string
		fail []bool // one write per element; true fails after writing
	}{
		{"alone", []bool{true}},
		{"first of three", []bool{true, false, false}},
		{"middle of three", []bool{false, true, false}},
		{"last of two", []bool{false, true}},
		{"all of two", []bool{true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := Open(t.TempDir(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			var batch []*pendingWrite
			for i, fail := range tc.fail {
				key := fmt.Sprint("k", i)
				batch = append(batch, &pendingWrite{op: "test", err: make(chan error, 1), fn: func(tx *sql.Tx) error {
					if _, err := tx.Exec(`INSERT INTO memory (tenant, namespace, key, value, version, update_time) VALUES ('t', 'ns', ?, x'00', 1, 0)`, key); err != nil {
						return err
					}
					if fail {
						return failed
					}
					return nil
				}})
			}
			// Run the batch in the writer, between its batches.
			if err := db.maintain(context.Background(), "test", func(*sql.DB) error { db.commit(batch); return nil }); err != nil {
				t.Fatal(err)
			}
			for i, fail := range tc.fail {
				if err := <-batch[i].err; (err != nil) != fail || (fail && !errors.Is(err, failed)) {
					t.Errorf("write %d: err %v, want failed %v", i, err, fail)
				}
				got, err := db.GetValues(context.Background(), "t", "ns", []string{fmt.Sprint("k", i)})
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != boolInt(!fail) {
					t.Errorf("write %d (failed %v) left %d rows", i, fail, len(got))
				}
			}
			// The writer goes on committing.
			if _, err := db.SetValue(context.Background(), "t", "ns", "after", []byte(`1`), time.Now()); err != nil {
				t.Fatal(err)
			}
		})
	}
}
