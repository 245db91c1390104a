package service

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/runsvc/runsvc/internal/errs"
)

// DefaultMaxRequestBytes is the largest request runsvc decodes, the same
// as grpc-go's default receive limit.
const DefaultMaxRequestBytes = 4 << 20

// apiPackage prefixes the messages whose decode failures the Codec
// reports through the error table; other services' messages (health,
// reflection) keep grpc's own handling.
const apiPackage = "runsvc.v1."

// Codec is the server's proto codec. grpc-go turns any codec error into a
// bare INTERNAL status, so for a runsvc.v1 request that does not decode
// (invalid UTF-8, nesting past protobuf's recursion limit, garbage bytes,
// more than the size limit) the Codec leaves the message empty, keeps the
// problem, and returns nil; the Codec's interceptors then fail the call
// with that *errs.InvalidRequest before a handler sees the message. Put
// them right inside the interceptor that maps errors to statuses, before
// any that may end a call early (a unary call's problem is forgotten only
// when its interceptor runs).
type Codec struct {
	proto    encoding.CodecV2
	maxBytes int
	// failed maps a message that did not decode to its problem, until
	// an interceptor takes it.
	failed sync.Map
}

// NewCodec returns a Codec that refuses requests over maxBytes; zero
// means DefaultMaxRequestBytes. The grpc server's own receive limit must
// be higher, or grpc-go refuses larger messages first, without details.
func NewCodec(maxBytes int) *Codec {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxRequestBytes
	}
	return &Codec{proto: encoding.GetCodecV2("proto"), maxBytes: maxBytes}
}

// Name implements encoding.CodecV2: "proto", as grpc's own codec.
func (c *Codec) Name() string { return "proto" }

// Marshal implements encoding.CodecV2 with grpc's proto codec; an
// *Encoded goes out as the bytes it holds.
func (c *Codec) Marshal(v any) (mem.BufferSlice, error) {
	if e, ok := v.(*Encoded); ok {
		return marshalEncoded(e), nil
	}
	return c.proto.Marshal(v)
}

// Unmarshal implements encoding.CodecV2; see Codec for what it does with a
// runsvc.v1 request that does not decode.
func (c *Codec) Unmarshal(data mem.BufferSlice, v any) error {
	m, ok := v.(proto.Message)
	if !ok || !strings.HasPrefix(string(m.ProtoReflect().Descriptor().FullName()), apiPackage) {
		return c.proto.Unmarshal(data, v)
	}
	bad := c.Decode(data.Materialize(), m)
	if bad != nil {
		c.failed.Store(v, bad)
	}
	return nil
}

// Decode decodes b into m, returning what is wrong with b as an
// *errs.InvalidRequest (m is then left empty), or nil.
func (c *Codec) Decode(b []byte, m proto.Message) *errs.InvalidRequest {
	name := m.ProtoReflect().Descriptor().FullName()
	if len(b) > c.maxBytes {
		proto.Reset(m)
		return errs.BadField("", "the request is %d bytes; at most %d are accepted", len(b), c.maxBytes)
	}
	err := proto.Unmarshal(b, m)
	if err == nil {
		return nil
	}
	proto.Reset(m)
	text := err.Error()
	switch {
	case strings.Contains(text, "invalid UTF-8"):
		field, _ := invalidString(m.ProtoReflect().Descriptor(), b, "", 0)
		return errs.BadField(field, "is not valid UTF-8; runsvc accepts only UTF-8 in strings and Struct keys")
	case strings.Contains(text, "recursion depth"):
		return errs.BadField("", "the request nests messages deeper than %d levels (a Struct or ListValue level counts as more than one)", 10000)
	}
	// protobuf's own text ("proto: cannot parse invalid wire-format data",
	// with a non-breaking space) says nothing more and is no runsvc sentence.
	return errs.BadField("", "the request does not decode as a %s: its bytes are not valid protobuf wire format (cut short, or a length or field type that does not fit)", name)
}

// maxPathDepth bounds how deep invalidString looks.
const maxPathDepth = 100

// invalidString returns the dotted path ("spec.tools[2].name") of the
// first string field in b that is not valid UTF-8, searching messages up
// to maxPathDepth deep; map entries are numbered like repeated fields.
func invalidString(md protoreflect.MessageDescriptor, b []byte, prefix string, depth int) (string, bool) {
	seen := map[protowire.Number]int{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return "", false
		}
		b = b[n:]
		fd := md.Fields().ByNumber(num)
		if fd == nil || typ != protowire.BytesType {
			if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
				return "", false
			}
			b = b[n:]
			continue
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return "", false
		}
		b = b[n:]
		path := prefix + string(fd.Name())
		if fd.Cardinality() == protoreflect.Repeated {
			path = fmt.Sprintf("%s[%d]", path, seen[num])
			seen[num]++
		}
		switch {
		case fd.Kind() == protoreflect.StringKind && !utf8.Valid(v):
			return path, true
		case fd.Kind() == protoreflect.MessageKind && depth < maxPathDepth:
			if p, ok := invalidString(fd.Message(), v, path+".", depth+1); ok {
				return p, true
			}
		}
	}
	return "", false
}

// take returns and forgets the problem recorded for m, or nil.
func (c *Codec) take(m any) error {
	if bad, ok := c.failed.LoadAndDelete(m); ok {
		return bad.(*errs.InvalidRequest)
	}
	return nil
}

// UnaryServerInterceptor fails a call whose request did not decode.
func (c *Codec) UnaryServerInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if err := c.take(req); err != nil {
			return nil, err
		}
		return handler(ctx, req)
	}
}

// StreamServerInterceptor fails a stream's RecvMsg for a message that did
// not decode.
func (c *Codec) StreamServerInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		return handler(srv, &checkedStream{ServerStream: ss, codec: c})
	}
}

// checkedStream is a ServerStream whose RecvMsg reports decode failures.
type checkedStream struct {
	grpc.ServerStream
	codec *Codec
}

// RecvMsg receives m, or fails with what kept it from decoding.
func (s *checkedStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return brokenStream(err)
	}
	return s.codec.take(m)
}

// brokenStream is *errs.InvalidRequest for what grpc-go's RecvMsg reports
// of a request stream that broke the protocol, as INTERNAL: a message cut
// short (io.ErrUnexpectedEOF) or, for a method taking one request, none
// or several (a "cardinality violation"). HTTP clients can send those
// (grpc.Server.ServeHTTP under the transcoder); they are the caller's
// mistake, not the server's. Every other error, io.EOF included, passes.
func brokenStream(err error) error {
	st, ok := status.FromError(err)
	if !ok || st.Code() != codes.Internal {
		return err
	}
	if msg := st.Message(); msg == io.ErrUnexpectedEOF.Error() || strings.HasPrefix(msg, "cardinality violation") {
		return errs.BadField("", "the request stream broke the protocol: %s", msg)
	}
	return err
}

// UnknownMethod answers a method or service the server does not have with
// *errs.MethodNotFound; use it with grpc.UnknownServiceHandler.
func UnknownMethod(_ any, stream grpc.ServerStream) error {
	method, _ := grpc.Method(stream.Context())
	if method == "" {
		method = "(unnamed)"
	}
	return &errs.MethodNotFound{Method: method}
}
