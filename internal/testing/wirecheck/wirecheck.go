// Package wirecheck makes one gRPC call over a raw HTTP/2 connection and
// reports the frames that came back, so tests can see what a client's
// library hides: whether an error was Trailers-Only (a single HEADERS frame
// ending the stream) and which fields it carried.
package wirecheck

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"net"
	"strings"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/proto"
)

// DecodeStatus decodes a grpc-status-details-bin value as it came off the
// wire (base64, padded or not) into the google.rpc.Status it carries.
func DecodeStatus(bin string) (*spb.Status, error) {
	raw, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(bin, "="))
	if err != nil {
		return nil, fmt.Errorf("grpc-status-details-bin is not base64: %w", err)
	}
	st := &spb.Status{}
	if err := proto.Unmarshal(raw, st); err != nil {
		return nil, fmt.Errorf("grpc-status-details-bin is not a google.rpc.Status: %w", err)
	}
	return st, nil
}

// WireSize is what an error took on the wire: the length of its
// grpc-message plus that of its grpc-status-details-bin, as sent.
func (r Response) WireSize() int {
	last := r.Last()
	return len(last["grpc-message"]) + len(last["grpc-status-details-bin"])
}

// Response is what the server sent for one call.
type Response struct {
	// Headers holds each HEADERS block, decoded, in order.
	Headers []map[string]string
	// DataFrames counts DATA frames with a payload.
	DataFrames int
	// TrailersOnly is true when the response was a single HEADERS frame
	// that ended the stream, with no DATA.
	TrailersOnly bool
}

// Last returns the final HEADERS block: the trailers.
func (r Response) Last() map[string]string {
	if len(r.Headers) == 0 {
		return nil
	}
	return r.Headers[len(r.Headers)-1]
}

// Call sends req to method (e.g. "/runsvc.v1.RunService/GetRun") on a
// plaintext HTTP/2 server at addr and reads the response to its end.
func Call(ctx context.Context, addr, method string, req proto.Message) (Response, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return Response{}, err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	} else {
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	}
	if _, err := conn.Write([]byte(http2.ClientPreface)); err != nil {
		return Response{}, err
	}
	fr := http2.NewFramer(conn, conn)
	fr.ReadMetaHeaders = hpack.NewDecoder(65536, nil)
	fr.MaxHeaderListSize = 1 << 20
	if err := fr.WriteSettings(); err != nil {
		return Response{}, err
	}
	if err := writeRequest(fr, addr, method, req); err != nil {
		return Response{}, err
	}
	return readResponse(fr)
}

// writeRequest sends one gRPC request on stream 1: its headers, then the
// message in one length-prefixed DATA frame that ends the stream.
func writeRequest(fr *http2.Framer, addr, method string, req proto.Message) error {
	var hb bytes.Buffer
	enc := hpack.NewEncoder(&hb)
	for _, f := range [][2]string{
		{":method", "POST"}, {":scheme", "http"}, {":path", method}, {":authority", addr},
		{"content-type", "application/grpc"}, {"te", "trailers"},
	} {
		if err := enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]}); err != nil {
			return err
		}
	}
	if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: hb.Bytes(), EndHeaders: true}); err != nil {
		return err
	}
	body, err := proto.Marshal(req)
	if err != nil {
		return err
	}
	msg := make([]byte, 5+len(body))
	binary.BigEndian.PutUint32(msg[1:5], uint32(len(body)))
	copy(msg[5:], body)
	return fr.WriteData(1, true, msg)
}

// readResponse reads frames until stream 1 ends, answering the server's
// settings and pings and returning its windows as data arrives.
func readResponse(fr *http2.Framer) (Response, error) {
	var resp Response
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return resp, fmt.Errorf("reading frames: %w", err)
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				if err := fr.WriteSettingsAck(); err != nil {
					return resp, err
				}
			}
		case *http2.PingFrame:
			if !f.IsAck() {
				_ = fr.WritePing(true, f.Data)
			}
		case *http2.MetaHeadersFrame:
			if f.StreamID != 1 {
				continue
			}
			block := map[string]string{}
			for _, hf := range f.Fields {
				block[hf.Name] = hf.Value
			}
			resp.Headers = append(resp.Headers, block)
			if f.StreamEnded() {
				resp.TrailersOnly = len(resp.Headers) == 1 && resp.DataFrames == 0
				return resp, nil
			}
		case *http2.DataFrame:
			if f.StreamID != 1 {
				continue
			}
			if len(f.Data()) > 0 {
				resp.DataFrames++
				_ = fr.WriteWindowUpdate(0, uint32(len(f.Data())))
				_ = fr.WriteWindowUpdate(1, uint32(len(f.Data())))
			}
			if f.StreamEnded() {
				return resp, nil
			}
		case *http2.RSTStreamFrame:
			return resp, fmt.Errorf("stream reset: %v", f.ErrCode)
		case *http2.GoAwayFrame:
			return resp, fmt.Errorf("server sent GOAWAY: %v", f.ErrCode)
		}
	}
}
