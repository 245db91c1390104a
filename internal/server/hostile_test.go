package server_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand"
	"strings"
	"sync"
	"testing"
	"time"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	_ "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// rawCodec sends and receives bytes as they are, so a test can put any
// bytes on the wire as a request.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return *(v.(*[]byte)), nil }
func (rawCodec) Unmarshal(data []byte, v any) error {
	*(v.(*[]byte)) = append([]byte(nil), data...)
	return nil
}
func (rawCodec) Name() string { return "proto" }

// hostile is one request body and what it is.
type hostile struct {
	name string
	body []byte
}

// field finds the first field of md, searching nested messages breadth
// first up to depth 3, that match wants, and returns the path of field
// numbers to it.
func field(md protoreflect.MessageDescriptor, match func(protoreflect.FieldDescriptor) bool) ([]protoreflect.FieldDescriptor, bool) {
	type node struct {
		md   protoreflect.MessageDescriptor
		path []protoreflect.FieldDescriptor
	}
	queue := []node{{md: md}}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		fields := n.md.Fields()
		for i := 0; i < fields.Len(); i++ {
			fd := fields.Get(i)
			path := append(append([]protoreflect.FieldDescriptor(nil), n.path...), fd)
			if match(fd) {
				return path, true
			}
			if fd.Kind() == protoreflect.MessageKind && !fd.IsMap() && len(path) < 3 {
				queue = append(queue, node{md: fd.Message(), path: path})
			}
		}
	}
	return nil, false
}

// wrap encodes leaf (the encoded last field of path, tag included) inside
// the messages of path.
func wrap(path []protoreflect.FieldDescriptor, leaf []byte) []byte {
	for i := len(path) - 2; i >= 0; i-- {
		leaf = protowire.AppendBytes(protowire.AppendTag(nil, path[i].Number(), protowire.BytesType), leaf)
	}
	return leaf
}

func bytesField(fd protoreflect.FieldDescriptor, b []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(nil, fd.Number(), protowire.BytesType), b)
}

func isMessage(name protoreflect.FullName) func(protoreflect.FieldDescriptor) bool {
	return func(fd protoreflect.FieldDescriptor) bool {
		return fd.Kind() == protoreflect.MessageKind && fd.Message().FullName() == name
	}
}

// structKey is a Struct with one entry, key k, value v (an encoded Value).
func structKey(k string, v []byte) []byte {
	entry := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), []byte(k))
	entry = protowire.AppendBytes(protowire.AppendTag(entry, 2, protowire.BytesType), v)
	return protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), entry)
}

// deepStruct is a Struct nested depth levels through Value.struct_value,
// built once.
var deepStruct = sync.OnceValue(func() []byte {
	b := []byte{}
	for i := 0; i < 10000; i++ {
		value := protowire.AppendBytes(protowire.AppendTag(nil, 5, protowire.BytesType), b)
		b = structKey("a", value)
	}
	return b
})

// numberValue is a Value holding f.
func numberValue(f float64) []byte {
	return protowire.AppendFixed64(protowire.AppendTag(nil, 2, protowire.Fixed64Type), math.Float64bits(f))
}

