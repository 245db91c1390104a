package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/durationpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

var memoryCommands = map[string]command{
	"get":   {"KEY [KEY...]", "print keys' values; --wait blocks until missing keys are set", (*app).memoryGet},
	"set":   {"KEY VALUE", "set a key; VALUE is JSON, or text when it is not valid JSON", (*app).memorySet},
	"watch": {"PATTERN [PATTERN...]", "print every change of the keys matching a PATTERN (* matches any run of characters)", (*app).memoryWatch},
}

// scopeFlags registers --run and --namespace, of which a memory command
// needs exactly one, and returns a function giving the scope.
func scopeFlags(fs *flag.FlagSet) func() (*runsvcv1.MemoryScope, error) {
	run := fs.String("run", "", "the memory of the family of Runs of this `RUN_ID`")
	ns := fs.String("namespace", "", "the memory of this `NAMESPACE`")
	return func() (*runsvcv1.MemoryScope, error) {
		switch {
		case *run != "" && *ns != "":
			return nil, usagef("give --run or --namespace, not both")
		case *run != "":
			return &runsvcv1.MemoryScope{Scope: &runsvcv1.MemoryScope_RunId{RunId: *run}}, nil
		case *ns != "":
			return &runsvcv1.MemoryScope{Scope: &runsvcv1.MemoryScope_Namespace{Namespace: *ns}}, nil
		}
		return nil, usagef("name the memory with --run RUN_ID or --namespace NAMESPACE")
	}
}

func (a *app) memorySet(ctx context.Context, args []string) error {
	fs := a.flags()
	scope := scopeFlags(fs)
	text := fs.Bool("text", false, "take VALUE as text even when it is valid JSON")
	pos, err := a.parse(fs, args, 2, 2)
	if err != nil {
		return err
	}
	sc, err := scope()
	if err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	mem := runsvcv1.NewMemoryServiceClient(a.conn)
	resp, err := unary(ctx, a, 0, mem.SetValue, &runsvcv1.SetValueRequest{Scope: sc, Key: pos[0], Value: jsonOrText(pos[1], *text)})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	fmt.Fprintf(a.stdout, "set %s (version %d)\n", resp.GetEntry().GetKey(), resp.GetEntry().GetVersion())
	return nil
}

func (a *app) memoryGet(ctx context.Context, args []string) error {
	fs := a.flags()
	scope := scopeFlags(fs)
	wait := fs.Duration("wait", 0, "wait up to this `DURATION` for each missing key, then fail AWAIT_TIMEOUT")
	pos, err := a.parse(fs, args, 1, 1<<20)
	if err != nil {
		return err
	}
	if *wait < 0 {
		return usagef("--wait must not be negative")
	}
	sc, err := scope()
	if err != nil {
		return err
	}
	req := &runsvcv1.GetValueRequest{Scope: sc, Keys: pos}
	if *wait > 0 {
		req.Wait = durationpb.New(*wait)
	}
	if err := a.connect(); err != nil {
		return err
	}
	mem := runsvcv1.NewMemoryServiceClient(a.conn)
	resp, err := unary(ctx, a, time.Duration(len(pos))**wait, mem.GetValue, req)
	if err != nil {
		return err
	}
	found := map[string]*runsvcv1.MemoryEntry{}
	for _, e := range resp.GetEntries() {
		found[e.GetKey()] = e
	}
	if a.json {
		if err := a.printJSON(resp); err != nil {
			return err
		}
		pos = nil // printed; only the exit code is left
	}
	for _, k := range pos {
		e, ok := found[k]
		switch {
		case !ok:
			fmt.Fprintf(a.stdout, "%s is not set\n", k)
		case len(pos) == 1:
			fmt.Fprintln(a.stdout, compactJSON(e.GetValue()))
		default:
			fmt.Fprintf(a.stdout, "%s = %s\n", k, compactJSON(e.GetValue()))
		}
	}
	if len(found) < len(req.GetKeys()) {
		return exitCode(ExitFailure)
	}
	return nil
}

func (a *app) memoryWatch(ctx context.Context, args []string) error {
	fs := a.flags()
	scope := scopeFlags(fs)
	existing := fs.Bool("existing", false, "first print the keys that are already set")
	count := fs.Int("count", 0, "stop after `N` changes; 0 means go on until interrupted")
	pos, err := a.parse(fs, args, 1, 1<<20)
	if err != nil {
		return err
	}
	if *count < 0 {
		return usagef("--count must not be negative")
	}
	sc, err := scope()
	if err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := runsvcv1.NewMemoryServiceClient(a.conn).WatchMemory(sctx, &runsvcv1.WatchMemoryRequest{Scope: sc, Patterns: pos, IncludeExisting: *existing})
	if err != nil {
		return err
	}
	for n := 0; *count == 0 || n < *count; n++ {
		resp, err := stream.Recv()
		if err != nil {
			return streamEnded(ctx, "memory watch", err)
		}
		if a.json {
			if err := a.printJSON(resp); err != nil {
				return err
			}
			continue
		}
		e := resp.GetEntry()
		fmt.Fprintf(a.stdout, "%s %s = %s (version %d)\n", clockTime(e.GetUpdateTime()), e.GetKey(), compactJSON(e.GetValue()), e.GetVersion())
	}
	return nil
}

// streamEnded is the error of a stream that ended before the command was
// done: the caller's interrupt, the server's error, or an end the client
// did not ask for.
func streamEnded(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, io.EOF) {
		return &clientError{code: codes.Unavailable, retryable: true, msg: "the " + what + " stream ended early"}
	}
	return err
}
