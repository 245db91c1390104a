package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
)

// errorService is the name of the hand-made service the error path is
// measured on.
const errorService = "runsvc.bench.v1.ErrorPath"

// errorCase is one method of the error-path server: what its handler
// returns, and the code the client must see.
type errorCase struct {
	name string
	// err is the handler's error; nil for the success.
	err func() error
	// bypass makes the handler skip the interceptor, as a grpc-go service
	// without runsvc's table returns a plain status.
	bypass bool
	// rich cases are compared with plain and success; diag ones are only
	// diagnostics, not judged against the targets.
	rich, diag bool
	// quiet sends the case through an interceptor whose log discards its
	// lines, to show what the per-error log line costs.
	quiet bool
	// chained sends a plain status through the server's chain without the
	// Mapper (Observe with the log reporter, and Recover): what every
	// failed RPC of the server pays besides the table's details.
	chained bool
	// prebuilt returns, bypassing the interceptor, the status the table
	// gives err, built once at start, with its pushback trailer: what
	// carrying the details costs on the wire alone.
	prebuilt bool
	// trailer is set by a prebuilt case's handler.
	trailer metadata.MD
	code    codes.Code
	// details names the detail types the status carries, checked once.
	details string
}

// errorCases are the methods measured side by side. No row of the table
// gives ErrorInfo + RetryInfo + BadRequest together (every BadRequest
// reason is non-retryable), so the rich error is measured as three rows:
// ErrorInfo+BadRequest, ErrorInfo+RetryInfo, and the richest retryable
// row, ErrorInfo+RetryInfo+QuotaFailure.
func errorCases() []errorCase {
	// retry is the error of rich-retry and of the diagnostics beside it.
	retry := func() error {
		return &errs.TransientFailure{Operation: "fetch", Message: "upstream unavailable: connection refused", RetryAfter: 2 * time.Second}
	}
	return []errorCase{
		{name: "success", code: codes.OK},
		{name: "plain", bypass: true, code: codes.Unavailable,
			err: func() error { return status.Error(codes.Unavailable, "upstream unavailable: connection refused") }},
		{name: "rich-badrequest", rich: true, code: codes.InvalidArgument, details: "ErrorInfo,BadRequest",
			err: func() error {
				return &errs.InvalidRequest{Violations: []errs.FieldViolation{
					{Field: "spec", Description: "is required"},
					{Field: "input", Description: "is 70000 bytes; at most 65536 are allowed"},
					{Field: "deadline", Description: "must be at most 24h0m0s"},
				}}
			}},
		{name: "rich-retry", rich: true, code: codes.Unavailable, details: "ErrorInfo,RetryInfo",
			err: retry},
		{name: "rich-quota", rich: true, code: codes.ResourceExhausted, details: "ErrorInfo,RetryInfo,QuotaFailure",
			err: func() error {
				return &errs.InferenceRateLimited{Provider: "openai", Model: "gpt-4o-mini", Message: "429 Too Many Requests", RetryAfter: 2 * time.Second}
			}},
		{name: "diag-retry-nolog", rich: true, diag: true, quiet: true, code: codes.Unavailable, details: "ErrorInfo,RetryInfo",
			err: retry},
		{name: "diag-retry-prebuilt", rich: true, diag: true, bypass: true, prebuilt: true, code: codes.Unavailable, details: "ErrorInfo,RetryInfo",
			err: retry},
		{name: "diag-plain-chain", rich: true, diag: true, chained: true, code: codes.Unavailable,
			err: func() error { return status.Error(codes.Unavailable, "upstream unavailable: connection refused") }},
	}
}

// errorServer is the error-path server: the real errdetails interceptor
// in front of one method per errorCase.
type errorServer struct {
	srv         *grpc.Server
	addr        string
	mapper      *errdetails.Mapper
	quietMapper *errdetails.Mapper
}

