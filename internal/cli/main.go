// Package cli is the runsvc command-line client: `runsvc spec ...` and
// `runsvc run ...`. It talks to a running runsvc over gRPC, prints readable
// text on a terminal or protojson with --json, and turns every failure into
// one line on stderr and an exit code a script can act on.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"google.golang.org/grpc"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// Exit codes of Main.
const (
	// ExitOK means the command did what was asked.
	ExitOK = 0
	// ExitFailure means a non-retryable error, or a watched Run that did
	// not complete.
	ExitFailure = 1
	// ExitUsage means the command line or an input file was wrong; nothing
	// was sent.
	ExitUsage = 2
	// ExitTempFail (EX_TEMPFAIL) means a retryable error: trying the same
	// command again later may succeed.
	ExitTempFail = 75
	// ExitInterrupted means the command was stopped by SIGINT or SIGTERM.
	ExitInterrupted = 130
)

// DefaultAddr is the address dialled when neither --addr nor RUNSVC_ADDR
// is set.
const DefaultAddr = "127.0.0.1:50051"

// Main runs one client command. args are the command line without the
// program name, e.g. ["run", "get", "run_x"]. It returns the process's exit
// code: ExitOK, ExitFailure, ExitUsage, ExitTempFail or ExitInterrupted.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := newApp(stdin, stdout, stderr)
	a.terminal = isTerminal(stdout)
	return a.exit(ctx, a.main(ctx, args))
}

// app is one invocation of the client.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// terminal is true when stdout is a TTY: progress is then one
	// updating status line.
	terminal bool

	addr    string
	addrSet bool // --addr was given, so suggested commands repeat it
	json    bool
	timeout time.Duration
	sec     clientSecurity // TLS and API key (security.go)

	cmd   string  // "run resume", for usage hints
	entry command // the command running
	conn  *grpc.ClientConn
	specs runsvcv1.SpecServiceClient
	runs  runsvcv1.RunServiceClient
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	addr := DefaultAddr
	if v := os.Getenv("RUNSVC_ADDR"); v != "" {
		addr = v
	}
	return &app{stdin: stdin, stdout: stdout, stderr: stderr, addr: addr, timeout: 30 * time.Second, sec: securityFromEnv()}
}

// command is one leaf of the command tree.
type command struct {
	args    string // positional arguments, for the usage line
	summary string
	run     func(a *app, ctx context.Context, args []string) error
}

var commands = map[string]map[string]command{
	"spec": {
		"publish": {"FILE", "publish a Spec from a .yaml, .yml or .json file (- for stdin)", (*app).specPublish},
		"get":     {"NAME", "print a Spec as YAML", (*app).specGet},
		"list":    {"[NAME]", "list the newest Version of every Spec, or every Version of NAME", (*app).specList},
		"alias":   {"set|move|get|list|delete|history SPEC [ALIAS]", "name Versions: prod, canary...; move (audited, --canary V --percent N to split, --if-eval to gate), read, delete", (*app).specAlias},
		"rollout": {"SPEC@ALIAS", "compare an alias's Versions from the store's Runs: outcomes, reasons, tokens, cost, latency", (*app).specRollout},
		"eval":    {"COMMAND ...", "replay evaluation of a candidate Version: start, get, list, check, delete", (*app).specEval},
	},
	"run": {
		"start":     {"SPEC", "start a Run of a Spec and print its id", (*app).runStart},
		"watch":     {"RUN_ID", "follow a Run live until it settles", (*app).runWatch},
		"resume":    {"RUN_ID", "answer a suspended Run: tool results, an answer or an approval", (*app).runResume},
		"interrupt": {"RUN_ID", "stop a Run", (*app).runInterrupt},
		"get":       {"RUN_ID", "show a Run", (*app).runGet},
		"wait":      {"RUN_ID", "wait until a Run settles or suspends, then show it", (*app).runWait},
		"list":      {"", "list Runs, newest first", (*app).runList},
		"send":      {"RUN_ID TEXT", "send a Run a message: steer its next model call, or a follow-up after its answer", (*app).runSend},
		"report":    {"RUN_ID", "show a Run's outcome: answer or failure, every tool call, duration", (*app).runReport},
		"delete":    {"RUN_ID", "delete a settled Run for good (--interrupt for an active one, --spec for every Run of a Spec)", (*app).runDelete},
		"export":    {"RUN_ID", "write a Run's whole log with its Spec Version as JSON Lines (docs/export.md)", (*app).runExport},
		"import":    {"FILE", "read an export (- for stdin) into this server as a settled, read-only Run", (*app).runImport},
		"fork":      {"RUN_ID", "start a Run from another Run's state at a turn boundary (--turn or --at-seq)", (*app).runFork},
	},
	"tool":     toolCommands,
	"delegate": delegateCommands,
	"memory":   memoryCommands,
	"bus":      busCommands,
	"thread":   threadCommands,
	"schedule": scheduleCommands,
	"webhook":  webhookCommands,
}

