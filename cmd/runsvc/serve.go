package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/runsvc/runsvc/internal/cli"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/model/ratelimit"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/webhook"
)

// envPrefix starts the environment variable of every serve flag:
// --lease-ttl is RUNSVC_LEASE_TTL.
const envPrefix = "RUNSVC_"

// serveOptions is what serve's flags and environment configure.
type serveOptions struct {
	cfg                 server.Config
	logLevel, logFormat string
	networks            networkList
	commands            networkList // --mcp-command, a list like --allow-network
	corsOrigins         networkList // --cors-origin, a list like --allow-network
	fairnessWeights     string      // --fairness-weights, parsed by parseServe
	rateLimits          networkList // --model-rate-limit, a list like --allow-network
}

// serveGroups orders serve's flags in its help.
var serveGroups = []cli.FlagGroup{
	{Title: "Service flags", Names: []string{"listen", "http-listen", "worker-id", "max-concurrent-runs", "fairness-weights", "max-attempts", "lease-ttl", "drain-timeout", "secrets-file", "policy-file", "model-rate-limit"}},
	{Title: "Store flags", Names: []string{"data", "store", "pool-size", "retention", "retention-interval", "retention-batch"}},
	{Title: "Error flags", Names: []string{"error-domain", "debug-errors"}},
	{Title: "Operations flags", Names: []string{"log-level", "log-format", "metrics-listen", "otlp-endpoint", "keepalive-time", "keepalive-timeout", "max-connection-age", "max-connection-age-grace", "heartbeat-interval"}},
	{Title: "Security flags", Names: []string{"keys-file", "insecure-no-auth", "tls-cert", "tls-key", "tls-client-ca", "allow-network", "mcp-command", "cors-origin"}},
	{Title: "Console flags", Names: []string{"console-listen", "console-session-ttl"}},
	{Title: "MCP server flags", Names: []string{"mcp-listen", "mcp-path"}},
	{Title: "Webhook flags", Names: []string{"webhook-retry-period", "webhook-timeout", "webhook-backoff", "webhook-max-backoff", "webhook-concurrency", "webhook-keep"}},
}

