package a2a

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"

	codepb "google.golang.org/genproto/googleapis/rpc/code"
	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
)

// Paths of the A2A surface.
const (
	// WellKnownCard is the Agent Card path A2A clients look at first. At
	// the root it describes the caller's tenant's first exposed Spec by
	// name; under PathPrefix+"{spec}/" it describes that Spec.
	WellKnownCard = "/.well-known/agent-card.json"
	// PathPrefix is where the agents are: PathPrefix+"{spec}" is a Spec's
	// JSON-RPC endpoint, PathPrefix+"{spec}/rest" its HTTP+JSON base URL.
	PathPrefix = "/a2a/"
)

// Options configures the A2A surface.
type Options struct {
	// API is the HTTP API's handler, which the A2A calls become calls of.
	API http.Handler
	// Mapper maps the errors found here through the error table.
	Mapper *errdetails.Mapper
	// MaxRequestBytes is the largest request body read.
	MaxRequestBytes int64
	// MutualTLS says clients may authenticate with a certificate (the
	// card lists the mTLS scheme).
	MutualTLS bool
	// Push keeps tasks' push-notification configs; nil (a store keeping no
	// webhooks) answers their methods PUSH_NOTIFICATION_NOT_SUPPORTED.
	Push Pushes
	// Tenant is the tenant of an A2A request's caller (its credentials),
	// which push configs are stored under.
	Tenant func(r *http.Request) (string, error)
}

// Handler serves the A2A surface.
type Handler struct {
	b      *backend
	mapper *errdetails.Mapper
	opts   Options
}

// New returns the A2A surface's handler.
func New(opts Options) *Handler {
	if opts.MaxRequestBytes <= 0 {
		opts.MaxRequestBytes = 4 << 20
	}
	return &Handler{b: newBackend(opts.API), mapper: opts.Mapper, opts: opts}
}

// Owns reports whether a request is the A2A surface's.
func Owns(r *http.Request) bool {
	return r.URL.Path == WellKnownCard || strings.HasPrefix(r.URL.Path, PathPrefix)
}

// ServeHTTP routes an A2A request: a card, the JSON-RPC endpoint, or a
// REST path.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	r = r.WithContext(withCaller(r.Context(), r))
	if r.URL.Path == WellKnownCard {
		if r.Method != http.MethodGet {
			h.writeREST(w, r, &errs.MethodNotFound{Method: r.Method + " " + r.URL.Path})
			return
		}
		h.serveDefaultCard(w, r)
		return
	}
	name, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, PathPrefix), "/")
	switch {
	case name == "":
		h.writeREST(w, r, &errs.MethodNotFound{Method: r.Method + " " + r.URL.Path})
	case rest == "" || rest == "jsonrpc":
		h.serveJSONRPC(w, r, name)
	case rest == ".well-known/agent-card.json" && r.Method == http.MethodGet:
		h.serveCard(w, r, name)
	case versionError(r) != nil && (rest == "rest" || strings.HasPrefix(rest, "rest/")):
		h.writeREST(w, r, versionError(r))
	case rest == "rest" || strings.HasPrefix(rest, "rest/"):
		h.serveREST(w, r, name, strings.TrimPrefix(rest, "rest"))
	default:
		h.writeREST(w, r, &errs.MethodNotFound{Method: r.Method + " " + r.URL.Path})
	}
}

// versionError refuses an A2A-Version other than 1.0 (none is 1.0's
// client too: the spec says a missing header means 0.3, but a 0.3 client
// fails on the methods' names anyway, with METHOD_NOT_FOUND).
func versionError(r *http.Request) error {
	v := r.Header.Get("A2A-Version")
	if v == "" {
		v = r.URL.Query().Get("A2A-Version") // the spec allows it as a parameter
	}
	if v != "" && v != "1.0" && v != "1" {
		return &errs.VersionNotSupported{Version: v}
	}
	return nil
}

// readBody reads a request body up to the limit.
func (h *Handler) readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, h.opts.MaxRequestBytes+1))
	if err != nil {
		return nil, errs.BadField("", "the request body could not be read: %v", err)
	}
	if int64(len(b)) > h.opts.MaxRequestBytes {
		return nil, errs.BadField("", "the request is more than %d bytes", h.opts.MaxRequestBytes)
	}
	return b, nil
}

// writeJSON writes v as the response.
func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"error":{"code":500,"status":"INTERNAL","message":"the response could not be encoded"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(b)
}

// restError is google.rpc.Status as A2A's HTTP+JSON binding (and AIP-193)
// sends it.
type restError struct {
	Error restStatus `json:"error"`
}

type restStatus struct {
	Code    int               `json:"code"`
	Status  string            `json:"status"`
	Message string            `json:"message"`
	Details []json.RawMessage `json:"details"`
}

// restErrorOf is st as A2A's HTTP+JSON error body, with its HTTP status.
func restErrorOf(st *spb.Status) (int, restError) {
	code := errdetails.HTTPStatus(codes.Code(st.GetCode()))
	return code, restError{Error: restStatus{Code: code, Status: codepb.Code_name[st.GetCode()], Message: st.GetMessage(), Details: detailsJSON(st)}}
}

// writeREST answers r with err as google.rpc.Status JSON.
func (h *Handler) writeREST(w http.ResponseWriter, r *http.Request, err error) {
	st := h.statusOfError(r.Context(), err)
	setRetryAfter(w, st)
	code, body := restErrorOf(st)
	writeJSON(w, code, body)
}

// setRetryAfter sets Retry-After from a status's RetryInfo.
func setRetryAfter(w http.ResponseWriter, st *spb.Status) {
	for _, a := range st.GetDetails() {
		ri := &edpb.RetryInfo{}
		if a.MessageIs(ri) && a.UnmarshalTo(ri) == nil {
			w.Header().Set("Retry-After", strconv.FormatInt(int64(math.Ceil(ri.GetRetryDelay().AsDuration().Seconds())), 10))
		}
	}
}
