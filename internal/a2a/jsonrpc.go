package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	spb "google.golang.org/genproto/googleapis/rpc/status"

	"github.com/runsvc/runsvc/internal/errs"
)

// rpcRequest is a JSON-RPC 2.0 request.
type rpcRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

// rpcResponse is a JSON-RPC 2.0 response: result or error.
type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// rpcError is a JSON-RPC error whose data is the google.rpc.Status's
// details (A2A 1.0 §9.5).
type rpcError struct {
	Code    int               `json:"code"`
	Message string            `json:"message"`
	Data    []json.RawMessage `json:"data"`
}

// serveJSONRPC answers one JSON-RPC request to Spec name's agent.
func (h *Handler) serveJSONRPC(w http.ResponseWriter, r *http.Request, name string) {
	if r.Method != http.MethodPost {
		h.writeRPCError(w, r, nil, codeInvalidReq, &errs.MethodNotFound{Method: r.Method + " " + r.URL.Path + " (JSON-RPC takes POST)"})
		return
	}
	body, err := h.readBody(r)
	if err != nil {
		h.writeRPCError(w, r, nil, codeInvalidReq, err)
		return
	}
	var req rpcRequest
	if err := json.Unmarshal(body, &req); err != nil {
		h.writeRPCError(w, r, nil, codeParse, errs.BadField("", "the body is not JSON: %v", err))
		return
	}
	if req.JSONRPC != "2.0" || req.Method == "" || !validID(req.ID) {
		h.writeRPCError(w, r, req.ID, codeInvalidReq, errs.BadField("jsonrpc", "is not a JSON-RPC 2.0 request (jsonrpc \"2.0\", a method, an id that is a string, number or null)"))
		return
	}
	if err := versionError(r); err != nil {
		h.writeRPCError(w, r, req.ID, 0, err)
		return
	}
	a, err := agentFor(r.Context(), h.b, name)
	if err != nil {
		h.writeRPCError(w, r, req.ID, 0, err)
		return
	}
	h.dispatchRPC(w, r, a, &req)
}

// validID reports whether a JSON-RPC id is a string, a number or null.
func validID(id json.RawMessage) bool {
	t := bytes.TrimSpace(id)
	if len(t) == 0 {
		return true
	}
	var v any
	if json.Unmarshal(t, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64, nil:
		return true
	}
	return false
}

// dispatchRPC runs a method.
func (h *Handler) dispatchRPC(w http.ResponseWriter, r *http.Request, a *agent, req *rpcRequest) {
	ctx := r.Context()
	var result any
	var err error
	switch req.Method {
	case "SendMessage":
		var p SendMessageRequest
		if err = decodeParams(req.Params, &p); err == nil {
			result, err = h.sendMessage(ctx, a, &p)
		}
	case "SendStreamingMessage", "SubscribeToTask":
		h.streamRPC(w, r, a, req)
		return
	case "GetTask":
		var p TaskRequest
		if err = decodeParams(req.Params, &p); err == nil {
			result, err = h.getTask(ctx, a, &p)
		}
	case "CancelTask":
		var p TaskRequest
		if err = decodeParams(req.Params, &p); err == nil {
			result, err = h.cancelTask(ctx, a, &p)
		}
	case "ListTasks":
		var p ListTasksRequest
		if err = decodeParams(req.Params, &p); err == nil {
			result, err = a.list(ctx, &p)
		}
	case "GetExtendedAgentCard":
		result = h.card(a.spec, baseURL(r))
	case "CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig", "ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig":
		result, err = h.pushRPC(ctx, a, req.Method, req.Params)
	default:
		h.writeRPCError(w, r, req.ID, codeMethodMissing, &errs.MethodNotFound{Method: req.Method})
		return
	}
	if err != nil {
		h.writeRPCError(w, r, req.ID, 0, err)
		return
	}
	writeJSON(w, http.StatusOK, rpcResponse{JSONRPC: "2.0", ID: idOrNull(req.ID), Result: result})
}

// decodeParams decodes a method's params, refusing unknown fields.
func decodeParams(raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errs.BadField("params", "do not decode: %v", err)
	}
	return nil
}

// idOrNull is a request's id, null when it had none.
func idOrNull(id json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(id)) == 0 {
		return json.RawMessage("null")
	}
	return id
}

