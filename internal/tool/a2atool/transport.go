package a2atool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/netpolicy"
	"github.com/runsvc/runsvc/internal/retryafter"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/tool"
)

// maxBody bounds what runsvc reads of one answer of an agent.
const maxBody = 8 << 20

// protocolVersion is the A2A-Version runsvc speaks.
const protocolVersion = "1.0"

// exchange is one request to an agent: the call it is for (its name and
// credential) and the operation, for errors.
type exchange struct {
	client *http.Client
	call   tool.Call
	op     string
	// nothingToDo, when set, picks the errors an agent answers that mean
	// the request has nothing left to do (a cancel of a task that ended):
	// they are errNothingToDo instead of a rejection.
	nothingToDo func(code int, reason string) bool
}

// rpcID numbers JSON-RPC requests.
var rpcID atomic.Int64

// jsonRPC calls method at endpoint with params and decodes its result
// into out (the JSON-RPC binding).
func (x exchange) jsonRPC(ctx context.Context, endpoint, method string, params, out any) error {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": rpcID.Add(1), "method": method, "params": params})
	if err != nil {
		return err
	}
	raw, err := x.do(ctx, http.MethodPost, endpoint, body)
	if err != nil {
		return err
	}
	var resp struct {
		Result json.RawMessage `json:"result"`
		Error  *rpcError       `json:"error"`
	}
	if json.Unmarshal(raw, &resp) != nil {
		return x.rejected("the agent's answer is not JSON-RPC")
	}
	if resp.Error != nil {
		return x.classifyRPC(*resp.Error)
	}
	if json.Unmarshal(resp.Result, out) != nil {
		return x.rejected("the agent's result does not match A2A 1.0")
	}
	return nil
}

// rest makes an HTTP+JSON request (the HTTP+JSON binding) and decodes
// its answer into out.
func (x exchange) rest(ctx context.Context, method, endpoint string, in, out any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
	}
	raw, err := x.do(ctx, method, endpoint, body)
	if err != nil {
		return err
	}
	if json.Unmarshal(raw, out) != nil {
		return x.rejected("the agent's answer does not match A2A 1.0")
	}
	return nil
}

// do sends one request and returns the body of a 2xx answer; any other
// answer, or none, is classified (classifyHTTP).
func (x exchange) do(ctx context.Context, method, endpoint string, body []byte) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, endpoint, rd)
	if err != nil {
		return nil, &errs.ConfigurationInvalid{Subject: "tool " + x.call.Name, Description: "the agent's URL is not usable"}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("A2A-Version", protocolVersion)
	req.Header.Set("Runsvc-Call-Id", x.call.GlobalID())
	if x.call.Credential != "" {
		req.Header.Set("Authorization", "Bearer "+x.call.Credential)
	}
	resp, err := x.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if denied, ok := netpolicy.Denied("tool "+x.call.Name, err); ok {
			return nil, denied
		}
		return nil, &errs.TransientFailure{Operation: x.operation(), Message: "the agent could not be reached: " + x.redact(unwrapped(err))}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &errs.TransientFailure{Operation: x.operation(), Message: "reading the agent's answer failed: " + x.redact(unwrapped(err))}
	}
	if len(raw) > maxBody {
		return nil, x.rejected(fmt.Sprintf("the agent's answer is over %d bytes", maxBody))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, x.classifyHTTP(resp.StatusCode, resp.Status, resp.Header, raw)
	}
	return raw, nil
}

func (x exchange) operation() string { return "tool " + x.call.Name + ": A2A " + x.op }

func (x exchange) rejected(msg string) error {
	return &errs.ToolRejected{Tool: x.call.Name, Message: x.op + ": " + x.redact(msg)}
}

// redact keeps the credential out of what an agent echoes.
func (x exchange) redact(s string) string {
	if x.call.Credential == "" {
		return s
	}
	return strings.ReplaceAll(s, x.call.Credential, "[redacted]")
}

func unwrapped(err error) string {
	if u, ok := err.(interface{ Unwrap() error }); ok && u.Unwrap() != nil {
		return u.Unwrap().Error()
	}
	return err.Error()
}

// binding is one A2A protocol binding of an agent's endpoint.
type binding interface {
	send(ctx context.Context, x exchange, req sendRequest) (sendResponse, error)
	get(ctx context.Context, x exchange, id string) (task, error)
	cancel(ctx context.Context, x exchange, id string) error
}

// jsonRPCBinding speaks JSON-RPC 2.0 at one endpoint.
type jsonRPCBinding struct{ endpoint string }

func (b jsonRPCBinding) send(ctx context.Context, x exchange, req sendRequest) (sendResponse, error) {
	var out sendResponse
	return out, x.jsonRPC(ctx, b.endpoint, "SendMessage", req, &out)
}

func (b jsonRPCBinding) get(ctx context.Context, x exchange, id string) (task, error) {
	var out task
	return out, x.jsonRPC(ctx, b.endpoint, "GetTask", map[string]any{"id": id, "historyLength": 0}, &out)
}

func (b jsonRPCBinding) cancel(ctx context.Context, x exchange, id string) error {
	var out task
	return x.jsonRPC(ctx, b.endpoint, "CancelTask", map[string]any{"id": id}, &out)
}

// restBinding speaks HTTP+JSON under one base URL.
type restBinding struct{ base string }

func (b restBinding) send(ctx context.Context, x exchange, req sendRequest) (sendResponse, error) {
	var out sendResponse
	return out, x.rest(ctx, http.MethodPost, strings.TrimSuffix(b.base, "/")+"/message:send", req, &out)
}

func (b restBinding) get(ctx context.Context, x exchange, id string) (task, error) {
	var out task
	return out, x.rest(ctx, http.MethodGet, strings.TrimSuffix(b.base, "/")+"/tasks/"+url.PathEscape(id)+"?historyLength=0", nil, &out)
}

func (b restBinding) cancel(ctx context.Context, x exchange, id string) error {
	var out task
	return x.rest(ctx, http.MethodPost, strings.TrimSuffix(b.base, "/")+"/tasks/"+url.PathEscape(id)+":cancel", map[string]any{"id": id}, &out)
}

// bindingFor returns the binding of kind at endpoint.
func bindingFor(kind, endpoint string) binding {
	if kind == spec.A2ABindingHTTPJSON {
		return restBinding{base: endpoint}
	}
	return jsonRPCBinding{endpoint: endpoint}
}

// retryAfter is when a 429 or 503 says to come back.
func retryAfter(h http.Header) time.Duration { return retryafter.Parse(h, time.Now()) }