// corpus returns the hostile bodies for a method taking md.
func corpus(md protoreflect.MessageDescriptor) []hostile {
	rng := rand.New(rand.NewSource(int64(len(md.FullName()))))
	var out []hostile
	isString := func(fd protoreflect.FieldDescriptor) bool { return fd.Kind() == protoreflect.StringKind }
	if path, ok := field(md, isString); ok {
		leaf := path[len(path)-1]
		out = append(out,
			hostile{"invalid UTF-8 in " + string(leaf.FullName()), wrap(path, bytesField(leaf, []byte("ok\xff\xfe")))},
			hostile{"5 MB string", wrap(path, bytesField(leaf, []byte(strings.Repeat("x", 5<<20))))},
		)
		valid := wrap(path, bytesField(leaf, []byte("a-valid-looking-name")))
		out = append(out, hostile{"truncated", valid[:len(valid)-5]})
	}
	for _, name := range []protoreflect.FullName{"google.protobuf.Struct", "google.protobuf.Value"} {
		path, ok := field(md, isMessage(name))
		if !ok {
			continue
		}
		leaf := path[len(path)-1]
		asField := func(s []byte) []byte {
			if name == "google.protobuf.Value" { // a Value holding the Struct
				s = protowire.AppendBytes(protowire.AppendTag(nil, 5, protowire.BytesType), s)
			}
			return wrap(path, bytesField(leaf, s))
		}
		out = append(out,
			hostile{"invalid UTF-8 Struct key in " + string(leaf.FullName()), asField(structKey("k\xc3\x28", numberValue(1)))},
			hostile{"Struct nested 10,000 deep in " + string(leaf.FullName()), asField(deepStruct())},
			hostile{"NaN in " + string(leaf.FullName()), asField(structKey("n", numberValue(math.NaN())))},
			hostile{"+Inf in " + string(leaf.FullName()), asField(structKey("n", numberValue(math.Inf(1))))},
		)
	}
	isDouble := func(fd protoreflect.FieldDescriptor) bool { return fd.Kind() == protoreflect.DoubleKind }
	if path, ok := field(md, isDouble); ok {
		leaf := path[len(path)-1]
		for _, f := range []float64{math.NaN(), math.Inf(-1)} {
			b := protowire.AppendFixed64(protowire.AppendTag(nil, leaf.Number(), protowire.Fixed64Type), math.Float64bits(f))
			out = append(out, hostile{fmt.Sprintf("%v in %s", f, leaf.FullName()), wrap(path, b)})
		}
	}
	isRepeated := func(fd protoreflect.FieldDescriptor) bool {
		return fd.Cardinality() == protoreflect.Repeated && !fd.IsMap()
	}
	if path, ok := field(md, isRepeated); ok {
		leaf := path[len(path)-1]
		var b []byte
		for i := 0; i < 200000; i++ {
			switch leaf.Kind() {
			case protoreflect.StringKind, protoreflect.MessageKind, protoreflect.BytesKind:
				b = protowire.AppendBytes(protowire.AppendTag(b, leaf.Number(), protowire.BytesType), nil)
			default:
				b = protowire.AppendVarint(protowire.AppendTag(b, leaf.Number(), protowire.VarintType), 1)
			}
		}
		out = append(out, hostile{"200,000 entries in " + string(leaf.FullName()), wrap(path, b)})
	}
	out = append(out, hostile{"message nested 10,000 deep as unknown fields", nested()})
	for i := 0; i < 6; i++ {
		b := make([]byte, 16+rng.Intn(4096))
		rng.Read(b)
		out = append(out, hostile{fmt.Sprintf("random bytes %d", i), b})
	}
	out = append(out, hostile{"a lone tag", []byte{0x0a}}, hostile{"a length past the end", []byte{0x0a, 0xff, 0xff, 0x03, 0x41}})
	return out
}

// nested is field 1000 holding itself 10,000 times, a number no runsvc
// message uses, built once.
var nested = sync.OnceValue(func() []byte {
	b := []byte{}
	for i := 0; i < 10000; i++ {
		b = protowire.AppendBytes(protowire.AppendTag(nil, 1000, protowire.BytesType), b)
	}
	return b
})

// rawMethod is a method to call raw: its full name and its streaming.
type rawMethod struct {
	full                         string
	clientStreams, serverStreams bool
}

func rawOf(m protoreflect.MethodDescriptor) rawMethod {
	return rawMethod{fmt.Sprintf("/%s/%s", m.Parent().FullName(), m.Name()), m.IsStreamingClient(), m.IsStreamingServer()}
}

