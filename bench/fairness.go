package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/metadata"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
)

// The fairness phase's shape: tenants, the small ones' Runs each, the
// worker slots of each of the two replicas and how long a model call
// takes, so that the workers are saturated while the big tenant's Runs
// wait.
const (
	fairTenants    = 100
	fairSmallRuns  = 10
	fairSlots      = 16
	fairModelDelay = 100 * time.Millisecond
	fairStarters   = 64
)

// fairnessResult is the fairness phase: the small tenants' Runs' time
// from StartRun to their first model call, alone on the server and
// behind one tenant's burst, on PostgreSQL with two replicas.
type fairnessResult struct {
	BigRuns      int `json:"bigRuns"`
	SmallTenants int `json:"smallTenants"`
	SmallRuns    int `json:"smallRuns"`
	// BigBacklog is how many of the big tenant's Runs had not yet had a
	// model call when the small tenants started theirs.
	BigBacklog int `json:"bigBacklog"`
	// Alone is the small tenants' Runs with nobody else on the server;
	// Loaded the same Runs started right after the big tenant's burst.
	Alone  dist `json:"alone"`
	Loaded dist `json:"loaded"`
	// RatioP50 and RatioP99 are Loaded over Alone.
	RatioP50 float64 `json:"ratioP50"`
	RatioP99 float64 `json:"ratioP99"`
}

// firstCalls is an OpenAI-compatible model server on 127.0.0.1 that
// answers every call after a delay and notes when it first saw each
// input.
type firstCalls struct {
	srv   *http.Server
	url   string
	delay time.Duration
	mu    sync.Mutex
	first map[string]time.Time
}

func startFirstCalls(delay time.Duration) (*firstCalls, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	f := &firstCalls{url: "http://" + l.Addr().String() + "/v1", delay: delay, first: map[string]time.Time{}}
	f.srv = &http.Server{Handler: http.HandlerFunc(f.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = f.srv.Serve(l) }()
	return f, nil
}

func (f *firstCalls) serve(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	var body struct {
		Messages []struct {
			Content any `json:"content"`
		} `json:"messages"`
	}
	raw, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(raw, &body)
	for _, m := range body.Messages {
		if s, ok := m.Content.(string); ok && strings.HasPrefix(s, "fair ") {
			f.mu.Lock()
			if _, seen := f.first[s]; !seen {
				f.first[s] = at
			}
			f.mu.Unlock()
		}
	}
	select {
	case <-time.After(f.delay):
	case <-r.Context().Done():
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta, finish string) string {
		return `{"id":"f","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}`
	}
	for _, data := range []string{chunk(`{"role":"assistant","content":"ok"}`, "null"), chunk(`{}`, `"stop"`), "[DONE]"} {
		_, _ = fmt.Fprintf(w, "data: %s\n\n", data)
	}
}

// seen returns when the model first saw input, if it did.
func (f *firstCalls) seen(input string) (time.Time, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	at, ok := f.first[input]
	return at, ok
}

func (f *firstCalls) count(prefix string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for in := range f.first {
		if strings.HasPrefix(in, prefix) {
			n++
		}
	}
	return n
}

func (f *firstCalls) stop() { _ = f.srv.Close() }

// fairKeys writes a keys file of n tenants, tenant-000 on, each an admin
// with the API key key-NNN, and returns its path.
func fairKeys(dir string, n int) (string, error) {
	type entry struct {
		KeySHA256 string   `json:"key_sha256"`
		Tenant    string   `json:"tenant"`
		Roles     []string `json:"roles"`
	}
	var file struct {
		Identities []entry `json:"identities"`
	}
	for i := range n {
		sum := sha256.Sum256([]byte(fmt.Sprintf("key-%03d", i)))
		file.Identities = append(file.Identities, entry{KeySHA256: hex.EncodeToString(sum[:]), Tenant: fmt.Sprintf("tenant-%03d", i), Roles: []string{"admin"}})
	}
	b, err := json.Marshal(file)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "keys.json")
	return path, os.WriteFile(path, b, 0o600)
}

// asTenant is ctx carrying tenant i's API key.
func asTenant(ctx context.Context, i int) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", fmt.Sprintf("Bearer key-%03d", i))
}

// fairStart is a Run to start: its tenant and input.
type fairStart struct {
	tenant int
	input  string
}

// runFairness measures the small tenants' Runs alone, then behind the
// big tenant's burst, on two replicas sharing one PostgreSQL.
func runFairness(ctx context.Context, cfg config) (*fairnessResult, error) {
	pg, err := startPostgres(false)
	if err != nil {
		return nil, err
	}
	defer pg.stop()
	model, err := startFirstCalls(fairModelDelay)
	if err != nil {
		return nil, err
	}
	defer model.stop()
	keys, err := fairKeys(pg.dir, fairTenants)
	if err != nil {
		return nil, err
	}
	var replicas []*inproc
	defer func() {
		for _, r := range replicas {
			r.stop()
		}
	}()
	for i := range 2 {
		r, err := startInprocWith(pg.dsn(), func(c *server.Config) {
			c.Security.KeysFile, c.WorkerID, c.Engine.MaxConcurrent = keys, fmt.Sprintf("fair-%d", i), fairSlots
		})
		if err != nil {
			return nil, err
		}
		replicas = append(replicas, r)
	}
	return measureFairness(ctx, cfg, replicas, model)
}

