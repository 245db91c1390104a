package evaluation

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/runsvc/runsvc/internal/runlog"
	"github.com/runsvc/runsvc/internal/runs"
	"github.com/runsvc/runsvc/internal/schema"
)

// score runs the evaluation's evaluators on a settled replay (exact match
// when it names none) and sets the Run's score, their mean.
func (s *Service) score(ctx context.Context, tenant string, ev Evaluation, i int, it Item, run runs.Run, rep *RunReport) error {
	evaluators := ev.Evaluators
	if len(evaluators) == 0 {
		evaluators = []Evaluator{{Kind: KindExact}}
	}
	recorded, candidate := answers(it, run)
	total := 0.0
	for k, e := range evaluators {
		var sc Score
		if e.Kind == KindLLMJudge {
			var err error
			if sc, err = s.judge(ctx, tenant, ev, i, k, e, it, candidate); err != nil {
				return err
			}
			rep.judging = rep.judging || sc.JudgeRunID != "" && sc.Detail == judging
		} else {
			sc = e.compare(recorded, candidate)
		}
		sc.Evaluator = e.Label()
		rep.Scores = append(rep.Scores, sc)
		total += sc.Score
	}
	rep.Score = total / float64(len(evaluators))
	return nil
}

// compare scores candidate against recorded by e, any kind but the
// judge.
func (e Evaluator) compare(recorded, candidate string) Score {
	yes := func(ok bool, detail string) Score {
		if ok {
			return Score{Score: 1}
		}
		return Score{Detail: detail}
	}
	switch e.Kind {
	case KindExact:
		return yes(recorded == candidate, "the answers differ")
	case KindRegex:
		re, err := regexp.Compile(e.Pattern)
		return yes(err == nil && re.MatchString(candidate), "the answer does not match "+e.Pattern)
	case KindJSONSchema:
		return schemaScore(e.Schema, candidate)
	case KindJSONPath:
		a, errA := valueAt(recorded, e.Path)
		b, errB := valueAt(candidate, e.Path)
		if err := errors.Join(errA, errB); err != nil {
			return Score{Detail: err.Error()}
		}
		return yes(bytes.Equal(a, b), fmt.Sprintf("%s is %s, recorded %s", e.Path, b, a))
	}
	return Score{Detail: "unknown evaluator kind " + e.Kind}
}

func schemaScore(raw json.RawMessage, candidate string) Score {
	sch, problems := schema.Compile(raw)
	if len(problems) > 0 {
		return Score{Detail: "the schema does not compile: " + problems[0].Message}
	}
	if !json.Valid([]byte(candidate)) {
		return Score{Detail: "the answer is not JSON"}
	}
	if problems := sch.Validate([]byte(candidate)); len(problems) > 0 {
		return Score{Detail: strings.TrimSpace(problems[0].Path + " " + problems[0].Message)}
	}
	return Score{Score: 1}
}

// pathStep is one step of a JSON path: a key, or an index when key is
// empty and index set.
type pathStep struct {
	key   string
	index int
	isIdx bool
}

var pathToken = regexp.MustCompile(`^(?:\.([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]|\['([^']*)'\])`)

// parsePath parses a JSON path of the form $.a.b[0]['c d'].
func parsePath(p string) ([]pathStep, error) {
	if !strings.HasPrefix(p, "$") {
		return nil, fmt.Errorf("%q must start with $", p)
	}
	rest := p[1:]
	var out []pathStep
	for rest != "" {
		m := pathToken.FindStringSubmatch(rest)
		if m == nil {
			return nil, fmt.Errorf("%q: cannot read %q: use .key, [index] or ['key']", p, rest)
		}
		switch {
		case m[2] != "":
			n, _ := strconv.Atoi(m[2])
			out = append(out, pathStep{index: n, isIdx: true})
		case m[1] != "":
			out = append(out, pathStep{key: m[1]})
		default:
			out = append(out, pathStep{key: m[3]})
		}
		rest = rest[len(m[0]):]
	}
	return out, nil
}

// valueAt is the canonical JSON of the value at path in answer.
func valueAt(answer, path string) ([]byte, error) {
	steps, err := parsePath(path)
	if err != nil {
		return nil, err
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(answer))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("an answer is not JSON")
	}
	for _, st := range steps {
		switch cur := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = cur[st.key]; !ok || st.isIdx {
				return nil, fmt.Errorf("an answer has nothing at %s", path)
			}
		case []any:
			if !st.isIdx || st.index >= len(cur) {
				return nil, fmt.Errorf("an answer has nothing at %s", path)
			}
			v = cur[st.index]
		default:
			return nil, fmt.Errorf("an answer has nothing at %s", path)
		}
	}
	b, _ := json.Marshal(v)
	return runlog.CanonicalJSON(b), nil
}
