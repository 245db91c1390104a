package mcptool

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/tool"
)

// MaxInlineBytes bounds the binary data (an image, audio, a resource's
// blob) a result keeps inline, base64-encoded; larger data is recorded by
// its size and SHA-256 only, so one result cannot swell the Run's log.
const MaxInlineBytes = 64 << 10

// Part is one content part of a tool result as runsvc records it and the
// model sees it, when the result holds more than text:
//
//	{"type": "text", "text": "..."}
//	{"type": "image", "mimeType": "image/png", "bytes": 1234, "data": "<base64>"}
//	{"type": "audio", "mimeType": "audio/wav", "bytes": 99999, "sha256": "...", "omitted": "..."}
//	{"type": "resource", "uri": "...", "mimeType": "...", "text": "..."}   (or bytes/data for a blob)
//	{"type": "resource_link", "uri": "...", "name": "...", "mimeType": "..."}
type Part struct {
	Type        string `json:"type"`
	Text        string `json:"text,omitempty"`
	URI         string `json:"uri,omitempty"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	// Bytes is the size of the binary data; Data holds it, base64, when it
	// is at most MaxInlineBytes, else SHA256 identifies it and Omitted
	// says why it is not there.
	Bytes   int    `json:"bytes,omitempty"`
	Data    string `json:"data,omitempty"`
	SHA256  string `json:"sha256,omitempty"`
	Omitted string `json:"omitted,omitempty"`
}

// Content is the output of a result that holds more than text.
type Content struct {
	Content []Part `json:"content"`
}

// output turns a tool's result into the call's output, or into the
// tool's own failure when the result is marked isError.
//
// The output is the result's structured content when it has some; else,
// when every part is text, the text of the parts joined by newlines, as a
// JSON string; else a Content listing every part (text, image, audio,
// embedded resource, resource link).
func output(c tool.Call, res *mcp.CallToolResult) (json.RawMessage, error) {
	if res.IsError {
		msg, ok := text(res.Content)
		if !ok {
			msg = "the tool reported an error without saying why"
			if len(res.Content) > 0 {
				raw, _ := json.Marshal(parts(res.Content))
				msg = string(raw)
			}
		}
		return nil, &errs.ToolRejected{Tool: c.Name, Message: scrub(msg, c)}
	}
	if res.NeedsInput() {
		return nil, &errs.MCPRejected{Server: c.Tool.MCP.Label(), Tool: c.Name, Message: "the server asked for input that runsvc cannot give"}
	}
	if res.StructuredContent != nil {
		return marshal(c, res.StructuredContent)
	}
	if s, ok := text(res.Content); ok && onlyText(res.Content) {
		return marshal(c, s)
	}
	if len(res.Content) == 0 {
		return json.RawMessage(`[]`), nil
	}
	return marshal(c, Content{Content: parts(res.Content)})
}

// parts maps content to the parts runsvc records.
func parts(content []mcp.Content) []Part {
	out := make([]Part, 0, len(content))
	for _, c := range content {
		switch c := c.(type) {
		case *mcp.TextContent:
			out = append(out, Part{Type: "text", Text: c.Text})
		case *mcp.ImageContent:
			out = append(out, binary(Part{Type: "image", MIMEType: c.MIMEType}, c.Data))
		case *mcp.AudioContent:
			out = append(out, binary(Part{Type: "audio", MIMEType: c.MIMEType}, c.Data))
		case *mcp.ResourceLink:
			out = append(out, Part{Type: "resource_link", URI: c.URI, Name: c.Name, Description: c.Description, MIMEType: c.MIMEType})
		case *mcp.EmbeddedResource:
			out = append(out, resource(c.Resource))
		default:
			out = append(out, Part{Type: "unsupported", Text: fmt.Sprintf("a %T part runsvc does not record", c)})
		}
	}
	return out
}

func resource(r *mcp.ResourceContents) Part {
	if r == nil {
		return Part{Type: "resource"}
	}
	p := Part{Type: "resource", URI: r.URI, MIMEType: r.MIMEType, Text: r.Text}
	if r.Blob != nil {
		p = binary(p, r.Blob)
	}
	return p
}

// binary records data in p: inline up to MaxInlineBytes, else by hash.
func binary(p Part, data []byte) Part {
	p.Bytes = len(data)
	if len(data) <= MaxInlineBytes {
		p.Data = base64.StdEncoding.EncodeToString(data)
		return p
	}
	sum := sha256.Sum256(data)
	p.SHA256 = hex.EncodeToString(sum[:])
	p.Omitted = fmt.Sprintf("%d bytes, over the %d bytes kept inline", len(data), MaxInlineBytes)
	return p
}

// text joins the text parts of content with newlines; ok is false when
// there are none.
func text(content []mcp.Content) (string, bool) {
	var texts []string
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	return strings.Join(texts, "\n"), len(texts) > 0
}

func onlyText(content []mcp.Content) bool {
	for _, c := range content {
		if _, ok := c.(*mcp.TextContent); !ok {
			return false
		}
	}
	return true
}

func marshal(c tool.Call, v any) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, &errs.MCPRejected{Server: c.Tool.MCP.Label(), Tool: c.Name, Message: "the result cannot be encoded as JSON: " + scrub(err.Error(), c)}
	}
	return raw, nil
}