// measureFairness publishes every tenant's Spec, then runs the two
// measurements.
func measureFairness(ctx context.Context, cfg config, replicas []*inproc, model *firstCalls) (*fairnessResult, error) {
	small := fairTenants - 1
	if cfg.fairBig < 10000 {
		small = 20
	}
	res := &fairnessResult{BigRuns: cfg.fairBig, SmallTenants: small, SmallRuns: small * fairSmallRuns}
	spec := &runsvcv1.Spec{Name: "fair", Model: &runsvcv1.ModelRef{Provider: "openai", Model: "bench", BaseUrl: model.url}}
	for i := range small + 1 {
		if _, err := replicas[0].specs.PublishSpec(asTenant(ctx, i), &runsvcv1.PublishSpecRequest{Spec: spec}); err != nil {
			return nil, fmt.Errorf("publishing tenant %d's Spec: %w", i, err)
		}
	}
	smallRuns := func(round string) []fairStart {
		var out []fairStart
		for t := 1; t <= small; t++ {
			for j := range fairSmallRuns {
				out = append(out, fairStart{tenant: t, input: fmt.Sprintf("fair %s %03d-%02d", round, t, j)})
			}
		}
		return out
	}
	progress("fairness: warming up with the small tenants' Runs")
	if _, err := timeToFirstCall(ctx, replicas, model, smallRuns("warm"), len(smallRuns("warm"))); err != nil {
		return nil, err
	}
	progress("fairness: %d small tenants' %d Runs alone", small, res.SmallRuns)
	alone, err := timeToFirstCall(ctx, replicas, model, smallRuns("alone"), len(smallRuns("alone")))
	if err != nil {
		return nil, err
	}
	res.Alone = distribution(alone)
	progress("fairness: tenant-000 starts %d Runs", cfg.fairBig)
	var big []fairStart
	for j := range cfg.fairBig {
		big = append(big, fairStart{tenant: 0, input: fmt.Sprintf("fair big %05d", j)})
	}
	if _, err := startAll(ctx, replicas, big, fairStarters); err != nil {
		return nil, err
	}
	res.BigBacklog = cfg.fairBig - model.count("fair big ")
	progress("fairness: %d of them wait; the small tenants start theirs", res.BigBacklog)
	loaded, err := timeToFirstCall(ctx, replicas, model, smallRuns("loaded"), len(smallRuns("loaded")))
	if err != nil {
		return nil, err
	}
	res.Loaded = distribution(loaded)
	if res.Alone.P50Ms > 0 && res.Alone.P99Ms > 0 {
		res.RatioP50, res.RatioP99 = res.Loaded.P50Ms/res.Alone.P50Ms, res.Loaded.P99Ms/res.Alone.P99Ms
	}
	return res, nil
}

// startAll starts every Run, through concurrency callers spread over the
// replicas, and returns when each StartRun call was made.
func startAll(ctx context.Context, replicas []*inproc, starts []fairStart, concurrency int) (map[string]time.Time, error) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	var firstErr error
	sent := make(map[string]time.Time, len(starts))
	slots := make(chan struct{}, concurrency)
	for i, s := range starts {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			at := time.Now()
			_, err := replicas[i%len(replicas)].runs.StartRun(asTenant(ctx, s.tenant), &runsvcv1.StartRunRequest{Spec: "fair", Input: s.input})
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = fmt.Errorf("StartRun of tenant %d: %w", s.tenant, err)
			}
			sent[s.input] = at
		}()
	}
	wg.Wait()
	return sent, firstErr
}

// timeToFirstCall starts the Runs all at once and returns each one's
// time from its StartRun call to the model's first sight of its input.
func timeToFirstCall(ctx context.Context, replicas []*inproc, model *firstCalls, starts []fairStart, concurrency int) ([]time.Duration, error) {
	sent, err := startAll(ctx, replicas, starts, concurrency)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(10 * time.Minute)
	var out []time.Duration
	for _, s := range starts {
		for {
			if at, ok := model.seen(s.input); ok {
				out = append(out, at.Sub(sent[s.input]))
				break
			}
			if time.Now().After(deadline) || ctx.Err() != nil {
				return nil, fmt.Errorf("the Run of %q had no model call in 10 minutes", s.input)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return out, nil
}

// printFairness prints the fairness phase's table.
func printFairness(w io.Writer, r *fairnessResult) {
	section(w, fmt.Sprintf("FAIRNESS: StartRun -> first model call of %d small tenants' %d Runs, alone and right after one tenant's %d (PostgreSQL, 2 replicas x %d slots, %s model calls)",
		r.SmallTenants, r.SmallRuns, r.BigRuns, fairSlots, fairModelDelay))
	tw := tabs(w)
	fmt.Fprintln(tw, "\tRuns\tp50 ms\tp99 ms\tmax ms\t")
	fmt.Fprintf(tw, "alone\t%d\t%s\t%s\t%s\t\n", r.Alone.N, fmtMs(r.Alone.P50Ms), fmtMs(r.Alone.P99Ms), fmtMs(r.Alone.MaxMs))
	fmt.Fprintf(tw, "behind %d waiting Runs of one tenant\t%d\t%s\t%s\t%s\t\n", r.BigBacklog, r.Loaded.N, fmtMs(r.Loaded.P50Ms), fmtMs(r.Loaded.P99Ms), fmtMs(r.Loaded.MaxMs))
	fmt.Fprintf(tw, "ratio (loaded/alone)\t\t%.2fx\t%.2fx\t\t\n", r.RatioP50, r.RatioP99)
	tw.Flush()
}

// fairnessTarget judges the small tenants' p99 behind the burst against
// alone: issue 35 asks for at most 2x.
func fairnessTarget(r *fairnessResult) target {
	g := goal{name: "small tenants' StartRun->first model call p99 behind one tenant's burst / alone", op: "<=", limit: 2, unit: "x"}
	if r == nil || r.RatioP99 == 0 {
		return g.unmeasured("")
	}
	return g.at(r.RatioP99, fmt.Sprintf("%d tenants, %d Runs behind (PostgreSQL, 2 replicas)", r.SmallTenants+1, r.BigRuns))
}
