package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"strconv"
	"strings"
	"time"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/known/emptypb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
)

// The generated packages register the runsvc.v1 and google.rpc types this
// runner resolves by name.
var (
	_ = runsvcv1.File_runsvc_v1_run_proto
	_ = edpb.ErrorInfo{}
)

// Runner runs scenarios over one client connection.
type Runner struct {
	Conn *grpc.ClientConn
	// Via, when set, makes the calls instead of grpc-go on Conn: another
	// protocol (REST, gRPC-Web) to the same server.
	Via Transport
	// Suite is unique per suite run, for ${suite}.
	Suite string
	// Vars are the server's variables (see ServerSetting), for ${name}.
	Vars map[string]string
}

// Setup publishes the file's Specs.
func (r *Runner) Setup(ctx context.Context, f *File) error {
	for _, s := range f.Specs {
		req := fmt.Sprintf(`{"spec": %s}`, s)
		if _, err := r.Call(ctx, "SpecService/PublishSpec", req); err != nil {
			return fmt.Errorf("publishing %s: %w", s[:min(len(s), 60)], err)
		}
	}
	return nil
}

// Run runs a scenario's steps and returns the status its check names.
// Streams a step holds stay open until ctx ends; with s.APIKey every call
// sends it.
func (r *Runner) Run(ctx context.Context, s Scenario) (Outcome, error) {
	vars := map[string]string{"suite": r.Suite}
	maps.Copy(vars, r.Vars)
	if s.APIKey != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+s.APIKey)
	}
	var last map[string]any
	for i, step := range s.Steps {
		if step.Sleep != "" {
			d, err := time.ParseDuration(step.Sleep)
			if err != nil {
				return Outcome{}, err
			}
			time.Sleep(d)
			continue
		}
		if step.Call == "" {
			return r.statusAt(last, step.Check)
		}
		req := Substitute(string(step.Request), vars)
		if step.Hold {
			hold := r.hold
			if r.Via != nil {
				hold = r.Via.Hold
			}
			if err := hold(ctx, step.Call, req); err != nil {
				return Outcome{}, fmt.Errorf("step %d (holding %s): %w", i, step.Call, err)
			}
			continue
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			resp, failed, err := r.invoke(ctx, step.Call, req)
			if step.Check == "error" && err == nil {
				if failed == nil {
					return Outcome{}, fmt.Errorf("step %d (%s) succeeded; the scenario expects an error", i, step.Call)
				}
				failed.Method, failed.Request = step.Call, req
				return *failed, nil
			}
			if err == nil && failed != nil {
				err = status.ErrorProto(failed.Status)
			}
			if err != nil {
				return Outcome{}, fmt.Errorf("step %d (%s %s): %w", i, step.Call, req, err)
			}
			last = resp
			if matches(resp, step.Until) {
				break
			}
			if time.Now().After(deadline) {
				return Outcome{}, fmt.Errorf("step %d (%s): %v never held; last response %v", i, step.Call, step.Until, resp)
			}
			time.Sleep(50 * time.Millisecond)
		}
		for name, path := range step.Save {
			v, ok := lookup(last, path).(string)
			if !ok {
				return Outcome{}, fmt.Errorf("step %d: no string at %s in %v", i, path, last)
			}
			vars[name] = v
		}
		if step.Check != "" {
			return r.statusAt(last, step.Check)
		}
	}
	return Outcome{}, errors.New("the scenario has no check step")
}

// Transport makes a Runner's calls another way than grpc-go. The call's
// context carries the scenario's API key as outgoing gRPC metadata
// ("authorization"), which a transport sends its own way.
type Transport interface {
	// Call invokes a runsvc.v1 method ("Service/Method") with a protojson
	// request and returns the response as generic JSON (a server stream's
	// last message), or the Outcome of the status the call failed with;
	// an error is a failure of the transport itself.
	Call(ctx context.Context, method, reqJSON string) (map[string]any, *Outcome, error)
	// Hold opens a server stream, returns once its first message came and
	// leaves it open until ctx ends.
	Hold(ctx context.Context, method, reqJSON string) error
}

