package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

var toolCommands = map[string]command{
	"list":   {"", "list the tools runsvc can call: built-ins, connected workers' and a Spec's", (*app).toolList},
	"invoke": {"TOOL", "run one tool directly and print its output", (*app).toolInvoke},
	"serve":  {"TOOL", "serve a tool to Runs and tool invoke by running a shell command for each call", (*app).toolServe},
}

func (a *app) toolList(ctx context.Context, args []string) error {
	fs := a.flags()
	spec := fs.String("spec", "", "also list the tools of this `SPEC`")
	version := fs.String("version", "", "with --spec: the Spec `VERSION`; the newest when empty")
	if _, err := a.parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *version != "" && *spec == "" {
		return usagef("--version needs --spec")
	}
	if err := a.connect(); err != nil {
		return err
	}
	tools := runsvcv1.NewToolServiceClient(a.conn)
	resp, err := unary(ctx, a, 0, tools.ListTools, &runsvcv1.ListToolsRequest{Spec: *spec, Version: *version})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tKIND\tWORKERS\tDESCRIPTION")
	for _, t := range resp.GetTools() {
		workers := "-"
		if t.GetKind() == runsvcv1.ToolKind_TOOL_KIND_WORKER {
			workers = fmt.Sprint(t.GetWorkers())
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.GetName(), strings.ToLower(strings.TrimPrefix(t.GetKind().String(), "TOOL_KIND_")),
			workers, clip(strings.Join(strings.Fields(t.GetDescription()), " "), 60))
	}
	return tw.Flush()
}

func (a *app) toolInvoke(ctx context.Context, args []string) error {
	fs := a.flags()
	argsJSON := fs.String("args", "{}", "the arguments, a JSON object `TEXT`; - reads it from stdin, @FILE from a file")
	spec := fs.String("spec", "", "run the tool as this `SPEC` declares it")
	version := fs.String("version", "", "with --spec: the Spec `VERSION`; the newest when empty")
	toolTimeout := fs.Duration("tool-timeout", 0, "how long the tool may take, a `DURATION`; the server's default when 0")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if *version != "" && *spec == "" {
		return usagef("--version needs --spec")
	}
	if *toolTimeout < 0 {
		return usagef("--tool-timeout must not be negative")
	}
	arguments, err := a.toolArguments(*argsJSON)
	if err != nil {
		return err
	}
	req := &runsvcv1.InvokeToolRequest{Name: pos[0], Arguments: arguments, Spec: *spec, Version: *version}
	if *toolTimeout > 0 {
		req.Timeout = durationpb.New(*toolTimeout)
	}
	if err := a.connect(); err != nil {
		return err
	}
	tools := runsvcv1.NewToolServiceClient(a.conn)
	resp, err := unary(ctx, a, *toolTimeout, tools.InvokeTool, req)
	if err != nil {
		return err
	}
	if a.json {
		if err := a.printJSON(resp); err != nil {
			return err
		}
	}
	if e := resp.GetError(); e != nil {
		// A tool's failure is its result, not an RPC error, but for a
		// person and a script it is this command failing.
		return status.ErrorProto(e)
	}
	if !a.json {
		fmt.Fprintln(a.stdout, compactJSON(resp.GetOutput()))
	}
	return nil
}

// toolArguments reads --args: a JSON object given inline, from stdin
// ("-") or from a file ("@FILE").
func (a *app) toolArguments(arg string) (*structpb.Struct, error) {
	data := []byte(arg)
	switch {
	case arg == "-":
		b, err := a.readInput("-")
		if err != nil {
			return nil, err
		}
		data = b
	case strings.HasPrefix(arg, "@"):
		b, err := a.readInput(strings.TrimPrefix(arg, "@"))
		if err != nil {
			return nil, err
		}
		data = b
	}
	if !json.Valid(data) || !strings.HasPrefix(strings.TrimSpace(string(data)), "{") {
		return nil, usagef("--args must be a JSON object, such as '{\"key\": \"k\"}'")
	}
	s := &structpb.Struct{}
	if err := protojson.Unmarshal(data, s); err != nil {
		return nil, usagef("--args: %s", protojsonProblem(err))
	}
	return s, nil
}

// jsonOrText is a command-line value as a JSON value: the argument parsed
// as JSON when it is valid JSON and text is false, else the argument as a
// string.
func jsonOrText(arg string, text bool) *structpb.Value {
	if !text && json.Valid([]byte(arg)) {
		if v, err := jsonValue(json.RawMessage(arg)); err == nil {
			return v
		}
	}
	return structpb.NewStringValue(arg)
}
