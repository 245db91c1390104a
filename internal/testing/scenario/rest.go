package scenario

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/genproto/googleapis/rpc/code"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"
)

// REST makes a Runner's calls over REST/JSON with net/http only: each
// method at the path its google.api.http rule gives, the rule's body as
// proto3 JSON, the other fields as query parameters, and a server stream
// read as Server-Sent Events.
type REST struct {
	// URL is the HTTP API's base, "http://127.0.0.1:port".
	URL string
}

// RESTForm reports whether method ("Service/Method") has a REST form: a
// google.api.http rule. Client and bidi streams have none.
func RESTForm(method string) bool {
	md, err := methodDescriptor(method)
	return err == nil && httpRule(md) != nil
}

func httpRule(md protoreflect.MethodDescriptor) *annotations.HttpRule {
	r, _ := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
	if r.GetPattern() == nil {
		return nil
	}
	return r
}

// Call implements Transport.
func (t REST) Call(ctx context.Context, method, reqJSON string) (map[string]any, *Outcome, error) {
	resp, md, err := t.send(ctx, method, reqJSON)
	if err != nil {
		return nil, nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, nil, err
		}
		o, err := restOutcome(b, resp.StatusCode)
		if err != nil {
			return nil, nil, err
		}
		o.RetryAfter = resp.Header.Get("Retry-After")
		return nil, o, nil
	}
	if md.IsStreamingServer() {
		return readEvents(resp.Body, false)
	}
	var out map[string]any
	return out, nil, json.NewDecoder(resp.Body).Decode(&out)
}

// Hold implements Transport: the stream's events, until the first.
func (t REST) Hold(ctx context.Context, method, reqJSON string) error {
	resp, _, err := t.send(ctx, method, reqJSON)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		defer func() { _ = resp.Body.Close() }()
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("HTTP %d: %s", resp.StatusCode, b)
	}
	go func() { <-ctx.Done(); _ = resp.Body.Close() }()
	_, failed, err := readEvents(resp.Body, true)
	if err == nil && failed != nil {
		err = fmt.Errorf("the stream failed: %v", failed.Status)
	}
	return err
}

// send makes the HTTP request of a call.
func (t REST) send(ctx context.Context, method, reqJSON string) (*http.Response, protoreflect.MethodDescriptor, error) {
	md, err := methodDescriptor(method)
	if err != nil {
		return nil, nil, err
	}
	rule := httpRule(md)
	if rule == nil {
		return nil, nil, fmt.Errorf("%s has no REST form", method)
	}
	req, err := newMessage(md.Input())
	if err != nil {
		return nil, nil, err
	}
	if err := protojson.Unmarshal([]byte(reqJSON), req); err != nil {
		return nil, nil, fmt.Errorf("request %s: %w", reqJSON, err)
	}
	verb, path, body, err := restRequest(rule, req)
	if err != nil {
		return nil, nil, err
	}
	r, err := http.NewRequestWithContext(ctx, verb, t.URL+path, body)
	if err != nil {
		return nil, nil, err
	}
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	if md.IsStreamingServer() {
		r.Header.Set("Accept", "text/event-stream")
	}
	if key := APIKey(ctx); key != "" {
		r.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(r)
	return resp, md, err
}

var pathVar = regexp.MustCompile(`\{([a-z_.]+)\}`)

// RESTRequest is req, a request of method ("Service/Method"), as its
// google.api.http rule puts it on the wire: the verb, the path (with the
// query), and the body (nil for none).
func RESTRequest(method string, req proto.Message) (verb, path string, body io.Reader, err error) {
	md, err := methodDescriptor(method)
	if err != nil {
		return "", "", nil, err
	}
	rule := httpRule(md)
	if rule == nil {
		return "", "", nil, fmt.Errorf("%s has no REST form", method)
	}
	return restRequest(rule, req)
}

// restRequest is a request as its rule puts it on the wire: the verb, the
// path with its variables filled (and the fields neither in it nor in the
// body as query parameters), and the body.
func restRequest(rule *annotations.HttpRule, req proto.Message) (string, string, io.Reader, error) {
	verb, tmpl := ruleVerb(rule)
	b, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(req)
	if err != nil {
		return "", "", nil, err
	}
	fields := map[string]any{}
	if err := json.Unmarshal(b, &fields); err != nil {
		return "", "", nil, err
	}
	path := pathVar.ReplaceAllStringFunc(tmpl, func(v string) string {
		name := v[1 : len(v)-1]
		s := ""
		if f, ok := fields[name]; ok {
			s = fmt.Sprint(f)
		}
		delete(fields, name)
		return url.PathEscape(s)
	})
	var body io.Reader
	switch field := rule.GetBody(); field {
	case "":
	case "*":
		j, err := protojson.Marshal(req)
		if err != nil {
			return "", "", nil, err
		}
		return verb, path, bytes.NewReader(j), nil
	default:
		m := req.ProtoReflect()
		j, err := protojson.Marshal(m.Get(m.Descriptor().Fields().ByName(protoreflect.Name(field))).Message().Interface())
		if err != nil {
			return "", "", nil, err
		}
		body = bytes.NewReader(j)
		delete(fields, field)
	}
	q := url.Values{}
	addQuery(q, "", fields)
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	return verb, path, body, nil
}

// addQuery flattens proto3 JSON into query parameters: a.b=v, a list as
// the parameter repeated.
func addQuery(q url.Values, prefix string, v any) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			name := k
			if prefix != "" {
				name = prefix + "." + k
			}
			addQuery(q, name, v[k])
		}
	case []any:
		for _, e := range v {
			addQuery(q, prefix, e)
		}
	default:
		q.Add(prefix, fmt.Sprint(v))
	}
}