// serveFlags defines serve's flags on a new flag set, with their built-in
// defaults; the environment is applied afterwards (parseServe).
func serveFlags(o *serveOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("runsvc serve", flag.ContinueOnError)
	cfg := &o.cfg
	fs.StringVar(&cfg.Listen, "listen", "127.0.0.1:50051", "gRPC listen address `HOST:PORT`")
	fs.StringVar(&cfg.HTTP.Listen, "http-listen", "", "serve the API over REST/JSON, Connect and gRPC-Web at `HOST:PORT` (HTTP/1.1 and h2c; https with --tls-cert); off when empty; loopback only without --keys-file")
	fs.StringVar(&cfg.Data, "data", "./runsvc-data", "data directory `DIR` of the embedded SQLite store")
	fs.StringVar(&cfg.Store, "store", "", "a PostgreSQL `URL` (postgres://...) to share a store between replicas; default SQLite in --data")
	fs.IntVar(&cfg.PoolSize, "pool-size", 16, "PostgreSQL connection pool size `N`")
	fs.DurationVar(&cfg.Retention.Retention, "retention", 0, "delete settled Runs this long (a `DURATION`) after they settled, unless their Spec sets its own retention; 0 keeps them forever")
	fs.DurationVar(&cfg.Retention.Interval, "retention-interval", runs.DefaultSweepInterval, "how often (a `DURATION`) the retention sweep looks for Runs to delete")
	fs.IntVar(&cfg.Retention.Batch, "retention-batch", runs.DefaultSweepBatch, "how many Runs (`N`) one store transaction of the sweep deletes; smaller batches hold the store's writer for less time")
	fs.StringVar(&cfg.ErrorDomain, "error-domain", errdetails.DefaultDomain, "ErrorInfo `DOMAIN` of every error")
	fs.BoolVar(&cfg.DebugErrors, "debug-errors", false, "add the cause to INTERNAL errors as DebugInfo; leaks internals, never in production")
	fs.StringVar(&cfg.SecretsFile, "secrets-file", "", "JSON `FILE` of credentials by scope; credentials also resolve from RUNSVC_SECRET_<NAME>")
	fs.StringVar(&cfg.PolicyFile, "policy-file", "", "JSON `FILE` of policy rules; default allows everything")
	fs.StringVar(&cfg.WorkerID, "worker-id", "", "this replica's worker `NAME` in leases and logs; default host-pid")
	fs.DurationVar(&cfg.Engine.LeaseTTL, "lease-ttl", 15*time.Second, "how long (a `DURATION`) a crashed worker's Runs wait before another worker takes them over")
	fs.IntVar(&cfg.Engine.MaxConcurrent, "max-concurrent-runs", 256, "Runs (`N`) this replica executes at once")
	fs.StringVar(&o.fairnessWeights, "fairness-weights", "", "fairness keys' `WEIGHTS`, KEY=WEIGHT pairs separated by commas (a key is a tenant, or a StartRun fairness_key): within a priority, a key of weight w gets w times the claims of a key of weight 1 while both have Runs waiting; default 1 for every key")
	fs.IntVar(&cfg.Engine.MaxAttempts, "max-attempts", 0, "Attempts (`N`) of one Run that may die (a crash, a lost lease, a drain) before it fails ATTEMPTS_EXHAUSTED; resumes, answers and approvals are not counted; 0 means the default, 10")
	fs.DurationVar(&cfg.DrainTimeout, "drain-timeout", 20*time.Second, "how long (a `DURATION`) a shutdown waits for unary calls in flight; long streams end at once")
	fs.Var(&o.rateLimits, "model-rate-limit", "a model provider's rate limit per credential, a `RULE` PROVIDER[@BASE_URL]=RPM[/TPM] (requests and tokens a minute, e.g. openai=500/200000), repeatable or comma-separated; calls wait rather than exceed it; per replica, so give each limit/replicas")
	opsFlags(fs, &cfg.Ops)
	fs.Var(&o.networks, "allow-network", "a network (`CIDR`) http and MCP tools may connect to, repeatable or comma-separated; default every address but the cloud metadata ones")
	fs.Var(&o.corsOrigins, "cors-origin", "an `ORIGIN` (https://app.example.com, or *) whose browser pages may call the HTTP API, repeatable or comma-separated; default none")
	fs.Var(&o.commands, "mcp-command", "a program (`COMMAND`, as Specs name it) stdio MCP servers may be run as, repeatable or comma-separated, or * for any; default none")
	fs.StringVar(&o.logLevel, "log-level", "info", "`LEVEL`: debug, info, warn or error")
	fs.StringVar(&o.logFormat, "log-format", "json", "`FORMAT`: json or text")
	securityFlags(fs, &cfg.Security)
	fs.StringVar(&cfg.Console.Listen, "console-listen", "", "serve the web console at http://`ADDR` (https with --tls-cert); off when empty; loopback only without --keys-file")
	fs.DurationVar(&cfg.Console.SessionTTL, "console-session-ttl", 12*time.Hour, "how long (a `DURATION`) a console sign-in lasts")
	fs.StringVar(&cfg.MCP.Listen, "mcp-listen", "", "serve the Specs exposed over MCP as a streamable-HTTP MCP server at `HOST:PORT` (https with --tls-cert); off when empty; loopback only without --keys-file")
	fs.StringVar(&cfg.MCP.Path, "mcp-path", "", "serve the MCP server also at this `PATH` (\"/mcp\") of --http-listen; off when empty")
	webhookFlags(fs, &cfg.Webhooks)
	return fs
}

// webhookFlags are how webhook deliveries are made.
func webhookFlags(fs *flag.FlagSet, w *webhook.Config) {
	fs.DurationVar(&w.Keep, "webhook-keep", 7*24*time.Hour, "how long (a `DURATION`) a delivered webhook event and the delivery log are kept; dead letters stay until redelivered")
	fs.DurationVar(&w.RetryPeriod, "webhook-retry-period", 72*time.Hour, "how long (a `DURATION`) a webhook event is retried before it is dead-lettered")
	fs.DurationVar(&w.Timeout, "webhook-timeout", 15*time.Second, "how long (a `DURATION`) one webhook request may take")
	fs.DurationVar(&w.Backoff, "webhook-backoff", 5*time.Second, "the delay (a `DURATION`) after a webhook's first failed attempt; it doubles per attempt, with jitter, unless the receiver sends Retry-After")
	fs.DurationVar(&w.MaxBackoff, "webhook-max-backoff", time.Hour, "the longest delay (a `DURATION`) between two attempts of a webhook")
	fs.IntVar(&w.PerEndpoint, "webhook-concurrency", 4, "requests (`N`) in flight to one webhook subscription at once, per replica")
}

// opsFlags are the observability and connection flags.
func opsFlags(fs *flag.FlagSet, o *server.Ops) {
	fs.StringVar(&o.MetricsListen, "metrics-listen", "", "serve Prometheus metrics at http://`ADDR`/metrics; off when empty")
	fs.StringVar(&o.OTLPEndpoint, "otlp-endpoint", "", "export traces over OTLP/gRPC to `HOST:PORT` (plaintext); else the OTEL_EXPORTER_OTLP_* environment, else off")
	fs.DurationVar(&o.KeepaliveTime, "keepalive-time", 30*time.Second, "ping a connection idle this long (a `DURATION`)")
	fs.DurationVar(&o.KeepaliveTimeout, "keepalive-timeout", 10*time.Second, "close a connection whose ping is not answered within this `DURATION`")
	fs.DurationVar(&o.MaxConnectionAge, "max-connection-age", 0, "send GOAWAY to a connection this old (a `DURATION`) so balancers can rebalance; 0 never")
	fs.DurationVar(&o.HeartbeatInterval, "heartbeat-interval", 0, "send a heartbeat on WatchRun and StreamText idle this long (a `DURATION`), unless the request sets its own; 0 only when asked")
	fs.DurationVar(&o.MaxConnectionAgeGrace, "max-connection-age-grace", 0, "how long (a `DURATION`) calls on an aged connection may finish; 0 forever")
}

