package errdetails

import (
	"sync/atomic"

	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// The interceptors encode a status once, not once per RPC. Given a status
// with details, grpc-go marshals the whole google.rpc.Status again on
// every error (transport's writeStatus) and sends it, base64, as the
// grpc-status-details-bin trailer; given one without details, it sends a
// grpc-status-details-bin trailer the handler set as it is (the key is
// not reserved, and it is only replaced when the status has details). So
// a wireForm holds the status marshalled once, set as that trailer, and
// the same code and message without details as the error grpc-go sees:
// the client reads the same bytes in the same trailer (status.Details,
// every client library, proxies), and anything in the process reading
// the returned error (Observe, otelgrpc, metrics) sees the same code and
// message. BENCHMARKS.md ("The floors", rich errors) has the cost it saves.

// statusDetailsTrailer is the trailer grpc carries a google.rpc.Status in.
const statusDetailsTrailer = "grpc-status-details-bin"

// wireForm is an Outcome as the interceptors send it.
type wireForm struct {
	// err has the status's code and message, without details.
	err error
	// trailer holds the pushback and, when the status has details, the
	// marshalled status. It is shared: grpc copies what it is given.
	trailer metadata.MD
	// logged are the LogReporter handlers with this status's attributes
	// formatted, one per logger and method (see LogReporter.preformatted).
	logged atomic.Pointer[[]preformattedLog]
}

// newWire encodes an Outcome for the wire. A status without details (or
// one that does not marshal, which grpc-go would only log) goes as it is.
func newWire(o *Outcome) *wireForm {
	md := metadata.MD{PushbackTrailer: []string{o.Pushback()}}
	p := o.Status.Proto()
	if len(p.GetDetails()) == 0 {
		return &wireForm{err: o.Status.Err(), trailer: md}
	}
	b, err := proto.Marshal(p)
	if err != nil {
		return &wireForm{err: o.Status.Err(), trailer: md}
	}
	md[statusDetailsTrailer] = []string{string(b)}
	return &wireForm{err: status.New(o.Status.Code(), o.Status.Message()).Err(), trailer: md}
}

// wireOf is the Outcome's wire form: the one built when it was
// remembered, or a new one.
func (o *Outcome) wireOf() *wireForm {
	if o.wire != nil {
		return o.wire
	}
	return newWire(o)
}
