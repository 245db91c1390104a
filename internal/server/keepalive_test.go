package server_test

import (
	"encoding/binary"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// HTTP/2 frame types the server sends that these tests count.
const (
	framePing   = 0x6
	frameGoAway = 0x7
)

// frameCounter is a TCP proxy on 127.0.0.1 in front of runsvc that
// counts, by type, the HTTP/2 frames runsvc sends (pings only when they
// are not acks).
type frameCounter struct {
	addr   string
	mu     sync.Mutex
	counts map[byte]int
}

func startFrameCounter(t *testing.T, target string) *frameCounter {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = lis.Close() })
	f := &frameCounter{addr: lis.Addr().String(), counts: map[byte]int{}}
	go func() {
		for {
			client, err := lis.Accept()
			if err != nil {
				return
			}
			upstream, err := net.Dial("tcp", target)
			if err != nil {
				_ = client.Close()
				continue
			}
			t.Cleanup(func() { _ = client.Close(); _ = upstream.Close() })
			go func() { _, _ = io.Copy(upstream, client) }()
			go f.read(upstream, client)
		}
	}()
	return f
}

// read forwards the server's bytes to the client, counting its frames.
func (f *frameCounter) read(server net.Conn, client net.Conn) {
	header := make([]byte, 9)
	for {
		if _, err := io.ReadFull(server, header); err != nil {
			return
		}
		length := int(binary.BigEndian.Uint32(append([]byte{0}, header[:3]...)))
		payload := make([]byte, length)
		if _, err := io.ReadFull(server, payload); err != nil {
			return
		}
		if kind, ack := header[3], header[4]&1 == 1; kind != framePing || !ack {
			f.mu.Lock()
			f.counts[kind]++
			f.mu.Unlock()
		}
		if _, err := client.Write(append(header, payload...)); err != nil {
			return
		}
	}
}

func (f *frameCounter) count(kind byte) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.counts[kind]
}

// TestKeepalivePingsAndConnectionAge: --keepalive-time makes runsvc ping
// an idle connection, and --max-connection-age makes it send GOAWAY so
// that clients reconnect (and a mesh can rebalance), the client's next
// call working; with the defaults neither happens within the window.
func TestKeepalivePingsAndConnectionAge(t *testing.T) {
	const window = 2500 * time.Millisecond
	cases := []struct {
		name   string
		ops    server.Ops
		frame  byte
		expect bool
	}{
		{"keepalive pings", server.Ops{KeepaliveTime: time.Second}, framePing, true},
		{"no pings by default within the window", server.Ops{}, framePing, false},
		{"max connection age", server.Ops{MaxConnectionAge: 500 * time.Millisecond, MaxConnectionAgeGrace: time.Second}, frameGoAway, true},
		{"no GOAWAY by default", server.Ops{}, frameGoAway, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := testserver.Start(t, func(c *server.Config) { c.Ops = tc.ops })
			proxy := startFrameCounter(t, srv.Addr)
			runs := runsvcv1.NewRunServiceClient(testserver.Dial(t, proxy.addr))
			call := func() {
				t.Helper()
				if _, err := runs.ListRuns(testserver.Context(t), &runsvcv1.ListRunsRequest{}); err != nil {
					t.Fatalf("ListRuns through the proxy: %v", err)
				}
			}
			call()
			before := proxy.count(tc.frame)
			time.Sleep(window)
			got := proxy.count(tc.frame) - before
			if (got > 0) != tc.expect {
				t.Errorf("%d frames of type %#x in %v idle, want some: %v", got, tc.frame, window, tc.expect)
			}
			call() // a GOAWAY'd client reconnects
		})
	}
}
