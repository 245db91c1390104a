package secret

import (
	"bytes"
	"encoding/base64"
	"encoding/json"

	"google.golang.org/protobuf/encoding/protowire"
)

// JSON returns a JSON document with every known secret removed from its
// strings and keys, however JSON escapes them; a string that is base64
// (a []byte field, such as a stored failure's details) is decoded, and its
// bytes scrubbed as a protobuf message when they are one. It returns raw
// itself when raw holds no secret, and raw scrubbed as bytes when it is
// not JSON.
func (s *Scrubber) JSON(raw []byte) []byte {
	if s.Empty() {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return s.Bytes(raw)
	}
	out, changed := s.walk(v)
	if !changed {
		return s.Bytes(raw)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return s.Bytes(raw)
	}
	return b
}

// walk scrubs a decoded JSON value and reports whether it changed.
func (s *Scrubber) walk(v any) (any, bool) {
	switch x := v.(type) {
	case string:
		out := s.String(x)
		if out == x {
			out = s.base64(x)
		}
		return out, out != x
	case []any:
		changed := false
		for i, e := range x {
			var c bool
			x[i], c = s.walk(e)
			changed = changed || c
		}
		return x, changed
	case map[string]any:
		changed := false
		out := make(map[string]any, len(x))
		for k, e := range x {
			nk := s.String(k)
			ne, c := s.walk(e)
			out[nk] = ne
			changed = changed || c || nk != k
		}
		return out, changed
	}
	return v, false
}

// base64 scrubs the bytes a standard base64 string holds.
func (s *Scrubber) base64(x string) string {
	if len(x) < 8 || len(x)%4 != 0 {
		return x
	}
	b, err := base64.StdEncoding.DecodeString(x)
	if err != nil {
		return x
	}
	nb := s.wire(b)
	if bytes.Equal(nb, b) {
		return x
	}
	return base64.StdEncoding.EncodeToString(nb)
}

// wire scrubs b as a protobuf message, rebuilding the lengths around
// what it removes, or as plain bytes when b is not one.
func (s *Scrubber) wire(b []byte) []byte {
	if out, ok := s.message(b); ok && !s.Holds(string(out)) {
		return out
	}
	return s.Bytes(b)
}

// message scrubs every length-delimited field of a protobuf message,
// recursing into those that are messages themselves.
func (s *Scrubber) message(b []byte) ([]byte, bool) {
	var out []byte
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, false
		}
		b = b[n:]
		if typ != protowire.BytesType {
			m := protowire.ConsumeFieldValue(num, typ, b)
			if m < 0 {
				return nil, false
			}
			out = protowire.AppendTag(out, num, typ)
			out, b = append(out, b[:m]...), b[m:]
			continue
		}
		v, m := protowire.ConsumeBytes(b)
		if m < 0 {
			return nil, false
		}
		b = b[m:]
		if s.Holds(string(v)) {
			v = s.wire(v)
		}
		out = protowire.AppendTag(out, num, typ)
		out = protowire.AppendBytes(out, v)
	}
	return out, true
}
