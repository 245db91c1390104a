package a2a

import (
	"context"
	"errors"
	"net/http"

	"connectrpc.com/connect"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// backend calls runsvc's own services in-process, as the A2A caller.
type backend struct {
	getSpec   *connect.Client[runsvcv1.GetSpecRequest, runsvcv1.GetSpecResponse]
	listSpecs *connect.Client[runsvcv1.ListSpecsRequest, runsvcv1.ListSpecsResponse]
	startRun  *connect.Client[runsvcv1.StartRunRequest, runsvcv1.StartRunResponse]
	getRun    *connect.Client[runsvcv1.GetRunRequest, runsvcv1.GetRunResponse]
	listRuns  *connect.Client[runsvcv1.ListRunsRequest, runsvcv1.ListRunsResponse]
	waitRun   *connect.Client[runsvcv1.WaitRunRequest, runsvcv1.WaitRunResponse]
	resumeRun *connect.Client[runsvcv1.ResumeRunRequest, runsvcv1.ResumeRunResponse]
	steer     *connect.Client[runsvcv1.SendMessageRequest, runsvcv1.SendMessageResponse]
	interrupt *connect.Client[runsvcv1.InterruptRunRequest, runsvcv1.InterruptRunResponse]
	watchRun  *connect.Client[runsvcv1.WatchRunRequest, runsvcv1.WatchRunResponse]
}

// inprocBase is the base URL of in-process calls; only the path matters.
const inprocBase = "http://runsvc.inproc"

// newBackend returns the clients, served by api.
func newBackend(api http.Handler) *backend {
	hc := &http.Client{Transport: inproc{h: api}}
	spec := func(m string) string { return inprocBase + "/runsvc.v1.SpecService/" + m }
	run := func(m string) string { return inprocBase + "/runsvc.v1.RunService/" + m }
	return &backend{
		getSpec:   connect.NewClient[runsvcv1.GetSpecRequest, runsvcv1.GetSpecResponse](hc, spec("GetSpec")),
		listSpecs: connect.NewClient[runsvcv1.ListSpecsRequest, runsvcv1.ListSpecsResponse](hc, spec("ListSpecs")),
		startRun:  connect.NewClient[runsvcv1.StartRunRequest, runsvcv1.StartRunResponse](hc, run("StartRun")),
		getRun:    connect.NewClient[runsvcv1.GetRunRequest, runsvcv1.GetRunResponse](hc, run("GetRun")),
		listRuns:  connect.NewClient[runsvcv1.ListRunsRequest, runsvcv1.ListRunsResponse](hc, run("ListRuns")),
		waitRun:   connect.NewClient[runsvcv1.WaitRunRequest, runsvcv1.WaitRunResponse](hc, run("WaitRun")),
		resumeRun: connect.NewClient[runsvcv1.ResumeRunRequest, runsvcv1.ResumeRunResponse](hc, run("ResumeRun")),
		steer:     connect.NewClient[runsvcv1.SendMessageRequest, runsvcv1.SendMessageResponse](hc, run("SendMessage")),
		interrupt: connect.NewClient[runsvcv1.InterruptRunRequest, runsvcv1.InterruptRunResponse](hc, run("InterruptRun")),
		watchRun:  connect.NewClient[runsvcv1.WatchRunRequest, runsvcv1.WatchRunResponse](hc, run("WatchRun")),
	}
}

// call makes a unary call and returns its response message.
func call[Req, Res any](ctx context.Context, c *connect.Client[Req, Res], req *Req) (*Res, error) {
	res, err := c.CallUnary(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, err
	}
	return res.Msg, nil
}

// reasonOf is the ErrorInfo reason of a call's error, "" when it has none.
func reasonOf(err error) string {
	var ce *connect.Error
	if !errors.As(err, &ce) {
		return ""
	}
	for _, d := range ce.Details() {
		if v, e := d.Value(); e == nil {
			if info, ok := v.(interface{ GetReason() string }); ok {
				return info.GetReason()
			}
		}
	}
	return ""
}
