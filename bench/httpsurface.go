package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"connectrpc.com/connect"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
)

// httpResult is the HTTP surface (issue 33): unary GetRun and StartRun
// over gRPC (--listen), Connect (binary) and REST/JSON (--http-listen) on
// one server, in turns, and each HTTP protocol's throughput as a ratio of
// gRPC's at the same concurrency.
type httpResult struct {
	Conc int `json:"concurrency"`
	// Stats are keyed "GetRun grpc", "StartRun rest" and the like.
	Stats map[string]stat `json:"stats"`
	// Ratios are throughput over gRPC's, keyed "GetRun rest" and the like.
	Ratios map[string]float64 `json:"ratios"`
}

// httpProtocols are the protocols measured, gRPC first (the reference).
var httpProtocols = []string{"grpc", "connect", "rest"}

// runHTTP measures GetRun of one settled Run, then StartRun of one-turn
// Runs, each over the three protocols in turns at c16.
func runHTTP(ctx context.Context, cfg config) (*httpResult, error) {
	progress("http: GetRun and StartRun over gRPC, Connect and REST, in turns")
	p, err := startInprocWith("", func(c *server.Config) { c.HTTP.Listen = "127.0.0.1:0" })
	if err != nil {
		return nil, err
	}
	defer p.stop()
	if err := publish(ctx, p.specs, `{"name": "bench-http", "model": {"provider": "scripted", "script": {"turns": [{"text": "Hello."}]}}}`); err != nil {
		return nil, err
	}
	run, err := startAndSettle(ctx, p.runs, "bench-http")
	if err != nil {
		return nil, err
	}
	res := &httpResult{Conc: 16, Stats: map[string]stat{}, Ratios: map[string]float64{}}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * res.Conc}}
	for _, group := range [][]variant{getRunVariants(p, client, run.GetRunId()), startRunVariants(p, client)} {
		stats := interleaved(ctx, group, res.Conc, cfg.measure, cfg.warm, cfg.rounds)
		for name, s := range stats {
			res.Stats[name] = s
		}
	}
	for _, rpc := range []string{"GetRun", "StartRun"} {
		for _, proto := range httpProtocols[1:] {
			res.Ratios[rpc+" "+proto] = ratio(res.Stats[rpc+" "+proto].PerSec, res.Stats[rpc+" grpc"].PerSec)
		}
	}
	return res, nil
}

// getRunVariants read one Run over each protocol.
func getRunVariants(p *inproc, client *http.Client, runID string) []variant {
	req := &runsvcv1.GetRunRequest{RunId: runID}
	cc := connect.NewClient[runsvcv1.GetRunRequest, runsvcv1.GetRunResponse](client, p.httpURL+"/runsvc.v1.RunService/GetRun")
	return []variant{
		{"GetRun grpc", func(ctx context.Context) error { _, err := p.runs.GetRun(ctx, req); return err }},
		{"GetRun connect", func(ctx context.Context) error { _, err := cc.CallUnary(ctx, connect.NewRequest(req)); return err }},
		{"GetRun rest", func(ctx context.Context) error {
			return restCall(ctx, client, http.MethodGet, p.httpURL+"/v1/runs/"+runID, "")
		}},
	}
}

// startRunVariants start a one-turn Run over each protocol.
func startRunVariants(p *inproc, client *http.Client) []variant {
	req := &runsvcv1.StartRunRequest{Spec: "bench-http", Input: "hi"}
	cc := connect.NewClient[runsvcv1.StartRunRequest, runsvcv1.StartRunResponse](client, p.httpURL+"/runsvc.v1.RunService/StartRun")
	return []variant{
		{"StartRun grpc", func(ctx context.Context) error { _, err := p.runs.StartRun(ctx, req); return err }},
		{"StartRun connect", func(ctx context.Context) error { _, err := cc.CallUnary(ctx, connect.NewRequest(req)); return err }},
		{"StartRun rest", func(ctx context.Context) error {
			return restCall(ctx, client, http.MethodPost, p.httpURL+"/v1/runs", `{"spec": "bench-http", "input": "hi"}`)
		}},
	}
}

// restCall makes one REST request and reads its whole body; anything but
// 200 is an error.
func restCall(ctx context.Context, client *http.Client, method, url, body string) error {
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		return err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: HTTP %d", method, url, resp.StatusCode)
	}
	return nil
}

// printHTTP writes the HTTP surface's section.
func printHTTP(w io.Writer, h *httpResult) {
	section(w, fmt.Sprintf("HTTP: unary calls over gRPC, Connect (binary) and REST/JSON at c%d, in turns", h.Conc))
	tw := tabs(w)
	fmt.Fprintln(tw, "call\tcalls/s\tp50 ms\tp99 ms\t/ gRPC\t")
	for _, rpc := range []string{"GetRun", "StartRun"} {
		for _, proto := range httpProtocols {
			s := h.Stats[rpc+" "+proto]
			r := "1"
			if proto != "grpc" {
				r = fmt.Sprintf("%.2f", h.Ratios[rpc+" "+proto])
			}
			fmt.Fprintf(tw, "%s %s\t%.0f\t%s\t%s\t%s\t%s\n", rpc, proto, s.PerSec, fmtMs(s.P50Ms), fmtMs(s.P99Ms), r, errNote(s.Errors, s.FirstErr))
		}
	}
	tw.Flush()
}

// httpGoals are the HTTP surface's rows: each protocol's worst ratio.
var httpGoals = map[string]goal{
	"GetRun connect":   {name: "GetRun over Connect / gRPC throughput (c16)", op: ">=", limit: httpGetRunLimit, unit: "x"},
	"GetRun rest":      {name: "GetRun over REST / gRPC throughput (c16)", op: ">=", limit: httpGetRunLimit, unit: "x"},
	"StartRun connect": {name: "StartRun over Connect / gRPC throughput (c16)", op: ">=", limit: httpStartRunLimit, unit: "x"},
	"StartRun rest":    {name: "StartRun over REST / gRPC throughput (c16)", op: ">=", limit: httpStartRunLimit, unit: "x"},
}

// httpTargets judges httpGoals, in a fixed order.
func httpTargets(h *httpResult) []target {
	var out []target
	for _, key := range []string{"GetRun connect", "GetRun rest", "StartRun connect", "StartRun rest"} {
		g := httpGoals[key]
		if h == nil {
			out = append(out, g.unmeasured(""))
			continue
		}
		out = append(out, g.at(h.Ratios[key], "in turns with gRPC"))
	}
	return out
}

// The issue sets no limit on the HTTP surface ("the numbers in the note");
// these rows are floors against regressions, from what it measures on a
// shared 2-core machine. A GetRun over HTTP/1.1 pays the request and
// response encoding (JSON for REST) and vanguard's transcoding into the
// in-process gRPC call, about twice a native call: 0.34-0.50 of gRPC's
// throughput, so the floor is 0.30. A StartRun is dominated by the Run's
// own work (its store writes and turn), so the protocol matters little:
// 0.75-1.09, floor 0.60.
const (
	httpGetRunLimit   = 0.30
	httpStartRunLimit = 0.60
)
