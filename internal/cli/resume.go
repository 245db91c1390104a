package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

func (a *app) runResume(ctx context.Context, args []string) error {
	fs := a.flags()
	results := fs.String("results", "", "tool results: a JSON `FILE` (- for stdin), or the JSON itself when it starts with [ or {")
	answer := fs.String("answer", "", "answer the Run's question with `TEXT`")
	approve := fs.Bool("approve", false, "approve the tool call waiting for approval (or, with --budget-limit, the budget the Run asks to exceed)")
	budgetLimit := fs.Float64("budget-limit", 0, "with --approve of a budget: its new `LIMIT` (tokens, dollars or tool rounds), covering what was spent and what the next step reserves")
	deny := fs.Bool("deny", false, "deny the tool call waiting for approval; the model is told")
	note := fs.String("note", "", "with --deny: a `TEXT` the model is given")
	inDoubt := fs.String("in-doubt", "", "what became of the tool call in doubt, an `OUTCOME`: happened, did_not_happen (runsvc makes it now) or skip")
	output := fs.String("output", "", "with --in-doubt happened: the call's result, a `JSON` value")
	wake := fs.Bool("wake", false, "wake a Run sleeping on a timer now")
	var w watchFlags
	watch := fs.Bool("watch", false, "then follow the Run like \"run watch\"")
	fs.BoolVar(&w.untilSuspended, "until-suspended", false, "with --watch: stop when the Run suspends again too")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	req := &runsvcv1.ResumeRunRequest{RunId: pos[0], Answer: *answer, Note: *note}
	given := 0
	for _, set := range []bool{*results != "", *answer != "", *approve, *deny, *inDoubt != "", *wake} {
		if set {
			given++
		}
	}
	switch {
	case given != 1:
		return usagef("give exactly one of --results, --answer, --approve, --deny or --in-doubt")
	case *output != "" && *inDoubt != "happened":
		return usagef("--output goes with --in-doubt happened")
	case *note != "" && !*deny:
		return usagef("--note goes with --deny")
	case *budgetLimit != 0 && !*approve:
		return usagef("--budget-limit goes with --approve")
	case w.untilSuspended && !*watch:
		return usagef("--until-suspended needs --watch")
	case *approve:
		req.Approved = ptr(true)
		if *budgetLimit != 0 {
			req.BudgetLimit = budgetLimit
		}
	case *deny:
		req.Approved = ptr(false)
	case *inDoubt != "":
		if req.InDoubt, err = inDoubtAnswer(*inDoubt, *output); err != nil {
			return err
		}
	case *results != "":
		data := []byte(*results)
		if t := strings.TrimSpace(*results); !strings.HasPrefix(t, "[") && !strings.HasPrefix(t, "{") {
			if data, err = a.readInput(*results); err != nil {
				return err
			}
		}
		if req.ToolResults, err = parseResults(data); err != nil {
			return usagef("--results %s: %v", *results, err)
		}
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, 0, a.runs.ResumeRun, req)
	if err != nil {
		return err
	}
	r := resp.GetRun()
	if a.json {
		if err := a.printJSON(resp); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(a.stdout, "resumed run %s: it is %s\n", r.GetRunId(), stateName(r.GetState()))
	}
	if !*watch {
		return nil
	}
	return a.watch(ctx, r.GetRunId(), r.GetLastSeq(), w)
}

func ptr[T any](v T) *T { return &v }

// inDoubtAnswer reads --in-doubt and --output.
func inDoubtAnswer(outcome, output string) (*runsvcv1.InDoubtAnswer, error) {
	o, ok := map[string]runsvcv1.InDoubtOutcome{
		"happened":       runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_HAPPENED,
		"did_not_happen": runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_DID_NOT_HAPPEN,
		"skip":           runsvcv1.InDoubtOutcome_IN_DOUBT_OUTCOME_SKIP,
	}[outcome]
	if !ok {
		return nil, usagef("--in-doubt %s: use happened, did_not_happen or skip", outcome)
	}
	a := &runsvcv1.InDoubtAnswer{Outcome: o}
	if output != "" {
		v, err := jsonValue(json.RawMessage(output))
		if err != nil {
			return nil, usagef("--output: %v", err)
		}
		a.Output = v
	}
	return a, nil
}

// parseResults reads tool results: a JSON array of {"call_id": ...,
// "output": any} or {"call_id": ..., "error": {"message": ...,
// "retryable": bool}}, one such object alone, or an object mapping call
// ids to outputs.
func parseResults(data []byte) ([]*runsvcv1.ToolResult, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, fmt.Errorf("no results")
	}
	if data[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal(data, &items); err != nil {
			return nil, fmt.Errorf("not a JSON array of results: %v", err)
		}
		if len(items) == 0 {
			return nil, fmt.Errorf("the array holds no results")
		}
		out := make([]*runsvcv1.ToolResult, 0, len(items))
		for i, item := range items {
			r, err := parseResult(item)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %v", i, err)
			}
			out = append(out, r)
		}
		return out, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("not a JSON array or object of results: %v", err)
	}
	_, snake := obj["call_id"]
	_, camel := obj["callId"]
	if snake || camel {
		r, err := parseResult(data)
		if err != nil {
			return nil, err
		}
		return []*runsvcv1.ToolResult{r}, nil
	}
	if len(obj) == 0 {
		return nil, fmt.Errorf("the object holds no results")
	}
	ids := make([]string, 0, len(obj))
	for id := range obj {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]*runsvcv1.ToolResult, 0, len(ids))
	for _, id := range ids {
		v, err := jsonValue(obj[id])
		if err != nil {
			return nil, fmt.Errorf("%s: %v", id, err)
		}
		out = append(out, &runsvcv1.ToolResult{CallId: id, Output: v})
	}
	return out, nil
}

// parseResult reads one {"call_id", "output" | "error"} object.
func parseResult(data []byte) (*runsvcv1.ToolResult, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fmt.Errorf("a result must be an object with call_id and output or error")
	}
	r := &runsvcv1.ToolResult{}
	var hasOutput bool
	for k, raw := range fields {
		switch k {
		case "call_id", "callId":
			if err := json.Unmarshal(raw, &r.CallId); err != nil || r.CallId == "" {
				return nil, fmt.Errorf("%s must be a non-empty string", k)
			}
		case "output":
			v, err := jsonValue(raw)
			if err != nil {
				return nil, fmt.Errorf("output: %v", err)
			}
			r.Output, hasOutput = v, true
		case "error":
			var e struct {
				Message   string `json:"message"`
				Retryable bool   `json:"retryable"`
			}
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&e); err != nil {
				return nil, fmt.Errorf(`error must be {"message": string, "retryable": bool}: %v`, err)
			}
			r.Error = &runsvcv1.ToolError{Message: e.Message, Retryable: e.Retryable}
		default:
			return nil, fmt.Errorf("unknown field %q: use call_id, output and error", k)
		}
	}
	switch {
	case r.CallId == "":
		return nil, fmt.Errorf("call_id is required")
	case hasOutput && r.Error != nil:
		return nil, fmt.Errorf("%s: give output or error, not both", r.CallId)
	case !hasOutput && r.Error == nil:
		return nil, fmt.Errorf("%s: output or error is required", r.CallId)
	}
	return r, nil
}

func jsonValue(raw json.RawMessage) (*structpb.Value, error) {
	v := &structpb.Value{}
	if err := protojson.Unmarshal(raw, v); err != nil {
		return nil, fmt.Errorf("%s", protojsonProblem(err))
	}
	return v, nil
}
