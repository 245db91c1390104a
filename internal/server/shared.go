package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/postgres"
)

// sharedStore reports whether cfg names a store several replicas share,
// rather than this process's SQLite.
func sharedStore(cfg Config) bool {
	return cfg.Store != "" && !strings.HasPrefix(cfg.Store, "sqlite:")
}

// openShared opens the store several replicas share, which tells observe
// of every operation.
func openShared(ctx context.Context, cfg Config, observe store.Observer) (store.Store, error) {
	if !strings.HasPrefix(cfg.Store, "postgres://") && !strings.HasPrefix(cfg.Store, "postgresql://") {
		return nil, fmt.Errorf("--store %q: use postgres://... or sqlite:DIR", redactURL(cfg.Store))
	}
	return postgres.Open(ctx, cfg.Store, postgres.Options{MaxConns: int32(cfg.PoolSize), Observe: observe})
}

// redactURL hides a password in a store URL.
func redactURL(u string) string {
	at := strings.LastIndex(u, "@")
	scheme := strings.Index(u, "://")
	if at < 0 || scheme < 0 {
		return u
	}
	return u[:scheme+3] + "…" + u[at:]
}
