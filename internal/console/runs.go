package console

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// listPageSize is how many Runs a page of the list shows.
const listPageSize = 50

// countCap bounds how many Runs of one state the counts page through
// (two pages of ListRuns); past it a count reads "1000+".
const countCap = 1000

// countEvery is how often the live counts are sent.
const countEvery = 3 * time.Second

// states are the states the list filters and counts by, in lifecycle order.
var states = []runsvcv1.RunState{
	runsvcv1.RunState_RUN_STATE_QUEUED, runsvcv1.RunState_RUN_STATE_RUNNING, runsvcv1.RunState_RUN_STATE_SUSPENDED,
	runsvcv1.RunState_RUN_STATE_COMPLETED, runsvcv1.RunState_RUN_STATE_FAILED, runsvcv1.RunState_RUN_STATE_ABORTED,
	runsvcv1.RunState_RUN_STATE_ABANDONED,
}

// runsView is the Runs list's data.
type runsView struct {
	State, Spec, Since, Until string
	Thread                    string
	States                    []string
	Counts                    []count
	Runs                      []*runsvcv1.Run
	Next                      string
	Filtered                  int // Runs of the page the time filter hid
}

// count is one state's number of Runs, "1000+" past the cap.
type count struct{ State, N string }

// filter is the list's query: state, Spec, thread and a creation-time
// window.
type filter struct {
	state        runsvcv1.RunState
	spec, thread string
	since, until time.Time
}

// parseFilter reads the query; a bad value is a sentence for the page.
func parseFilter(r *http.Request) (filter, runsView, error) {
	q := r.URL.Query()
	v := runsView{State: q.Get("state"), Spec: q.Get("spec"), Thread: q.Get("thread"), Since: q.Get("since"), Until: q.Get("until")}
	for _, s := range states {
		v.States = append(v.States, strings.TrimPrefix(s.String(), "RUN_STATE_"))
	}
	f := filter{spec: v.Spec, thread: v.Thread}
	if v.State != "" {
		n, ok := runsvcv1.RunState_value["RUN_STATE_"+v.State]
		if !ok {
			return f, v, fmt.Errorf("state %q is none of %s", v.State, strings.Join(v.States, ", "))
		}
		f.state = runsvcv1.RunState(n)
	}
	var err error
	if f.since, err = parseTime(v.Since); err != nil {
		return f, v, fmt.Errorf("since: %w", err)
	}
	if f.until, err = parseTime(v.Until); err != nil {
		return f, v, fmt.Errorf("until: %w", err)
	}
	return f, v, nil
}

// parseTime reads a datetime-local value (UTC) or RFC 3339; empty is zero.
func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time like 2026-12-01T21:00", s)
}

// runsPage is the Runs list: one page of ListRuns, filtered, with counts.
// A thread's Runs come oldest first, as ListRuns returns them.
func (c *Console) runsPage(w http.ResponseWriter, r *http.Request, s *session) {
	f, v, err := parseFilter(r)
	if err != nil {
		c.problem(w, r, s, http.StatusBadRequest, "Bad filter", err.Error())
		return
	}
	ctx, cancel := callCtx(r, s)
	defer cancel()
	req := &runsvcv1.ListRunsRequest{Spec: f.spec, ThreadId: f.thread, PageSize: listPageSize, PageToken: r.URL.Query().Get("page")}
	if f.state != runsvcv1.RunState_RUN_STATE_UNSPECIFIED {
		req.States = []runsvcv1.RunState{f.state}
	}
	resp, err := c.runs.ListRuns(ctx, req)
	if err != nil {
		c.rpcError(w, r, s, err)
		return
	}
	for _, run := range resp.GetRuns() {
		t := run.GetCreateTime().AsTime()
		if (!f.since.IsZero() && t.Before(f.since)) || (!f.until.IsZero() && t.After(f.until)) {
			v.Filtered++
			continue
		}
		v.Runs = append(v.Runs, run)
	}
	if tok := resp.GetNextPageToken(); tok != "" {
		q := r.URL.Query()
		q.Set("page", tok)
		v.Next = "/runs?" + q.Encode()
	}
	if v.Counts, err = c.counts(ctx, f.spec, f.thread); err != nil {
		c.rpcError(w, r, s, err)
		return
	}
	c.render(w, r, s, http.StatusOK, "runs.html", "Runs", v)
}

// counts counts the Runs in each state, of one Spec when spec is set and
// of one thread when thread is.
func (c *Console) counts(ctx context.Context, spec, thread string) ([]count, error) {
	out := make([]count, 0, len(states))
	for _, st := range states {
		n, tok := 0, ""
		for {
			resp, err := c.runs.ListRuns(ctx, &runsvcv1.ListRunsRequest{States: []runsvcv1.RunState{st}, Spec: spec, ThreadId: thread, PageSize: 500, PageToken: tok})
			if err != nil {
				return nil, err
			}
			n += len(resp.GetRuns())
			tok = resp.GetNextPageToken()
			if tok == "" || n >= countCap {
				break
			}
		}
		label := fmt.Sprint(n)
		if tok != "" {
			label += "+"
		}
		out = append(out, count{State: strings.TrimPrefix(st.String(), "RUN_STATE_"), N: label})
	}
	return out, nil
}

// countEvents streams the counts as server-sent events, every few seconds,
// until the page goes away.
func (c *Console) countEvents(w http.ResponseWriter, r *http.Request, s *session) {
	flush, ok := startEvents(w)
	if !ok {
		return
	}
	ctx := withKey(r.Context(), s)
	spec, thread := r.URL.Query().Get("spec"), r.URL.Query().Get("thread")
	for {
		counts, err := c.counts(ctx, spec, thread)
		if err != nil {
			return
		}
		m := map[string]string{}
		for _, ct := range counts {
			m[ct.State] = ct.N
		}
		b, _ := json.Marshal(m)
		if writeEvent(w, "counts", b) != nil {
			return
		}
		flush()
		select {
		case <-ctx.Done():
			return
		case <-c.cfg.Clock.After(countEvery):
		}
	}
}

// outcomeMax bounds how much of an answer or failure message the list
// shows.
const outcomeMax = 120

// outcomeView is a settled Run's result in one line of the list: the
// failure's reason (for its catalogue link) and a sentence.
type outcomeView struct{ Reason, Text string }

// outcome is what a settled Run came to: its answer, or its failure's
// reason and message, or its abort cause; nil while it is not settled.
func outcome(run *runsvcv1.Run) *outcomeView {
	if run.GetSettleTime() == nil {
		return nil
	}
	out := &outcomeView{}
	if f := failureOf(run.GetFailure()); f != nil {
		out.Reason, out.Text = f.Reason, f.Message
	}
	switch run.GetState() {
	case runsvcv1.RunState_RUN_STATE_COMPLETED:
		out.Text = "answered: " + run.GetAnswer()
	case runsvcv1.RunState_RUN_STATE_ABORTED:
		if c := run.GetAbortCause(); c != runsvcv1.AbortCause_ABORT_CAUSE_UNSPECIFIED && out.Text == "" {
			out.Text = "aborted: " + strings.ToLower(strings.TrimPrefix(c.String(), "ABORT_CAUSE_"))
		}
	}
	out.Text = clip(out.Text, outcomeMax)
	return out
}

// clip cuts s to at most n runes, marking the cut with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
