package errdetails

import (
	"sort"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/types/known/anypb"
)

// The details are encoded by hand: every error a server returns goes
// through here, and the generic marshaller (reflection, a sorted copy of
// ErrorInfo's metadata map, one pass per Any) cost more than the rest of
// the error path. The bytes are what proto.Marshal with Deterministic
// produces; encode_test.go checks that for every detail type.

const typePrefix = "type.googleapis.com/google.rpc."

var (
	errorInfoURL    = typePrefix + "ErrorInfo"
	retryInfoURL    = typePrefix + "RetryInfo"
	preconditionURL = typePrefix + "PreconditionFailure"
	resourceURL     = typePrefix + "ResourceInfo"
	quotaURL        = typePrefix + "QuotaFailure"
	helpURL         = typePrefix + "Help"
	debugURL        = typePrefix + "DebugInfo"
	badRequestURL   = typePrefix + "BadRequest"
)

// str appends a string field, leaving it out when empty as proto3 does.
func str(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

// msg appends a length-delimited submessage, even when empty (a repeated
// or set message field is present on the wire).
func msg(b []byte, num protowire.Number, body []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, body)
}

func encodeErrorInfo(reason, domain string, meta map[string]string) *anypb.Any {
	keys := make([]string, 0, len(meta))
	size := len(reason) + len(domain) + 8
	for k, v := range meta {
		keys = append(keys, k)
		size += len(k) + len(v) + 8
	}
	sort.Strings(keys)
	b := make([]byte, 0, size)
	b = str(b, 1, reason)
	b = str(b, 2, domain)
	var entry []byte
	for _, k := range keys {
		// A map entry carries its key and value even when empty.
		entry = protowire.AppendTag(entry[:0], 1, protowire.BytesType)
		entry = protowire.AppendString(entry, k)
		entry = protowire.AppendTag(entry, 2, protowire.BytesType)
		entry = protowire.AppendString(entry, meta[k])
		b = msg(b, 3, entry)
	}
	return &anypb.Any{TypeUrl: errorInfoURL, Value: b}
}

func encodeRetryInfo(d time.Duration) *anypb.Any {
	var dur []byte
	if secs := int64(d / time.Second); secs != 0 {
		dur = protowire.AppendTag(dur, 1, protowire.VarintType)
		dur = protowire.AppendVarint(dur, uint64(secs))
	}
	if nanos := int32(d % time.Second); nanos != 0 {
		dur = protowire.AppendTag(dur, 2, protowire.VarintType)
		dur = protowire.AppendVarint(dur, uint64(nanos))
	}
	return &anypb.Any{TypeUrl: retryInfoURL, Value: msg(nil, 1, dur)}
}

// encodeViolation appends one violation-like submessage of string fields
// numbered from 1.
func encodeViolation(b []byte, num protowire.Number, fields ...string) []byte {
	n := 0
	for _, f := range fields {
		n += len(f) + 4
	}
	body := make([]byte, 0, n)
	for i, f := range fields {
		body = str(body, protowire.Number(i+1), f)
	}
	return msg(b, num, body)
}

func encodePrecondition(kind, subject, description string) *anypb.Any {
	return &anypb.Any{TypeUrl: preconditionURL, Value: encodeViolation(nil, 1, kind, subject, description)}
}

func encodeResource(kind, name, description string) *anypb.Any {
	b := str(str(nil, 1, kind), 2, name)
	return &anypb.Any{TypeUrl: resourceURL, Value: str(b, 4, description)}
}

func encodeQuota(subject, description string) *anypb.Any {
	return &anypb.Any{TypeUrl: quotaURL, Value: encodeViolation(nil, 1, subject, description)}
}

func encodeHelp(description, url string) *anypb.Any {
	return &anypb.Any{TypeUrl: helpURL, Value: encodeViolation(nil, 1, description, url)}
}

func encodeDebug(detail string) *anypb.Any {
	return &anypb.Any{TypeUrl: debugURL, Value: str(nil, 2, detail)}
}

// fieldViolation is a BadRequest violation ready to encode.
type fieldViolation struct{ field, description string }

func encodeBadRequest(vs []fieldViolation) *anypb.Any {
	n := 0
	for _, v := range vs {
		n += len(v.field) + len(v.description) + 8
	}
	b := make([]byte, 0, n)
	for _, v := range vs {
		b = encodeViolation(b, 1, v.field, v.description)
	}
	return &anypb.Any{TypeUrl: badRequestURL, Value: b}
}