const serveUsage = `Usage: runsvc serve [flags]

Start the service: runsvc's gRPC API on --listen, Runs kept in --data (SQLite)
or --store (PostgreSQL). Every flag has an environment variable, shown with
it; a flag given on the command line overrides its variable, and an empty
variable counts as unset.
`

// parseServe reads serve's configuration from the environment (through
// lookup) and then args. It prints help on stdout and a wrong flag, value,
// variable or argument on stderr; when it returns false, serve must exit
// with the code it returns (0 after help, 2 otherwise).
func parseServe(args []string, stdout, stderr io.Writer, lookup func(string) (string, bool)) (*serveOptions, int, bool) {
	o := &serveOptions{}
	fs := serveFlags(o)
	bad := func(err error) (*serveOptions, int, bool) {
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(stderr, "runsvc serve: %s\n", line)
		}
		fmt.Fprintln(stderr, `Run "runsvc serve -h" for usage.`)
		return nil, 2, false
	}
	if err := cli.SetFromEnv(fs, envPrefix, lookup); err != nil {
		return bad(err)
	}
	o.networks.set = false // the first --allow-network replaces the environment's list
	o.commands.set = false
	o.corsOrigins.set = false
	o.rateLimits.set = false
	if err := cli.ParseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, serveUsage)
			cli.PrintFlagGroups(stdout, fs, envPrefix, serveGroups)
			return nil, 0, false
		}
		return bad(err)
	}
	if fs.NArg() > 0 {
		return bad(fmt.Errorf("serve takes no arguments, got %q", fs.Arg(0)))
	}
	o.cfg.AllowNetworks = o.networks.list
	o.cfg.MCPCommands = o.commands.list
	o.cfg.HTTP.CORSOrigins = o.corsOrigins.list
	weights, err := parseWeights(o.fairnessWeights)
	if err != nil {
		return bad(err)
	}
	o.cfg.FairnessWeights = weights
	for _, v := range o.rateLimits.list {
		rule, err := ratelimit.ParseRule(v)
		if err != nil {
			return bad(fmt.Errorf("--model-rate-limit: %w", err))
		}
		o.cfg.RateLimits.Rules = append(o.cfg.RateLimits.Rules, rule)
	}
	return o, 0, true
}

func serve(args []string) int {
	o, code, ok := parseServe(args, os.Stdout, os.Stderr, cli.LookupEnv)
	if !ok {
		return code
	}
	log, logs, err := server.NewLogger(os.Stderr, o.logLevel, o.logFormat)
	if err != nil {
		fmt.Fprintf(os.Stderr, "runsvc serve: %v\n", err)
		return 2
	}
	defer logs.Close()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	srv, err := server.New(ctx, o.cfg, log)
	if err != nil {
		return startFailed(log, err)
	}
	if err := srv.Serve(ctx); err != nil {
		log.Error("runsvc stopped with an error", "err", err)
		return 1
	}
	return 0
}

// networkList is the repeatable --allow-network flag; each value may hold
// several networks separated by commas. The first use on the command line
// replaces the environment's list.
type networkList struct {
	list []string
	set  bool
}

// String implements flag.Value.
func (l *networkList) String() string { return strings.Join(l.list, ",") }

// Get implements flag.Getter: the networks, in order.
func (l *networkList) Get() any { return l.list }

// Set implements flag.Value.
func (l *networkList) Set(v string) error {
	if !l.set {
		l.list, l.set = nil, true
	}
	for _, n := range strings.Split(v, ",") {
		if n = strings.TrimSpace(n); n != "" {
			l.list = append(l.list, n)
		}
	}
	return nil
}

// parseWeights reads --fairness-weights: KEY=WEIGHT pairs separated by
// commas, each weight from 1 to 1000; nil when v is empty.
func parseWeights(v string) (map[string]int, error) {
	var out map[string]int
	for _, pair := range strings.Split(v, ",") {
		if pair = strings.TrimSpace(pair); pair == "" {
			continue
		}
		key, weight, ok := strings.Cut(pair, "=")
		w, err := strconv.Atoi(weight)
		if !ok || key == "" || err != nil || w < 1 || w > 1000 {
			return nil, fmt.Errorf("--fairness-weights: %q is not KEY=WEIGHT with a weight from 1 to 1000", pair)
		}
		if out == nil {
			out = map[string]int{}
		}
		out[key] = w
	}
	return out, nil
}
