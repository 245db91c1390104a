// Package httpapi serves runsvc's gRPC services over HTTP as well: REST/JSON
// (the google.api.http annotations on the protos), Connect (JSON and binary,
// unary and server streaming) and gRPC-Web, all transcoded by
// connectrpc.com/vanguard into gRPC calls of the same *grpc.Server. Those
// calls go through grpc.Server.ServeHTTP, so they run the server's whole
// interceptor chain (errors, admission, authentication, roles, quotas,
// drain): one API, one auth, one error table (DESIGN.md §10).
//
// What vanguard would answer by itself (a body that does not decode, an
// unknown route) is answered here through the same table instead, and REST
// errors are reshaped into AIP-193's {"error": {...}} with Retry-After.
package httpapi

import (
	"net/http"
	"strings"

	"connectrpc.com/connect"
	"connectrpc.com/vanguard"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
)

// Options configures the HTTP surface.
type Options struct {
	// Mapper maps the errors the HTTP layer finds itself (undecodable
	// bodies, unknown routes) through the error table.
	Mapper *errdetails.Mapper
	// MaxRequestBytes is the largest request body decoded; larger ones are
	// INVALID_REQUEST. It should be the gRPC codec's limit.
	MaxRequestBytes int
	// CORSOrigins are the origins whose browser pages may call the API
	// ("https://app.example.com", or "*"); none when empty.
	CORSOrigins []string
}

// bufferSlack is how much more than MaxRequestBytes vanguard buffers, so
// that a body just over the limit reaches the codec, which says
// INVALID_REQUEST with the size, rather than vanguard's bare limit error.
const bufferSlack = 4

// New returns the handler serving srv's services over REST, Connect and
// gRPC-Web (and gRPC, which it passes through). Register every service on
// srv first.
//
// It does what vanguardgrpc.NewTranscoder does (every service of srv,
// transcoded to gRPC with binary protobuf), but hands vanguard srv behind
// canonicalTrailers.
func New(srv *grpc.Server, opts Options) (http.Handler, error) {
	target := canonicalTrailers{srv}
	var services []*vanguard.Service
	for name := range srv.GetServiceInfo() {
		services = append(services, vanguard.NewService(name, target))
	}
	t, err := vanguard.NewTranscoder(services,
		vanguard.WithUnknownHandler(unknownRoute{opts.Mapper}),
		vanguard.WithCodec(func(res vanguard.TypeResolver) vanguard.Codec {
			return newJSONCodec(res, opts)
		}),
		// The gRPC server's codec is forced to binary protobuf, so vanguard
		// must decode JSON itself and send protobuf.
		vanguard.WithDefaultServiceOptions(
			vanguard.WithTargetProtocols(vanguard.ProtocolGRPC),
			vanguard.WithTargetCodecs(vanguard.CodecProto),
			vanguard.WithMaxMessageBufferBytes(uint32(opts.MaxRequestBytes*bufferSlack)),
		),
	)
	if err != nil {
		return nil, err
	}
	doc, err := openAPIJSON()
	if err != nil {
		return nil, err
	}
	return withCORS(nativeGRPC{grpc: srv, other: restErrors{next: rpcErrors{next: t, mapper: opts.Mapper, maxBytes: opts.MaxRequestBytes}, mapper: opts.Mapper}, opts: opts, openAPI: serveOpenAPI(doc)}, opts.CORSOrigins), nil
}

// nativeGRPC hands native gRPC requests on the HTTP port straight to the
// gRPC server (there is nothing to transcode; canonicalTrailers is for
// vanguard's writer only) and everything else to the transcoder. A Connect
// unary call without the Connect-Protocol-Version header (curl, a
// hand-written client) is taken as Connect, as connect-go's own handlers
// take it; vanguard would look for a REST route.
type nativeGRPC struct {
	grpc    *grpc.Server
	other   http.Handler
	opts    Options
	openAPI http.Handler
}

