package service

import (
	"context"
	"errors"
	"testing"

	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
)

// TestCodecForgetsWhatItReported: a runsvc request that does not decode is
// refused by the interceptor without reaching the handler and leaves
// nothing behind; other packages' messages keep grpc's codec error.
func TestCodecForgetsWhatItReported(t *testing.T) {
	tests := []struct {
		name     string
		msg      proto.Message
		body     []byte
		codecErr bool // Unmarshal itself fails (grpc's own handling)
		refused  bool // the interceptor refuses the call
	}{
		{"valid runsvc request", &runsvcv1.GetRunRequest{}, []byte("\x0a\x05run_1"), false, false},
		{"garbage runsvc request", &runsvcv1.GetRunRequest{}, []byte{0x0a, 0xff}, false, true},
		{"over the limit", &runsvcv1.GetRunRequest{}, append([]byte("\x0a\x80\x08"), make([]byte, 1024)...), false, true},
		{"garbage health request", &healthpb.HealthCheckRequest{}, []byte{0x0a, 0xff}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewCodec(1000)
			err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(tt.body)}, tt.msg)
			if (err != nil) != tt.codecErr {
				t.Fatalf("Unmarshal = %v, want an error: %v", err, tt.codecErr)
			}
			called := false
			_, err = c.UnaryServerInterceptor()(context.Background(), tt.msg, &grpc.UnaryServerInfo{}, func(context.Context, any) (any, error) {
				called = true
				return nil, nil
			})
			var bad *errs.InvalidRequest
			if tt.refused != errors.As(err, &bad) || called == tt.refused {
				t.Errorf("interceptor = %v, handler called %v; want refused %v", err, called, tt.refused)
			}
			left := 0
			c.failed.Range(func(any, any) bool { left++; return true })
			if left != 0 {
				t.Errorf("%d refused requests are still remembered", left)
			}
		})
	}
}

// TestDecodeSaysWhatIsWrongInItsOwnWords: a request that does not decode
// is refused with a whole runsvc sentence, never protobuf's library text.
func TestDecodeSaysWhatIsWrongInItsOwnWords(t *testing.T) {
	tests := []struct {
		name, field, want string
		body              []byte
	}{
		{"garbage", "", "the request does not decode as a runsvc.v1.GetRunRequest: its bytes are not valid protobuf wire format (cut short, or a length or field type that does not fit)", []byte{0x0a, 0xff}},
		{"invalid UTF-8", "run_id", "is not valid UTF-8; runsvc accepts only UTF-8 in strings and Struct keys", []byte{0x0a, 0x02, 0xc3, 0x28}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := NewCodec(1000).Decode(tt.body, &runsvcv1.GetRunRequest{})
			if bad == nil || len(bad.Violations) != 1 {
				t.Fatalf("Decode = %v, want one violation", bad)
			}
			if v := bad.Violations[0]; v.Field != tt.field || v.Description != tt.want {
				t.Errorf("violation %q: %q\nwant %q: %q", v.Field, v.Description, tt.field, tt.want)
			}
		})
	}
}