var groupSummary = map[string]string{
	"spec":     "publish and read Specs, name Versions with aliases and compare canaries",
	"run":      "start, watch, resume, interrupt and read Runs",
	"tool":     "list, invoke and serve tools",
	"delegate": "start a child Run of a delegate Spec and await it",
	"memory":   "read, write and watch the memory Runs share",
	"bus":      "send and receive messages between Runs",
	"thread":   "list and show threads: conversations of Runs",
	"schedule": "create, list, pause, resume, delete and trigger schedules that start Runs",
	"webhook":  "subscribe URLs to Run events, signed per Standard Webhooks; deliveries, dead letters, redelivery",
}

func (a *app) main(ctx context.Context, args []string) error {
	args, err := a.parseGlobal(args, a.topUsage)
	if err != nil || args == nil {
		return err
	}
	if args[0] == "errors" {
		return a.errorsCmd(args[1:])
	}
	group, ok := commands[args[0]]
	if !ok {
		return unknownCommand("", args[0])
	}
	a.cmd = args[0]
	usage := func() string { return a.groupUsage(a.cmd) }
	if args, err = a.parseGlobal(args[1:], usage); err != nil || args == nil {
		if err == nil {
			return usagef("%s needs a command: %s", a.cmd, strings.Join(sortedKeys(group), ", "))
		}
		return err
	}
	if args[0] == "help" {
		fmt.Fprint(a.stdout, usage())
		return nil
	}
	cmd, ok := group[args[0]]
	if !ok {
		return unknownCommand(a.cmd, args[0])
	}
	a.cmd, a.entry = a.cmd+" "+args[0], cmd
	defer a.close()
	return cmd.run(a, ctx, args[1:])
}

// parseGlobal parses global flags up to the next word, printing usage for
// -h. It returns the arguments from that word on, nil when there are none
// or help was printed.
func (a *app) parseGlobal(args []string, usage func() string) ([]string, error) {
	fs := flag.NewFlagSet("runsvc", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	a.globalFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(a.stdout, usage())
			return nil, errHelp
		}
		return nil, flagError(fs, err)
	}
	if fs.NArg() == 0 {
		if a.cmd == "" {
			return nil, usagef("a command is required: %s", strings.Join(topGroups, ", "))
		}
		return nil, nil
	}
	return fs.Args(), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (a *app) topUsage() string {
	var b strings.Builder
	b.WriteString("Usage: runsvc [--addr HOST:PORT] [--json] [--timeout D] <GROUP> COMMAND ...\n\n")
	for _, g := range topGroups {
		fmt.Fprintf(&b, "  runsvc %-10s %s\n", g, groupSummary[g])
	}
	b.WriteString("\nRun \"runsvc GROUP -h\" for a group's commands, e.g. \"runsvc run -h\".\n")
	return b.String()
}

func (a *app) groupUsage(group string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: runsvc %s COMMAND [flags]\n\n%s:\n", group, groupSummary[group])
	for _, n := range sortedKeys(commands[group]) {
		c := commands[group][n]
		fmt.Fprintf(&b, "  %-28s %s\n", strings.TrimSpace(n+" "+c.args), c.summary)
	}
	fmt.Fprintf(&b, "\nRun \"runsvc %s COMMAND -h\" for a command's flags.\n", group)
	return b.String()
}

// suggestion is a runsvc command line to show the user, repeating --addr
// when it was given.
func (a *app) suggestion(args string) string {
	if a.addrSet {
		return "runsvc --addr " + shellQuote(a.addr) + " " + args
	}
	return "runsvc " + args
}

func (a *app) close() {
	if a.conn != nil {
		_ = a.conn.Close()
	}
}
