package mcptool

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/tool"
)

var _ tool.ResourceReader = (*Executor)(nil)

// Resource is what reading a resource answers: its contents, each a
// Part of type "resource" (text, or binary data inline up to
// MaxInlineBytes).
type Resource struct {
	Contents []Part `json:"contents"`
}

// ReadResource reads the resource uri (resources/read) of the server
// c.Tool.MCP names, on the session Execute would use, with the same
// failures: *errs.MCPFailed when another try may succeed, else
// *errs.MCPRejected (an unknown resource among them).
func (x *Executor) ReadResource(ctx context.Context, c tool.Call, uri string) (json.RawMessage, error) {
	if c.Tool.MCP == nil || (!c.Tool.MCP.Stdio() && !usableURL(c.Tool.MCP.URL)) {
		return nil, &errs.ConfigurationInvalid{Subject: "tool " + c.Name, Description: "an MCP server needs an http or https url or a command"}
	}
	if err := x.AllowCommand("tool "+c.Name, c.Tool.MCP.Command); err != nil {
		return nil, err
	}
	k := keyOf(c)
	connecting := new(probe)
	cs, err := x.session(ctx, k, connecting)
	if err != nil {
		if denied := refusal(c, err, connecting); denied != nil {
			return nil, denied
		}
		return nil, report(ctx, c, x.judge(k, err, connecting))
	}
	reading := new(probe)
	res, err := cs.ReadResource(withProbe(ctx, reading), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		if denied := refusal(c, err, reading); denied != nil {
			return nil, denied
		}
		v := x.judge(k, err, reading)
		if ctx.Err() == nil && v.drop {
			x.drop(k, cs)
		}
		return nil, report(ctx, c, v)
	}
	out := Resource{Contents: make([]Part, 0, len(res.Contents))}
	for _, rc := range res.Contents {
		out.Contents = append(out.Contents, resource(rc))
	}
	return marshal(c, out)
}