func ruleVerb(r *annotations.HttpRule) (string, string) {
	switch p := r.GetPattern().(type) {
	case *annotations.HttpRule_Get:
		return http.MethodGet, p.Get
	case *annotations.HttpRule_Post:
		return http.MethodPost, p.Post
	case *annotations.HttpRule_Delete:
		return http.MethodDelete, p.Delete
	case *annotations.HttpRule_Put:
		return http.MethodPut, p.Put
	case *annotations.HttpRule_Patch:
		return http.MethodPatch, p.Patch
	}
	return "", ""
}

// readEvents reads a Server-Sent Events stream to its end event (or, with
// first, to its first message) and returns the last message, or the
// Outcome of its error event.
func readEvents(r io.Reader, first bool) (map[string]any, *Outcome, error) {
	var last map[string]any
	event, retry, data := "", "", ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if line != "" {
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "event":
				event = value
			case "retry":
				retry = value
			case "data":
				data += value
			}
			continue
		}
		switch event {
		case "end":
			return last, nil, nil
		case "error":
			o, err := restOutcome([]byte(data), 0)
			if err == nil && retry != "" {
				ms, _ := strconv.Atoi(retry)
				o.RetryAfter = strconv.Itoa(ms / 1000)
			}
			return nil, o, err
		}
		if data != "" {
			last = map[string]any{}
			if err := json.Unmarshal([]byte(data), &last); err != nil {
				return nil, nil, fmt.Errorf("event %q: %w", data, err)
			}
			if first {
				return last, nil, nil
			}
		}
		event, retry, data = "", "", ""
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	return nil, nil, fmt.Errorf("the event stream ended without an end or error event")
}

// restOutcome reads an AIP-193 error body. Its error.code must be the
// HTTP status it came with (httpStatus; 0 for a stream's error event,
// which has only the body's).
func restOutcome(b []byte, httpStatus int) (*Outcome, error) {
	var body struct {
		Error struct {
			Code    int               `json:"code"`
			Message string            `json:"message"`
			Status  string            `json:"status"`
			Details []json.RawMessage `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(b, &body); err != nil || body.Error.Status == "" {
		return nil, fmt.Errorf("HTTP %d is not an AIP-193 error (%v): %s", httpStatus, err, b)
	}
	c, ok := code.Code_value[body.Error.Status]
	if !ok {
		return nil, fmt.Errorf("status %q is no google.rpc.Code: %s", body.Error.Status, b)
	}
	if httpStatus != 0 && body.Error.Code != httpStatus {
		return nil, fmt.Errorf("error.code %d on HTTP %d: %s", body.Error.Code, httpStatus, b)
	}
	st := &spb.Status{Code: c, Message: body.Error.Message}
	for _, d := range body.Error.Details {
		a := &anypb.Any{}
		if err := protojson.Unmarshal(d, a); err != nil {
			return nil, fmt.Errorf("detail %s: %w", d, err)
		}
		st.Details = append(st.Details, a)
	}
	return &Outcome{Status: st, RPC: true, REST: true, HTTPStatus: body.Error.Code}, nil
}
