package a2a

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/runsvc/runsvc/internal/errs"
)

// serveREST answers one HTTP+JSON request to Spec name's agent; path is
// what follows the agent's REST base URL ("/message:send", "/tasks/x").
func (h *Handler) serveREST(w http.ResponseWriter, r *http.Request, name, path string) {
	a, err := agentFor(r.Context(), h.b, name)
	if err != nil {
		h.writeREST(w, r, err)
		return
	}
	ctx := r.Context()
	var result any
	switch route, id := restRoute(r.Method, path); route {
	case "send":
		var p SendMessageRequest
		if err = h.decodeBody(r, &p); err == nil {
			result, err = h.sendMessage(ctx, a, &p)
		}
	case "stream":
		var p SendMessageRequest
		if err = h.decodeBody(r, &p); err == nil {
			h.streamREST(w, r, func(emit emitter) error { return h.sendStreaming(ctx, a, &p, emit) })
			return
		}
	case "subscribe":
		h.streamREST(w, r, func(emit emitter) error { return h.subscribe(ctx, a, &TaskRequest{ID: id}, emit) })
		return
	case "get":
		p := TaskRequest{ID: id}
		if p.HistoryLength, err = queryInt(r.URL.Query(), "historyLength"); err == nil {
			result, err = h.getTask(ctx, a, &p)
		}
	case "cancel":
		result, err = h.cancelTask(ctx, a, &TaskRequest{ID: id})
	case "list":
		var p *ListTasksRequest
		if p, err = listQuery(r.URL.Query()); err == nil {
			result, err = a.list(ctx, p)
		}
	case "card":
		result = h.card(a.spec, baseURL(r))
	case "push-create":
		var c TaskPushNotificationConfig
		if err = h.decodeBody(r, &c); err == nil {
			c.TaskID = id
			result, err = h.createPush(ctx, a, &c)
		}
	case "push-list":
		result, err = h.listPush(ctx, a, &PushConfigRequest{TaskID: id})
	case "push-get", "push-delete":
		result, err = h.pushOne(ctx, a, route, id)
	default:
		err = &errs.MethodNotFound{Method: r.Method + " " + r.URL.Path}
	}
	if err != nil {
		h.writeREST(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, result)
}

// restRoute names the operation of a method and path, and the task id it
// is about.
func restRoute(method, path string) (string, string) {
	switch {
	case path == "/message:send" && method == http.MethodPost:
		return "send", ""
	case path == "/message:stream" && method == http.MethodPost:
		return "stream", ""
	case path == "/tasks" && method == http.MethodGet:
		return "list", ""
	case path == "/extendedAgentCard" && method == http.MethodGet:
		return "card", ""
	}
	rest, ok := strings.CutPrefix(path, "/tasks/")
	if !ok || rest == "" {
		return "", ""
	}
	if id, config, ok := strings.Cut(rest, "/pushNotificationConfigs"); ok {
		return pushRoute(method, config), unescape(id) + config
	}
	id, verb, _ := strings.Cut(rest, ":")
	id = unescape(id)
	switch {
	case verb == "" && method == http.MethodGet:
		return "get", id
	case verb == "cancel" && method == http.MethodPost:
		return "cancel", id
	case verb == "subscribe" && (method == http.MethodPost || method == http.MethodGet):
		return "subscribe", id
	}
	return "", ""
}

// decodeBody decodes a JSON request body, refusing unknown fields.
func (h *Handler) decodeBody(r *http.Request, v any) error {
	body, err := h.readBody(r)
	if err != nil {
		return err
	}
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.Contains(ct, "json") {
		return &errs.ContentTypeNotSupported{MediaType: ct}
	}
	return decodeParams(body, v)
}

// queryInt is an integer query parameter, nil when absent.
func queryInt(q url.Values, name string) (*int32, error) {
	v := q.Get(name)
	if v == "" {
		return nil, nil
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil || n < 0 {
		return nil, errs.BadField(name, "is not a count: %q", v)
	}
	i := int32(n)
	return &i, nil
}

// listQuery is ListTasks' request from its query parameters.
func listQuery(q url.Values) (*ListTasksRequest, error) {
	p := &ListTasksRequest{ContextID: q.Get("contextId"), Status: q.Get("status"), PageToken: q.Get("pageToken"), StatusTimestampAfter: q.Get("statusTimestampAfter")}
	var err error
	if p.PageSize, err = queryInt(q, "pageSize"); err != nil {
		return nil, err
	}
	if p.HistoryLength, err = queryInt(q, "historyLength"); err != nil {
		return nil, err
	}
	if v := q.Get("includeArtifacts"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, errs.BadField("includeArtifacts", "is not true or false: %q", v)
		}
		p.IncludeArtifacts = &b
	}
	return p, nil
}

// streamREST answers a streaming call as Server-Sent Events whose data
// are StreamResponses; an error before the first event is a plain error
// response, one after it an "error" event with the status.
func (h *Handler) streamREST(w http.ResponseWriter, r *http.Request, run func(emitter) error) {
	sse := newSSE(w)
	err := run(func(ev *StreamResponse) error {
		if ev == nil {
			return sse.comment()
		}
		return sse.event("", ev)
	})
	if err == nil {
		return
	}
	if !sse.started {
		h.writeREST(w, r, err)
		return
	}
	_, body := restErrorOf(h.statusOfError(r.Context(), err))
	b, _ := json.Marshal(body)
	_ = sse.event("error", json.RawMessage(b))
}

// unescape is a path segment unescaped, as it is when it does not unescape.
func unescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// pushRoute names a push-notification-config operation; what follows
// ".../pushNotificationConfigs" is "" or "/{id}".
func pushRoute(method, config string) string {
	switch {
	case config == "" && method == http.MethodPost:
		return "push-create"
	case config == "" && method == http.MethodGet:
		return "push-list"
	case strings.HasPrefix(config, "/") && method == http.MethodGet:
		return "push-get"
	case strings.HasPrefix(config, "/") && method == http.MethodDelete:
		return "push-delete"
	}
	return ""
}

// pushOne gets or deletes one config; target is "{task}/{config}".
func (h *Handler) pushOne(ctx context.Context, a *agent, route, target string) (any, error) {
	task, config, _ := strings.Cut(target, "/")
	p := &PushConfigRequest{TaskID: task, ID: unescape(config)}
	if route == "push-get" {
		return h.getPush(ctx, a, p)
	}
	return h.deletePush(ctx, a, p)
}
