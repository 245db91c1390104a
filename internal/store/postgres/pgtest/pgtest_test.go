package pgtest_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
)

func TestStartStopStart(t *testing.T) {
	begin := time.Now()
	c := pgtest.Start(t)
	t.Logf("cluster started in %v", time.Since(begin))
	ping := func(dsn string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			return err
		}
		defer conn.Close(ctx)
		return conn.Ping(ctx)
	}
	if err := ping(c.DSN()); err != nil {
		t.Fatal(err)
	}
	begin = time.Now()
	other := c.NewDatabase(t)
	t.Logf("database created in %v", time.Since(begin))
	if other == c.DSN() {
		t.Fatal("NewDatabase returned the cluster's own database")
	}
	begin = time.Now()
	c.Stop(t)
	t.Logf("stopped in %v", time.Since(begin))
	if err := ping(c.DSN()); err == nil {
		t.Fatal("a stopped cluster accepts connections")
	}
	begin = time.Now()
	c.Start(t)
	t.Logf("restarted in %v", time.Since(begin))
	for _, dsn := range []string{c.DSN(), other} {
		if err := ping(dsn); err != nil {
			t.Fatal(err)
		}
	}
}
