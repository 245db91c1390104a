package secretscan_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// leaks is a token the ways an echoing server may give it back: as it is,
// base64-encoded and URL-encoded.
func leaks(token string) string {
	return token + " " + base64.StdEncoding.EncodeToString([]byte(token)) + " " + url.QueryEscape(token)
}

func bearer(r *http.Request) string {
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
}

// startHTTPTool serves an http tool on 127.0.0.1 that echoes the bearer
// token in the way its "mode" argument names: a result, an error body, a
// status line or a 503's body.
func startHTTPTool(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var args struct {
			Mode string `json:"mode"`
		}
		_ = json.NewDecoder(r.Body).Decode(&args)
		tok := bearer(r)
		switch args.Mode {
		case "error":
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"error": "token " + leaks(tok) + " refused"})
		case "status":
			statusLine(w, "HTTP/1.1 403 Forbidden for "+url.QueryEscape(tok)+" "+base64.StdEncoding.EncodeToString([]byte(tok)))
		case "unavailable":
			w.WriteHeader(http.StatusServiceUnavailable)
			_ = json.NewEncoder(w).Encode(map[string]any{"error": "down, token " + leaks(tok), "retryable": false})
		default:
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"echo": leaks(tok), "header": r.Header.Get("Authorization")})
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// statusLine answers with a status line of its own making.
func statusLine(w http.ResponseWriter, line string) {
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	_, _ = fmt.Fprintf(buf, "%s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", line)
	_ = buf.Flush()
}

// startMCP serves a real MCP server (the official go-sdk) on 127.0.0.1
// whose "mirror" tool answers with the bearer token and whose "refuse"
// tool fails naming it.
func startMCP(t *testing.T) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "mirror"}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		tok := strings.TrimPrefix(req.Extra.Header.Get("Authorization"), "Bearer ")
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: leaks(tok)}}}, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "refuse"}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		return nil, nil, errors.New("refused token " + leaks(strings.TrimPrefix(req.Extra.Header.Get("Authorization"), "Bearer ")))
	})
	h := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(h.Close)
	return h.URL + "/mcp"
}

// startOpenAI serves an OpenAI-compatible chat completions endpoint on
// 127.0.0.1 that answers with the API key in the completion's text, or,
// when refuse is set, a 401 whose error names it.
func startOpenAI(t *testing.T, refuse bool) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		tok := bearer(r)
		w.Header().Set("Content-Type", "application/json")
		if refuse {
			w.WriteHeader(http.StatusUnauthorized)
			_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
				"message": "Incorrect API key provided: " + leaks(tok), "type": "invalid_request_error", "code": "invalid_api_key"}})
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1764400000, "model": "gpt-4o-mini",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": "your key is " + leaks(tok)}}},
			"usage": map[string]any{"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17},
		})
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}