// rpcErrorOf is err as a JSON-RPC error; code, when not 0, is JSON-RPC's
// own (a parse error, an invalid request) rather than the status's.
func (h *Handler) rpcErrorOf(ctx context.Context, code int, err error) (*rpcError, *spb.Status) {
	st := h.statusOfError(ctx, err)
	if code == 0 {
		code = jsonRPCCode(st)
	}
	return &rpcError{Code: code, Message: st.GetMessage(), Data: detailsJSON(st)}, st
}

// writeRPCError answers with a JSON-RPC error (HTTP 200, as JSON-RPC over
// HTTP does).
func (h *Handler) writeRPCError(w http.ResponseWriter, r *http.Request, id json.RawMessage, code int, err error) {
	e, st := h.rpcErrorOf(r.Context(), code, err)
	setRetryAfter(w, st)
	writeJSON(w, http.StatusOK, rpcResponse{JSONRPC: "2.0", ID: idOrNull(id), Error: e})
}

// streamRPC answers SendStreamingMessage and SubscribeToTask as Server-Sent
// Events, each a JSON-RPC response with the request's id.
func (h *Handler) streamRPC(w http.ResponseWriter, r *http.Request, a *agent, req *rpcRequest) {
	sse := newSSE(w)
	id := idOrNull(req.ID)
	emit := func(ev *StreamResponse) error {
		if ev == nil {
			return sse.comment()
		}
		return sse.event("", rpcResponse{JSONRPC: "2.0", ID: id, Result: ev})
	}
	err := h.startStream(r.Context(), a, req.Method, req.Params, emit)
	if err == nil {
		return
	}
	e, st := h.rpcErrorOf(r.Context(), 0, err)
	if !sse.started {
		setRetryAfter(w, st)
		writeJSON(w, http.StatusOK, rpcResponse{JSONRPC: "2.0", ID: id, Error: e})
		return
	}
	_ = sse.event("", rpcResponse{JSONRPC: "2.0", ID: id, Error: e})
}

// startStream runs a streaming method: decode its params, then follow
// the task.
func (h *Handler) startStream(ctx context.Context, a *agent, method string, params json.RawMessage, emit emitter) error {
	if method == "SubscribeToTask" {
		var p TaskRequest
		if err := decodeParams(params, &p); err != nil {
			return err
		}
		return h.subscribe(ctx, a, &p, emit)
	}
	var p SendMessageRequest
	if err := decodeParams(params, &p); err != nil {
		return err
	}
	return h.sendStreaming(ctx, a, &p, emit)
}

// sse writes Server-Sent Events.
type sseWriter struct {
	w       http.ResponseWriter
	started bool
}

func newSSE(w http.ResponseWriter) *sseWriter { return &sseWriter{w: w} }

func (s *sseWriter) start() {
	if s.started {
		return
	}
	s.started = true
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	s.w.WriteHeader(http.StatusOK)
}

// event writes one event, named when name is not "".
func (s *sseWriter) event(name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	s.start()
	if name != "" {
		if _, err := fmt.Fprintf(s.w, "event: %s\n", name); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintf(s.w, "data: %s\n\n", b); err != nil {
		return err
	}
	s.flush()
	return nil
}

// comment writes a heartbeat.
func (s *sseWriter) comment() error {
	s.start()
	if _, err := fmt.Fprint(s.w, ": heartbeat\n\n"); err != nil {
		return err
	}
	s.flush()
	return nil
}

func (s *sseWriter) flush() {
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

// pushRPC runs a push-notification-config method.
func (h *Handler) pushRPC(ctx context.Context, a *agent, method string, params json.RawMessage) (any, error) {
	if method == "CreateTaskPushNotificationConfig" {
		var c TaskPushNotificationConfig
		if err := decodeParams(params, &c); err != nil {
			return nil, err
		}
		return h.createPush(ctx, a, &c)
	}
	var p PushConfigRequest
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	switch method {
	case "GetTaskPushNotificationConfig":
		return h.getPush(ctx, a, &p)
	case "ListTaskPushNotificationConfigs":
		return h.listPush(ctx, a, &p)
	}
	return h.deletePush(ctx, a, &p)
}
