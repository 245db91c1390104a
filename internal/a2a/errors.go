package a2a

import (
	"context"
	"encoding/json"
	"errors"

	"connectrpc.com/connect"
	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/runsvc/runsvc/internal/errdetails"
)

// statusOfError is err as a google.rpc.Status: a runsvc call's error as
// the table made it, anything else through the table now.
func (h *Handler) statusOfError(ctx context.Context, err error) *spb.Status {
	var ce *connect.Error
	if errors.As(err, &ce) {
		st := &spb.Status{Code: int32(ce.Code()), Message: ce.Message()}
		for _, d := range ce.Details() {
			st.Details = append(st.Details, &anypb.Any{TypeUrl: "type.googleapis.com/" + d.Type(), Value: d.Bytes()})
		}
		if len(st.Details) > 0 {
			return st
		}
	}
	return h.mapper.Map(ctx, err).Status.Proto()
}

// jsonRPCCodes are the JSON-RPC codes of the A2A error types (A2A 1.0
// §5.4).
var jsonRPCCodes = map[string]int{
	"TASK_NOT_FOUND":                  -32001,
	"TASK_NOT_CANCELABLE":             -32002,
	"PUSH_NOTIFICATION_NOT_SUPPORTED": -32003,
	"UNSUPPORTED_OPERATION":           -32004,
	"CONTENT_TYPE_NOT_SUPPORTED":      -32005,
	"VERSION_NOT_SUPPORTED":           -32009,
}

// JSON-RPC's own codes, and the one runsvc gives its own reasons.
const (
	codeParse         = -32700
	codeInvalidReq    = -32600
	codeMethodMissing = -32601
	codeInvalidParams = -32602
	codeInternal      = -32603
	// codeServer is JSON-RPC's "server error" (-32000, outside A2A's
	// -32001..-32099), for runsvc's own reasons: quota, role, budget, a
	// Spec not found, ...; data carries their ErrorInfo and details.
	codeServer = -32000
)

// jsonRPCCode is the JSON-RPC code of a status: the A2A type's, else by
// its gRPC code.
func jsonRPCCode(st *spb.Status) int {
	info := errorInfo(st)
	if info != nil && info.GetDomain() == errdetails.A2ADomain {
		if c, ok := jsonRPCCodes[info.GetReason()]; ok {
			return c
		}
	}
	switch codes.Code(st.GetCode()) {
	case codes.InvalidArgument:
		return codeInvalidParams
	case codes.Unimplemented:
		return codeMethodMissing
	case codes.Internal, codes.Unknown, codes.DataLoss:
		return codeInternal
	}
	return codeServer
}

// errorInfo is a status's ErrorInfo, nil without one.
func errorInfo(st *spb.Status) *edpb.ErrorInfo {
	for _, d := range st.GetDetails() {
		info := &edpb.ErrorInfo{}
		if d.MessageIs(info) && d.UnmarshalTo(info) == nil {
			return info
		}
	}
	return nil
}

// detailsJSON is a status's details as ProtoJSON Any objects ("@type").
func detailsJSON(st *spb.Status) []json.RawMessage {
	out := []json.RawMessage{}
	for _, a := range st.GetDetails() {
		if b, err := protojson.Marshal(a); err == nil {
			out = append(out, b)
		}
	}
	return out
}
