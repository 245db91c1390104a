package engine_test

import (
	"strings"
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestDeliveryAtPublish: a tool's delivery and in_doubt go over gRPC,
// are validated at publish and come back from GetSpec; the default and
// its explicit spelling publish the same Version.
func TestDeliveryAtPublish(t *testing.T) {
	srv := testserver.Start(t)
	ctx := testserver.Context(t)
	tool := func(kind runsvcv1.ToolKind, d runsvcv1.Delivery, i runsvcv1.InDoubt) *runsvcv1.Spec {
		tl := &runsvcv1.Tool{Name: "charge", Kind: kind, Delivery: d, InDoubt: i}
		if kind == runsvcv1.ToolKind_TOOL_KIND_HTTP {
			tl.Http = &runsvcv1.HttpTool{Url: "http://127.0.0.1:9/charge"}
		}
		return &runsvcv1.Spec{Name: "pay", Tools: []*runsvcv1.Tool{tl},
			Model: &runsvcv1.ModelRef{Provider: "scripted", Script: &runsvcv1.Script{Turns: []*runsvcv1.ScriptTurn{{Text: "x"}}}}}
	}
	http, client := runsvcv1.ToolKind_TOOL_KIND_HTTP, runsvcv1.ToolKind_TOOL_KIND_CLIENT
	amo, alo := runsvcv1.Delivery_DELIVERY_AT_MOST_ONCE, runsvcv1.Delivery_DELIVERY_AT_LEAST_ONCE
	ask := runsvcv1.InDoubt_IN_DOUBT_ASK
	tests := []struct {
		name      string
		spec      *runsvcv1.Spec
		violation string // "" when it publishes
		want      runsvcv1.Delivery
	}{
		{name: "at most once, ask", spec: tool(http, amo, ask), want: amo},
		{name: "at least once spelled out", spec: tool(http, alo, 0), want: runsvcv1.Delivery_DELIVERY_UNSPECIFIED},
		{name: "client tool at most once", spec: tool(client, amo, 0), violation: "tools[0].delivery"},
		{name: "ask without at most once", spec: tool(http, alo, ask), violation: "tools[0].in_doubt"},
		{name: "unknown delivery", spec: tool(http, 7, 0), violation: "tools[0].delivery"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := srv.Specs.PublishSpec(ctx, &runsvcv1.PublishSpecRequest{Spec: tt.spec})
			if tt.violation != "" {
				if c := errdetails.Classify(err); c.Reason != "SPEC_INVALID" || !strings.Contains(err.Error(), tt.violation) {
					t.Errorf("publish = %v, want SPEC_INVALID on %s", err, tt.violation)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := srv.Specs.GetSpec(ctx, &runsvcv1.GetSpecRequest{Name: "pay", Version: resp.GetSpec().GetVersion()})
			if err != nil {
				t.Fatal(err)
			}
			if d := got.GetSpec().GetTools()[0].GetDelivery(); d != tt.want {
				t.Errorf("GetSpec delivery %v, want %v", d, tt.want)
			}
		})
	}
	a, err := srv.Specs.PublishSpec(ctx, &runsvcv1.PublishSpecRequest{Spec: tool(http, alo, runsvcv1.InDoubt_IN_DOUBT_TELL_MODEL)})
	if err != nil {
		t.Fatal(err)
	}
	b, err := srv.Specs.PublishSpec(ctx, &runsvcv1.PublishSpecRequest{Spec: tool(http, 0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if a.GetSpec().GetVersion() != b.GetSpec().GetVersion() {
		t.Errorf("defaults spelled out publish %s, unset %s: want one Version", a.GetSpec().GetVersion(), b.GetSpec().GetVersion())
	}
}