// invoke makes a call through Via or grpc-go; a status the call failed
// with comes back as its Outcome (RPC set), not as an error.
func (r *Runner) invoke(ctx context.Context, method, reqJSON string) (map[string]any, *Outcome, error) {
	if r.Via != nil {
		return r.Via.Call(ctx, method, reqJSON)
	}
	resp, trailer, err := r.call(ctx, method, reqJSON)
	if err == nil {
		return resp, nil, nil
	}
	st, ok := status.FromError(err)
	if !ok {
		return nil, nil, fmt.Errorf("%v is not a status", err)
	}
	return nil, &Outcome{Status: st.Proto(), Pushback: strings.Join(trailer.Get(errdetails.PushbackTrailer), ","), RPC: true}, nil
}

// APIKey is the bearer token a Runner put on ctx for its scenario, "" if
// none: what a Transport sends as its Authorization header.
func APIKey(ctx context.Context) string {
	md, _ := metadata.FromOutgoingContext(ctx)
	for _, v := range md.Get("authorization") {
		if key, ok := strings.CutPrefix(v, "Bearer "); ok {
			return key
		}
	}
	return ""
}

// hold opens a server stream and returns once its first message came,
// leaving it open until ctx ends.
func (r *Runner) hold(ctx context.Context, method, reqJSON string) error {
	md, err := methodDescriptor(method)
	if err != nil {
		return err
	}
	req, err := newMessage(md.Input())
	if err != nil {
		return err
	}
	if err := protojson.Unmarshal([]byte(reqJSON), req); err != nil {
		return fmt.Errorf("request %s: %w", reqJSON, err)
	}
	stream, err := r.Conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true}, "/runsvc.v1."+method)
	if err != nil {
		return err
	}
	if err := stream.SendMsg(req); err != nil {
		return err
	}
	if err := stream.CloseSend(); err != nil {
		return err
	}
	first, _ := newMessage(md.Output())
	return stream.RecvMsg(first)
}

// call invokes a runsvc.v1 method with a protojson request and returns the
// response as generic JSON; a server stream's messages are collected and
// the last one returned. A method runsvc.v1 does not have is called
// anyway, with an empty message.
func (r *Runner) call(ctx context.Context, method, reqJSON string) (map[string]any, metadata.MD, error) {
	md, err := methodDescriptor(method)
	var unknown *unknownMethod
	if errors.As(err, &unknown) {
		var trailer metadata.MD
		err := r.Conn.Invoke(ctx, "/runsvc.v1."+method, &emptypb.Empty{}, &emptypb.Empty{}, grpc.Trailer(&trailer))
		return map[string]any{}, trailer, err
	}
	if err != nil {
		return nil, nil, err
	}
	req, err := newMessage(md.Input())
	if err != nil {
		return nil, nil, err
	}
	if err := protojson.Unmarshal([]byte(reqJSON), req); err != nil {
		return nil, nil, fmt.Errorf("request %s: %w", reqJSON, err)
	}
	resp, err := newMessage(md.Output())
	if err != nil {
		return nil, nil, err
	}
	full := "/runsvc.v1." + method
	var trailer metadata.MD
	if md.IsStreamingServer() {
		stream, err := r.Conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true}, full)
		if err != nil {
			return nil, nil, err
		}
		if err := stream.SendMsg(req); err != nil {
			return nil, nil, err
		}
		if err := stream.CloseSend(); err != nil {
			return nil, nil, err
		}
		for {
			msg, _ := newMessage(md.Output())
			err := stream.RecvMsg(msg)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, stream.Trailer(), err
			}
			resp = msg
		}
		trailer = stream.Trailer()
	} else if err := r.Conn.Invoke(ctx, full, req, resp, grpc.Trailer(&trailer)); err != nil {
		return nil, trailer, err
	}
	b, err := protojson.Marshal(resp)
	if err != nil {
		return nil, trailer, err
	}
	var out map[string]any
	return out, trailer, json.Unmarshal(b, &out)
}

