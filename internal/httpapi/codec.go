package httpapi

import (
	"context"
	"errors"
	"regexp"
	"strings"

	"connectrpc.com/connect"
	"connectrpc.com/vanguard"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
)

// jsonCodec is vanguard's JSON codec (proto3 JSON field names, the type
// resolver for Any) refusing unknown fields, whose failures to decode a
// request are INVALID_REQUEST from the table, with a BadRequest naming the
// field, as the gRPC codec's are: vanguard passes a *connect.Error it is
// given on to the client as it is.
type jsonCodec struct {
	*vanguard.JSONCodec
	mapper   *errdetails.Mapper
	maxBytes int
}

func newJSONCodec(res vanguard.TypeResolver, opts Options) *jsonCodec {
	c := vanguard.NewJSONCodec(res)
	c.UnmarshalOptions.DiscardUnknown = false
	return &jsonCodec{JSONCodec: c, mapper: opts.Mapper, maxBytes: opts.MaxRequestBytes}
}

// Unmarshal implements vanguard.Codec.
func (c *jsonCodec) Unmarshal(b []byte, m proto.Message) error {
	if len(b) > c.maxBytes {
		return c.refuse(errs.BadField("", "the request is %d bytes; at most %d are accepted", len(b), c.maxBytes))
	}
	if err := c.JSONCodec.Unmarshal(b, m); err != nil {
		return c.refuse(badJSON(m, "", err))
	}
	return nil
}

// UnmarshalField implements vanguard.RESTCodec: a REST body that is one
// field of the request ("body": "spec").
func (c *jsonCodec) UnmarshalField(b []byte, m proto.Message, fd protoreflect.FieldDescriptor) error {
	if len(b) > c.maxBytes {
		return c.refuse(errs.BadField(string(fd.Name()), "the request is %d bytes; at most %d are accepted", len(b), c.maxBytes))
	}
	if err := c.JSONCodec.UnmarshalField(b, m, fd); err != nil {
		return c.refuse(badJSON(m, string(fd.Name()), err))
	}
	return nil
}

// refuse is typed, mapped through the table, as a *connect.Error.
func (c *jsonCodec) refuse(typed error) error {
	return connectError(c.mapper.Map(context.Background(), typed).Status.Proto())
}

var (
	// protojson's errors name the field in one of these forms.
	unknownField = regexp.MustCompile(`unknown field "([^"]*)"`)
	badValue     = regexp.MustCompile(`invalid value for [a-z0-9 ]+ field ([A-Za-z0-9_]+)`)
	dupField     = regexp.MustCompile(`duplicate field "([^"]*)"`)
)

// badJSON says what is wrong with a JSON body that did not decode as m,
// naming the field when protojson does; within is the body's own field
// when the body is one field of the request.
func badJSON(m proto.Message, within string, err error) *errs.InvalidRequest {
	name := m.ProtoReflect().Descriptor().FullName()
	text := strings.TrimPrefix(strings.ReplaceAll(err.Error(), "\u00a0", " "), "proto: ")
	at := func(f string) string {
		if within == "" {
			return f
		}
		return within + "." + f
	}
	if g := unknownField.FindStringSubmatch(text); g != nil {
		return errs.BadField(at(g[1]), "is not a field of %s (%s)", name, text)
	}
	if g := badValue.FindStringSubmatch(text); g != nil {
		return errs.BadField(at(g[1]), "has a value of the wrong type or form (%s)", text)
	}
	if g := dupField.FindStringSubmatch(text); g != nil {
		return errs.BadField(at(g[1]), "is given more than once (%s)", text)
	}
	return errs.BadField(within, "the body is not valid JSON for a %s (%s)", name, text)
}

// connectError is a google.rpc.Status as a *connect.Error, with every
// detail, for vanguard to send in the client's protocol.
func connectError(st *spb.Status) *connect.Error {
	ce := connect.NewWireError(connect.Code(st.GetCode()), errors.New(st.GetMessage()))
	for _, a := range st.GetDetails() {
		if det, err := connect.NewErrorDetail(a); err == nil {
			ce.AddDetail(det)
		}
	}
	return ce
}