// send makes one raw call and returns its status.
func send(ctx context.Context, conn *grpc.ClientConn, method rawMethod, body []byte) *status.Status {
	full := method.full
	opt := grpc.ForceCodec(rawCodec{})
	if !method.clientStreams && !method.serverStreams {
		var out []byte
		return status.Convert(conn.Invoke(ctx, full, &body, &out, opt))
	}
	desc := &grpc.StreamDesc{ServerStreams: method.serverStreams, ClientStreams: method.clientStreams}
	stream, err := conn.NewStream(ctx, desc, full, opt)
	if err != nil {
		return status.Convert(err)
	}
	if err := stream.SendMsg(&body); err != nil && !errors.Is(err, io.EOF) {
		return status.Convert(err)
	}
	_ = stream.CloseSend()
	for {
		var out []byte
		if err := stream.RecvMsg(&out); err != nil {
			if errors.Is(err, io.EOF) {
				return status.New(codes.OK, "")
			}
			return status.Convert(err)
		}
	}
}

// TestHostileRequests sends undecodable, oversized and absurd requests,
// raw, to every method of every runsvc service: every error carries
// ErrorInfo, none is INTERNAL, and the server keeps serving.
func TestHostileRequests(t *testing.T) {
	srv := testserver.Start(t)
	var methods []protoreflect.MethodDescriptor
	protoregistry.GlobalFiles.RangeFilesByPackage("runsvc.v1", func(fd protoreflect.FileDescriptor) bool {
		for i := 0; i < fd.Services().Len(); i++ {
			for j := 0; j < fd.Services().Get(i).Methods().Len(); j++ {
				methods = append(methods, fd.Services().Get(i).Methods().Get(j))
			}
		}
		return true
	})
	if len(methods) < 20 {
		t.Fatalf("found %d runsvc methods, want every one", len(methods))
	}
	var calls, withoutInfo, internal, decodeRefused int
	for _, m := range methods {
		for _, h := range corpus(m.Input()) {
			// The bound only catches a server that never answers: decoding
			// 200,000 entries under -race takes 4-5 s on a 2-core machine
			// (the race detector's shadow memory), 10 s when it is busy.
			ctx, cancel := context.WithTimeout(testserver.Context(t), time.Minute)
			began := time.Now()
			st := send(ctx, srv.Conn, rawOf(m), h.body)
			cancel()
			if d := time.Since(began); d > time.Second {
				t.Logf("%s, %s: %v after %s", m.FullName(), h.name, st.Code(), d.Round(time.Millisecond))
			}
			calls++
			if st.Code() == codes.OK {
				continue
			}
			var info *edpb.ErrorInfo
			for _, d := range st.Details() {
				if i, ok := d.(*edpb.ErrorInfo); ok && info == nil {
					info = i
				}
			}
			switch {
			case info == nil:
				withoutInfo++
				t.Errorf("%s, %s: %v %q without ErrorInfo", m.FullName(), h.name, st.Code(), st.Message())
			case st.Code() == codes.Internal || info.GetReason() == "INTERNAL":
				internal++
				t.Errorf("%s, %s: INTERNAL %q", m.FullName(), h.name, st.Message())
			case info.GetReason() == "INVALID_REQUEST" && strings.Contains(st.Message(), "the request"):
				decodeRefused++
			}
		}
	}
	t.Logf("%d methods, %d hostile calls: %d without ErrorInfo, %d INTERNAL, %d refused by the decoder", len(methods), calls, withoutInfo, internal, decodeRefused)
	if withoutInfo != 0 || internal != 0 {
		t.Errorf("%d statuses without ErrorInfo and %d INTERNAL, want 0 and 0", withoutInfo, internal)
	}
	srv.Publish(t, `{"name": "after", "model": {"provider": "scripted", "script": {"turns": [{"text": "still here"}]}}}`)
	run := srv.Wait(t, srv.Start(t, "after", "hi").GetRunId())
	if run.GetAnswer() != "still here" {
		t.Errorf("after the corpus a Run answered %q, want the server still serving", run.GetAnswer())
	}
}
