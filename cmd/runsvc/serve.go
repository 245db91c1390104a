package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/server"
)

// env returns the environment variable or a default.
func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

func envBool(name string) bool {
	b, _ := strconv.ParseBool(os.Getenv(name))
	return b
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return n
	}
	return def
}

func envDuration(name string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(name)); err == nil {
		return d
	}
	return def
}

// opsFlags are the observability and connection flags.
func opsFlags(fs *flag.FlagSet, o *server.Ops) {
	fs.StringVar(&o.MetricsListen, "metrics-listen", env("RUNSVC_METRICS_LISTEN", ""), "serve Prometheus metrics at http://ADDR/metrics; off when empty (env RUNSVC_METRICS_LISTEN)")
	fs.StringVar(&o.OTLPEndpoint, "otlp-endpoint", env("RUNSVC_OTLP_ENDPOINT", ""), "export traces over OTLP/gRPC to HOST:PORT (plaintext); else the OTEL_EXPORTER_OTLP_* environment, else off (env RUNSVC_OTLP_ENDPOINT)")
	fs.DurationVar(&o.KeepaliveTime, "keepalive-time", envDuration("RUNSVC_KEEPALIVE_TIME", 30*time.Second), "ping a connection idle this long (env RUNSVC_KEEPALIVE_TIME)")
	fs.DurationVar(&o.KeepaliveTimeout, "keepalive-timeout", envDuration("RUNSVC_KEEPALIVE_TIMEOUT", 10*time.Second), "close a connection whose ping is not answered within this (env RUNSVC_KEEPALIVE_TIMEOUT)")
	fs.DurationVar(&o.MaxConnectionAge, "max-connection-age", envDuration("RUNSVC_MAX_CONNECTION_AGE", 0), "send GOAWAY to a connection this old so balancers can rebalance; 0 never (env RUNSVC_MAX_CONNECTION_AGE)")
	fs.DurationVar(&o.HeartbeatInterval, "heartbeat-interval", envDuration("RUNSVC_HEARTBEAT_INTERVAL", 0), "send a heartbeat on WatchRun and StreamText idle this long, unless the request sets its own; 0 only when asked (env RUNSVC_HEARTBEAT_INTERVAL)")
	fs.DurationVar(&o.MaxConnectionAgeGrace, "max-connection-age-grace", envDuration("RUNSVC_MAX_CONNECTION_AGE_GRACE", 0), "how long calls on an aged connection may finish; 0 forever (env RUNSVC_MAX_CONNECTION_AGE_GRACE)")
}

func serve(args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var cfg server.Config
	var logLevel, logFormat string
	fs.StringVar(&cfg.Listen, "listen", env("RUNSVC_LISTEN", "127.0.0.1:50051"), "gRPC listen address (env RUNSVC_LISTEN)")
	fs.StringVar(&cfg.Data, "data", env("RUNSVC_DATA", "./runsvc-data"), "data directory of the embedded SQLite store (env RUNSVC_DATA)")
	fs.StringVar(&cfg.Store, "store", env("RUNSVC_STORE", ""), "postgres://... to share a PostgreSQL store between replicas (env RUNSVC_STORE); default SQLite in --data")
	fs.IntVar(&cfg.PoolSize, "pool-size", envInt("RUNSVC_POOL_SIZE", 16), "PostgreSQL connection pool size (env RUNSVC_POOL_SIZE)")
	fs.StringVar(&cfg.ErrorDomain, "error-domain", env("RUNSVC_ERROR_DOMAIN", errdetails.DefaultDomain), "ErrorInfo domain of every error (env RUNSVC_ERROR_DOMAIN)")
	fs.BoolVar(&cfg.DebugErrors, "debug-errors", envBool("RUNSVC_DEBUG_ERRORS"), "add the cause to INTERNAL errors as DebugInfo; leaks internals, never in production (env RUNSVC_DEBUG_ERRORS)")
	fs.StringVar(&cfg.SecretsFile, "secrets-file", env("RUNSVC_SECRETS_FILE", ""), "JSON file of credentials by scope; credentials also resolve from RUNSVC_SECRET_<NAME> (env RUNSVC_SECRETS_FILE)")
	fs.StringVar(&cfg.PolicyFile, "policy-file", env("RUNSVC_POLICY_FILE", ""), "JSON file of policy rules; default allows everything (env RUNSVC_POLICY_FILE)")
	fs.StringVar(&cfg.WorkerID, "worker-id", env("RUNSVC_WORKER_ID", ""), "this replica's worker name in leases and logs; default host-pid (env RUNSVC_WORKER_ID)")
	fs.DurationVar(&cfg.Engine.LeaseTTL, "lease-ttl", 15*time.Second, "how long a crashed worker's Runs wait before another worker takes them over")
	fs.IntVar(&cfg.Engine.MaxConcurrent, "max-concurrent-runs", 256, "Runs this replica executes at once")
	fs.DurationVar(&cfg.DrainTimeout, "drain-timeout", envDuration("RUNSVC_DRAIN_TIMEOUT", 20*time.Second), "how long a shutdown waits for unary calls in flight; long streams end at once (env RUNSVC_DRAIN_TIMEOUT)")
	opsFlags(fs, &cfg.Ops)
	networks := newNetworkList(env("RUNSVC_ALLOW_NETWORKS", ""))
	fs.Var(&networks, "allow-network", "a network (CIDR) http and MCP tools may connect to, repeatable; default every address but the cloud metadata ones (env RUNSVC_ALLOW_NETWORKS, comma-separated)")
	fs.StringVar(&logLevel, "log-level", env("RUNSVC_LOG_LEVEL", "info"), "debug, info, warn or error (env RUNSVC_LOG_LEVEL)")
	fs.StringVar(&logFormat, "log-format", env("RUNSVC_LOG_FORMAT", "json"), "json or text (env RUNSVC_LOG_FORMAT)")
	securityFlags(fs, &cfg.Security)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg.AllowNetworks = networks.list
	log, logs, err := server.NewLogger(os.Stderr, logLevel, logFormat)
	if err != nil {
		fmt.Fprintf(os.Stderr, "runsvc: %v\n", err)
		return 2
	}
	defer logs.Close()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	srv, err := server.New(ctx, cfg, log)
	if err != nil {
		return startFailed(log, err)
	}
	if err := srv.Serve(ctx); err != nil {
		log.Error("runsvc stopped with an error", "err", err)
		return 1
	}
	return 0
}

// networkList is the repeatable --allow-network flag; the first use on
// the command line replaces the environment's list.
type networkList struct {
	list []string
	set  bool
}

func newNetworkList(fromEnv string) networkList {
	var l networkList
	for _, n := range strings.Split(fromEnv, ",") {
		if n = strings.TrimSpace(n); n != "" {
			l.list = append(l.list, n)
		}
	}
	return l
}

// String implements flag.Value.
func (l *networkList) String() string { return strings.Join(l.list, ",") }

// Set implements flag.Value.
func (l *networkList) Set(v string) error {
	if !l.set {
		l.list, l.set = nil, true
	}
	l.list = append(l.list, v)
	return nil
}