func methodDescriptor(method string) (protoreflect.MethodDescriptor, error) {
	svc, name, ok := strings.Cut(method, "/")
	if !ok {
		return nil, fmt.Errorf("call %q is not Service/Method", method)
	}
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName("runsvc.v1." + svc))
	if err != nil {
		return nil, fmt.Errorf("service %s: %w", svc, err)
	}
	sd, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return nil, fmt.Errorf("%s is not a service", svc)
	}
	md := sd.Methods().ByName(protoreflect.Name(name))
	if md == nil {
		return nil, &unknownMethod{method: method}
	}
	return md, nil
}

// unknownMethod is a method runsvc.v1's service does not declare.
type unknownMethod struct{ method string }

func (e *unknownMethod) Error() string { return "runsvc.v1 has no method " + e.method }

func newMessage(d protoreflect.MessageDescriptor) (proto.Message, error) {
	t, err := protoregistry.GlobalTypes.FindMessageByName(d.FullName())
	if err != nil {
		return nil, err
	}
	return t.New().Interface(), nil
}

func (r *Runner) statusAt(resp map[string]any, path string) (Outcome, error) {
	v := lookup(resp, path)
	if v == nil {
		return Outcome{}, fmt.Errorf("no status at %s in %v", path, resp)
	}
	b, _ := json.Marshal(v)
	st := &spb.Status{}
	if err := protojson.Unmarshal(b, st); err != nil {
		return Outcome{}, fmt.Errorf("the value at %s is not a google.rpc.Status: %w", path, err)
	}
	return Outcome{Status: st}, nil
}

func lookup(v any, path string) any {
	for _, part := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[part]
	}
	return v
}

func matches(resp map[string]any, until map[string]string) bool {
	for path, want := range until {
		if fmt.Sprint(lookup(resp, path)) != want {
			return false
		}
	}
	return true
}

var (
	placeholder = regexp.MustCompile(`\$\{([^}]+)\}`)
	listHolder  = regexp.MustCompile(`"\$\{list:([^}:]*):([0-9]+)\}"`)
)

// Substitute fills ${name} from vars and ${repeat:C:N} with C repeated N
// times; a JSON string that is exactly "${list:C:N}" becomes a JSON array
// of N strings "C".
func Substitute(s string, vars map[string]string) string {
	s = listHolder.ReplaceAllStringFunc(s, func(m string) string {
		parts := listHolder.FindStringSubmatch(m)
		n, err := strconv.Atoi(parts[2])
		if err != nil || n > 1<<20 {
			return m
		}
		items := make([]string, n)
		for i := range items {
			items[i] = `"` + parts[1] + `"`
		}
		return "[" + strings.Join(items, ",") + "]"
	})
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		name := m[2 : len(m)-1]
		if rest, ok := strings.CutPrefix(name, "repeat:"); ok {
			ch, n, _ := strings.Cut(rest, ":")
			count, err := strconv.Atoi(n)
			if err == nil {
				return strings.Repeat(ch, count)
			}
		}
		if v, ok := vars[name]; ok {
			return v
		}
		return m
	})
}

// Call invokes one runsvc.v1 method ("Service/Method") with a protojson
// request and returns the response as generic JSON.
func (r *Runner) Call(ctx context.Context, method, request string) (map[string]any, error) {
	resp, failed, err := r.invoke(ctx, method, request)
	if err == nil && failed != nil {
		err = status.ErrorProto(failed.Status)
	}
	return resp, err
}

// Declared reports whether runsvc.v1 declares method ("Service/Method").
func Declared(method string) bool {
	_, err := methodDescriptor(method)
	return err == nil
}