func (n nativeGRPC) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ct := r.Header.Get("Content-Type")
	if r.ProtoMajor == 2 && strings.HasPrefix(ct, "application/grpc") && !strings.HasPrefix(ct, "application/grpc-web") {
		n.grpc.ServeHTTP(w, r)
		return
	}
	if wantsSSE(r) {
		n.serveSSE(w, r)
		return
	}
	if r.URL.Path == openAPIPath && r.Method == http.MethodGet {
		n.openAPI.ServeHTTP(w, r)
		return
	}
	if limit := int64(n.opts.MaxRequestBytes) * bufferSlack; r.ContentLength > limit {
		// Past vanguard's buffer, which would refuse it without details.
		bad := errs.BadField("", "the request is %d bytes; at most %d are accepted", r.ContentLength, n.opts.MaxRequestBytes)
		writeError(w, r, n.opts.Mapper.Map(r.Context(), bad).Status.Proto())
		return
	}
	if r.Header.Get("Connect-Protocol-Version") == "" && r.Method == http.MethodPost && isRPC(r) {
		r.Header.Set("Connect-Protocol-Version", "1")
	}
	n.other.ServeHTTP(w, r)
}

// canonicalTrailers serves gRPC through grpc.Server.ServeHTTP and then
// fixes the trailers it set for vanguard (v0.4.0). grpc-go adds the
// trailers a handler set (runsvc's errdetails interceptor sets
// grpc-status-details-bin and grpc-retry-pushback-ms itself, see
// errdetails/wire.go) as "Trailer:" plus their lower-case names. vanguard
// strips the prefix without canonicalising, then looks them up with
// http.Header.Get; and when the handler wrote nothing before its status
// (every error of a unary call), vanguard reads the status from the
// headers, where the prefixed ones are not. Without this a Connect client
// gets the code and message of an error but none of its details.
type canonicalTrailers struct{ grpc *grpc.Server }

func (c canonicalTrailers) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rw := &wroteWriter{ResponseWriter: w}
	c.grpc.ServeHTTP(rw, r)
	h := w.Header()
	for k, v := range h {
		name, ok := strings.CutPrefix(k, http.TrailerPrefix)
		if !ok {
			continue
		}
		delete(h, k)
		if rw.wrote {
			h[http.TrailerPrefix+http.CanonicalHeaderKey(name)] = v
		} else {
			h[http.CanonicalHeaderKey(name)] = v
		}
	}
}

// wroteWriter notes whether the response's headers went out.
type wroteWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *wroteWriter) WriteHeader(code int) {
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *wroteWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

// Flush implements http.Flusher, which grpc-go requires.
func (w *wroteWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// unknownRoute answers a path no service or REST rule has with
// METHOD_NOT_FOUND from the table, in the caller's protocol: a Connect,
// gRPC-Web or gRPC request as its client expects, anything else in
// AIP-193's shape.
type unknownRoute struct{ mapper *errdetails.Mapper }

var errorWriter = connect.NewErrorWriter()

func (u unknownRoute) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	method := r.URL.Path
	if !isRPC(r) {
		method = r.Method + " " + r.URL.Path
	}
	writeError(w, r, u.mapper.Map(r.Context(), &errs.MethodNotFound{Method: method}).Status.Proto())
}

// writeError answers r with st in its protocol's shape: as its client
// expects for Connect, gRPC-Web and gRPC (with the pushback trailer the
// interceptors give a handler's error), else AIP-193.
func writeError(w http.ResponseWriter, r *http.Request, st *spb.Status) {
	if isRPC(r) && errorWriter.IsSupported(r) {
		c := errdetails.ClassifyStatus(st)
		pushback := errdetails.Outcome{Retryable: c.Retryable, RetryDelay: c.RetryDelay}.Pushback()
		// In the headers: a gRPC or gRPC-Web error here is Trailers-Only,
		// and a Connect client reads headers as the error's metadata.
		// (connect's writer drops a grpc- key from the error's Meta.)
		w.Header().Set(errdetails.PushbackTrailer, pushback)
		_ = errorWriter.Write(w, r, connectError(st))
		return
	}
	writeREST(w, st)
}
