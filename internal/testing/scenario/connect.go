package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"connectrpc.com/connect"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/runsvc/runsvc/internal/errdetails"
)

// ConnectGo makes a Runner's calls with connect-go's client on the HTTP
// API: the Connect protocol, or with connect.WithGRPCWeb() gRPC-Web. It
// needs no generated client: messages are dynamic, built from runsvc.v1's
// descriptors.
type ConnectGo struct {
	// URL is the HTTP API's base, "http://127.0.0.1:port".
	URL     string
	Options []connect.ClientOption
}

// Call implements Transport.
func (t ConnectGo) Call(ctx context.Context, method, reqJSON string) (map[string]any, *Outcome, error) {
	md, err := methodDescriptor(method)
	var unknown *unknownMethod
	if errors.As(err, &unknown) {
		c := connect.NewClient[emptypb.Empty, emptypb.Empty](http.DefaultClient, t.URL+"/runsvc.v1."+method, t.Options...)
		_, err := c.CallUnary(ctx, authorized(ctx, connect.NewRequest(&emptypb.Empty{})))
		return connectResult(nil, err)
	}
	if err != nil {
		return nil, nil, err
	}
	c, req, err := t.client(md, method, reqJSON)
	if err != nil {
		return nil, nil, err
	}
	r := authorized(ctx, connect.NewRequest(req))
	if !md.IsStreamingServer() {
		resp, err := c.CallUnary(ctx, r)
		if err != nil {
			return connectResult(nil, err)
		}
		return connectResult(resp.Msg, nil)
	}
	stream, err := c.CallServerStream(ctx, r)
	if err != nil {
		return connectResult(nil, err)
	}
	defer func() { _ = stream.Close() }()
	var last *dynamicpb.Message
	for stream.Receive() {
		last = stream.Msg()
	}
	if err := stream.Err(); err != nil {
		return connectResult(nil, err)
	}
	if last == nil {
		last = dynamicpb.NewMessage(md.Output())
	}
	return connectResult(last, nil)
}

// Hold implements Transport.
func (t ConnectGo) Hold(ctx context.Context, method, reqJSON string) error {
	md, err := methodDescriptor(method)
	if err != nil {
		return err
	}
	c, req, err := t.client(md, method, reqJSON)
	if err != nil {
		return err
	}
	stream, err := c.CallServerStream(ctx, authorized(ctx, connect.NewRequest(req)))
	if err != nil {
		return err
	}
	go func() { <-ctx.Done(); _ = stream.Close() }()
	if !stream.Receive() {
		return fmt.Errorf("the stream ended before its first message: %v", stream.Err())
	}
	return nil
}

// client is a connect-go client of a method and its request from JSON.
func (t ConnectGo) client(md protoreflect.MethodDescriptor, method, reqJSON string) (*connect.Client[dynamicpb.Message, dynamicpb.Message], *dynamicpb.Message, error) {
	req := dynamicpb.NewMessage(md.Input())
	if err := protojson.Unmarshal([]byte(reqJSON), req); err != nil {
		return nil, nil, fmt.Errorf("request %s: %w", reqJSON, err)
	}
	opts := append([]connect.ClientOption{connect.WithSchema(md), connect.WithResponseInitializer(dynamicOutput)}, t.Options...)
	return connect.NewClient[dynamicpb.Message, dynamicpb.Message](http.DefaultClient, t.URL+"/runsvc.v1."+method, opts...), req, nil
}

func dynamicOutput(spec connect.Spec, msg any) error {
	if d, ok := msg.(*dynamicpb.Message); ok {
		*d = *dynamicpb.NewMessage(spec.Schema.(protoreflect.MethodDescriptor).Output())
	}
	return nil
}

// authorized puts the scenario's API key on a request.
func authorized[T any](ctx context.Context, r *connect.Request[T]) *connect.Request[T] {
	if key := APIKey(ctx); key != "" {
		r.Header().Set("Authorization", "Bearer "+key)
	}
	return r
}

// connectResult is a call's response as generic JSON, or the Outcome of
// the connect error it failed with: its details and, from the trailers,
// the pushback.
func connectResult(resp *dynamicpb.Message, err error) (map[string]any, *Outcome, error) {
	if err != nil {
		var ce *connect.Error
		if !errors.As(err, &ce) {
			return nil, nil, err
		}
		st := &spb.Status{Code: int32(ce.Code()), Message: ce.Message()}
		for _, d := range ce.Details() {
			st.Details = append(st.Details, &anypb.Any{TypeUrl: "type.googleapis.com/" + d.Type(), Value: d.Bytes()})
		}
		return nil, &Outcome{Status: st, Pushback: ce.Meta().Get(errdetails.PushbackTrailer), RPC: true}, nil
	}
	if resp == nil {
		return map[string]any{}, nil, nil
	}
	b, err := protojson.Marshal(resp)
	if err != nil {
		return nil, nil, err
	}
	var out map[string]any
	return out, nil, json.Unmarshal(b, &out)
}