func startErrorServer(log *slog.Logger) (*errorServer, error) {
	mapper := errdetails.New(errdetails.Options{Logger: log})
	quiet := errdetails.New(errdetails.Options{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	unary, _ := mapper.ServerInterceptors(mapper.LogReporter())
	srv := grpc.NewServer(grpc.ChainUnaryInterceptor(unary...))
	desc := grpc.ServiceDesc{ServiceName: errorService, HandlerType: (*any)(nil)}
	quietIC := quiet.UnaryServerInterceptor()
	observe, _ := errdetails.Observe(mapper.LogReporter())
	recoverIC, _ := errdetails.Recover()
	chainIC := chainUnary([]grpc.UnaryServerInterceptor{observe, recoverIC})
	for _, c := range errorCases() {
		var ic grpc.UnaryServerInterceptor
		switch {
		case c.quiet:
			ic = quietIC
		case c.chained:
			ic = chainIC
		}
		if c.prebuilt {
			o := mapper.Map(context.Background(), c.err())
			pre := o.Status.Err()
			c.err = func() error { return pre }
			c.trailer = metadata.Pairs(errdetails.PushbackTrailer, o.Pushback())
		}
		desc.Methods = append(desc.Methods, grpc.MethodDesc{MethodName: methodName(c.name), Handler: errorHandler(c, ic)})
	}
	srv.RegisterService(&desc, struct{}{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	go func() { _ = srv.Serve(lis) }()
	return &errorServer{srv: srv, addr: lis.Addr().String(), mapper: mapper, quietMapper: quiet}, nil
}

// methodName turns "rich-badrequest" into "RichBadrequest".
func methodName(name string) string {
	var b strings.Builder
	for _, part := range strings.Split(name, "-") {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

func fullMethod(name string) string { return "/" + errorService + "/" + methodName(name) }

// errorHandler is what protoc-gen-go-grpc would generate for a unary
// method, except that a bypassing case never calls the interceptor, and
// that own, when set, replaces the server's interceptor.
func errorHandler(c errorCase, own grpc.UnaryServerInterceptor) grpc.MethodHandler {
	fn := func(ctx context.Context, req any) (any, error) {
		if c.trailer != nil {
			_ = grpc.SetTrailer(ctx, c.trailer)
		}
		if c.err != nil {
			return nil, c.err()
		}
		return wrapperspb.String(req.(*wrapperspb.StringValue).GetValue()), nil
	}
	info := &grpc.UnaryServerInfo{Server: struct{}{}, FullMethod: fullMethod(c.name)}
	return func(_ any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
		in := new(wrapperspb.StringValue)
		if err := dec(in); err != nil {
			return nil, err
		}
		if own != nil {
			interceptor = own
		}
		if interceptor == nil || c.bypass {
			return fn(ctx, in)
		}
		return interceptor(ctx, in, info, fn)
	}
}

// errorCall returns the client call of a case; it fails when the code or
// (when asked) the detail types are not what the case promises.
func errorCall(conn *grpc.ClientConn, c errorCase) call {
	req := wrapperspb.String("run_01J9Z6Q4X8D3K2M7N5P0R1S2T3")
	method := fullMethod(c.name)
	return func(ctx context.Context) error {
		err := conn.Invoke(ctx, method, req, new(wrapperspb.StringValue))
		if got := status.Code(err); got != c.code {
			return fmt.Errorf("%s: code %v, want %v (%v)", c.name, got, c.code, err)
		}
		return nil
	}
}

// checkDetails calls a case once and checks the detail types its status
// carries, in order; it returns the encoded size of the status.
func checkDetails(ctx context.Context, conn *grpc.ClientConn, c errorCase) (int, error) {
	err := conn.Invoke(ctx, fullMethod(c.name), wrapperspb.String("x"), new(wrapperspb.StringValue))
	st := status.Convert(err)
	if st.Code() != c.code {
		return 0, fmt.Errorf("%s: code %v, want %v", c.name, st.Code(), c.code)
	}
	var names []string
	for _, d := range st.Details() {
		m, ok := d.(proto.Message)
		if !ok {
			return 0, fmt.Errorf("%s: undecodable detail %v", c.name, d)
		}
		names = append(names, string(m.ProtoReflect().Descriptor().Name()))
	}
	if got := strings.Join(names, ","); got != c.details {
		return 0, fmt.Errorf("%s: details %q, want %q", c.name, got, c.details)
	}
	if err == nil {
		return 0, nil
	}
	return proto.Size(st.Proto()), nil
}

// errorPathResult is section 1 of the report.
type errorPathResult struct {
	// ByConcurrency holds, per concurrency, each case's stat.
	ByConcurrency map[int]map[string]stat `json:"byConcurrency"`
	// Ratios holds, per concurrency and rich case, its ratios to plain and
	// success.
	Ratios map[int]map[string]errorRatios `json:"ratios"`
	// Costs holds, per case, allocations and sizes.
	Costs map[string]errorCost `json:"costs"`
}

// errorRatios compares a rich case with the plain error and the success.
type errorRatios struct {
	// Throughput ratios are calls/s over calls/s; P50 ratios are latency
	// over latency (above 1 is slower).
	ThroughputVsPlain   float64 `json:"throughputVsPlain"`
	P50VsPlain          float64 `json:"p50VsPlain"`
	ThroughputVsSuccess float64 `json:"throughputVsSuccess"`
	P50VsSuccess        float64 `json:"p50VsSuccess"`
}

// errorCost is where a case's cost goes, measured call by call.
type errorCost struct {
	// Details names the detail types of the status, in order.
	Details string `json:"details"`
	// StatusBytes is the encoded google.rpc.Status (sent base64 in the
	// grpc-status-details-bin trailer).
	StatusBytes int `json:"statusBytes"`
	// AllocsPerCall and BytesPerCall are the whole process's (client and
	// server) per sequential RPC.
	AllocsPerCall float64 `json:"allocsPerCall"`
	BytesPerCall  float64 `json:"bytesPerCall"`
	// MapAllocs and MapNs are Mapper.Map plus Status.Err alone.
	MapAllocs float64 `json:"mapAllocs"`
	MapNs     float64 `json:"mapNs"`
	// InterceptorAllocs and InterceptorNs are the unary interceptor around
	// a handler returning the error, outside gRPC: mapping, the pushback
	// trailer and the log line.
	InterceptorAllocs float64 `json:"interceptorAllocs"`
	InterceptorNs     float64 `json:"interceptorNs"`
}

func runErrorPath(ctx context.Context, cfg config, log *slog.Logger) (*errorPathResult, error) {
	es, err := startErrorServer(log)
	if err != nil {
		return nil, err
	}
	defer es.srv.Stop()
	conn, err := dial(es.addr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()

	res := &errorPathResult{ByConcurrency: map[int]map[string]stat{}, Ratios: map[int]map[string]errorRatios{}, Costs: map[string]errorCost{}}
	var vs []variant
	for _, c := range errorCases() {
		size, err := checkDetails(ctx, conn, c)
		if err != nil {
			return nil, err
		}
		res.Costs[c.name] = errorCost{Details: c.details, StatusBytes: size}
		vs = append(vs, variant{name: c.name, do: errorCall(conn, c)})
	}
	for _, conc := range cfg.concurrencies {
		progress("error path: concurrency %d", conc)
		stats := interleaved(ctx, vs, conc, cfg.measure, cfg.warm, cfg.rounds)
		res.ByConcurrency[conc] = stats
		res.Ratios[conc] = map[string]errorRatios{}
		for _, c := range errorCases() {
			if !c.rich {
				continue
			}
			r, p, s := stats[c.name], stats["plain"], stats["success"]
			res.Ratios[conc][c.name] = errorRatios{
				ThroughputVsPlain: ratio(r.PerSec, p.PerSec), P50VsPlain: ratio(r.P50Ms, p.P50Ms),
				ThroughputVsSuccess: ratio(r.PerSec, s.PerSec), P50VsSuccess: ratio(r.P50Ms, s.P50Ms),
			}
		}
	}
	progress("error path: allocations")
	for _, c := range errorCases() {
		cost := res.Costs[c.name]
		cost.AllocsPerCall, cost.BytesPerCall = allocsPerRPC(ctx, errorCall(conn, c), 2000)
		m := es.mapper
		if c.quiet {
			m = es.quietMapper
		}
		cost.MapAllocs, cost.MapNs, cost.InterceptorAllocs, cost.InterceptorNs = mappingCost(m, c)
		res.Costs[c.name] = cost
	}
	return res, nil
}

// allocsPerRPC makes n sequential calls and returns the process's
// allocations and bytes allocated per call, client and server together.
func allocsPerRPC(ctx context.Context, do call, n int) (float64, float64) {
	for range 200 {
		_ = do(ctx)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		_ = do(ctx)
	}
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs-before.Mallocs) / float64(n), float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
}

// mappingCost measures, outside gRPC, the allocations and time of mapping
// a case's error, and of the server's whole chain around a handler
// returning it: Observe with the Mapper's log reporter, the Mapper (its
// trailers set on a stand-in for grpc's stream) and Recover. The plain
// case bypasses both and costs nothing here.
func mappingCost(m *errdetails.Mapper, c errorCase) (mapAllocs, mapNs, icAllocs, icNs float64) {
	if c.err == nil || c.bypass || c.chained {
		return 0, 0, 0, 0
	}
	ctx := context.Background()
	mapOnce := func() { _ = m.Map(ctx, c.err()).Status.Err() }
	icOnce := chainCall(m, c)
	mapAllocs = testing.AllocsPerRun(1000, mapOnce)
	icAllocs = testing.AllocsPerRun(1000, icOnce)
	mapNs = nsPerOp(mapOnce)
	icNs = nsPerOp(icOnce)
	return mapAllocs, mapNs, icAllocs, icNs
}

// chainCall returns one call of the server's unary chain (Observe with
// the Mapper's log reporter, the Mapper, Recover) around a handler that
// returns the case's error, outside gRPC: the trailers land on a
// stand-in for grpc's stream, as they do in a server.
func chainCall(m *errdetails.Mapper, c errorCase) func() {
	unary, _ := m.ServerInterceptors(m.LogReporter())
	ic := chainUnary(unary)
	info := &grpc.UnaryServerInfo{FullMethod: fullMethod(c.name)}
	handler := func(context.Context, any) (any, error) { return nil, c.err() }
	req := wrapperspb.String("run_01J9Z6Q4X8D3K2M7N5P0R1S2T3")
	return func() {
		ctx := grpc.NewContextWithServerTransportStream(context.Background(), &trailerStream{method: info.FullMethod})
		_, _ = ic(ctx, req, info, handler)
	}
}

// chainUnary chains interceptors, outermost first, as
// grpc.ChainUnaryInterceptor does.
func chainUnary(ics []grpc.UnaryServerInterceptor) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		next := handler
		for i := len(ics) - 1; i >= 0; i-- {
			ic, inner := ics[i], next
			next = func(ctx context.Context, req any) (any, error) { return ic(ctx, req, info, inner) }
		}
		return next(ctx, req)
	}
}

// trailerStream is a stand-in for grpc's server stream that keeps the
// trailers set on it, joined as grpc joins them.
type trailerStream struct {
	method  string
	trailer metadata.MD
}

// Method implements grpc.ServerTransportStream.
func (s *trailerStream) Method() string { return s.method }

// SetHeader implements grpc.ServerTransportStream.
func (s *trailerStream) SetHeader(metadata.MD) error { return nil }

// SendHeader implements grpc.ServerTransportStream.
func (s *trailerStream) SendHeader(metadata.MD) error { return nil }

// SetTrailer implements grpc.ServerTransportStream.
func (s *trailerStream) SetTrailer(md metadata.MD) error {
	s.trailer = metadata.Join(s.trailer, md)
	return nil
}

// nsPerOp times fn over about 200ms.
func nsPerOp(fn func()) float64 {
	n := 0
	start := time.Now()
	for time.Since(start) < 200*time.Millisecond {
		for range 100 {
			fn()
		}
		n += 100
	}
	return float64(time.Since(start).Nanoseconds()) / float64(n)
}
