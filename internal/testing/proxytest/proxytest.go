// Package proxytest puts Debian's nginx or HAProxy, with their default
// buffer settings, in front of a gRPC server for a test: both listen on a
// free 127.0.0.1 port, speak HTTP/2 to the backend, and stop when the test
// ends; NginxHTTP is nginx as a plain HTTP/1.1 reverse proxy (proxy_pass)
// in front of the HTTP API. A proxy that is not installed skips the test
// with "skipped: <tool> not installed", or fails it when
// RUNSVC_REQUIRE_ALL=1.
package proxytest

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/testing/blackbox"
)

// Proxy is one kind of proxy a suite runs through.
type Proxy struct {
	// Name is the proxy's name, e.g. "nginx".
	Name string
	// Start puts the proxy in front of upstream (host:port) and returns
	// the address it listens on.
	Start func(t testing.TB, upstream string) string
}

// All is every proxy the suites run through.
var All = []Proxy{{Name: "nginx", Start: Nginx}, {Name: "haproxy", Start: HAProxy}}

// nginxPreamble is what every nginx config here starts with: one
// process in the foreground, its files in the directory %[1]s, no access
// log; a config goes on with the http block's server.
const nginxPreamble = `daemon off;
master_process off;
worker_processes 1;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path %[1]s/body;
  proxy_temp_path %[1]s/proxy;
  fastcgi_temp_path %[1]s/fastcgi;
  uwsgi_temp_path %[1]s/uwsgi;
  scgi_temp_path %[1]s/scgi;
`

// nginxConf sets only paths, the listener and timeouts long enough for
// runsvc's long waits; every buffer (grpc_buffer_size: one memory page,
// 4 KiB here, holds the response header block) is nginx's default.
const nginxConf = nginxPreamble + `  server {
    listen %[2]s http2;
    client_max_body_size 8m;
    location / {
      grpc_pass grpc://%[3]s;
      grpc_read_timeout 300s;
      grpc_send_timeout 300s;
    }
  }
}
`

// haproxyConf is HTTP/2 on both sides with HAProxy's default buffers
// (tune.bufsize 16384, tune.maxrewrite 1024); only timeouts are set, as
// HAProxy requires them.
const haproxyConf = `global
  pidfile %[1]s/haproxy.pid
defaults
  mode http
  timeout connect 5s
  timeout client 300s
  timeout server 300s
frontend grpc_in
  bind %[2]s proto h2
  default_backend runsvc
backend runsvc
  server runsvc %[3]s proto h2
`

// Nginx puts Debian's nginx (grpc_pass) in front of upstream.
func Nginx(t testing.TB, upstream string) string {
	t.Helper()
	bin := lookup(t, "nginx", "/usr/sbin/nginx")
	dir := t.TempDir()
	listen := blackbox.FreePort(t)
	conf := writeConf(t, dir, "nginx.conf", fmt.Sprintf(nginxConf, dir, listen, upstream))
	return run(t, dir, listen, exec.Command(bin, "-p", dir, "-c", conf), filepath.Join(dir, "error.log"))
}

// HAProxy puts Debian's HAProxy in front of upstream, HTTP/2 to it.
func HAProxy(t testing.TB, upstream string) string {
	t.Helper()
	bin := lookup(t, "haproxy", "/usr/sbin/haproxy")
	dir := t.TempDir()
	listen := blackbox.FreePort(t)
	conf := writeConf(t, dir, "haproxy.cfg", fmt.Sprintf(haproxyConf, dir, listen, upstream))
	// -db: stay in the foreground, so the test owns the process.
	return run(t, dir, listen, exec.Command(bin, "-db", "-f", conf), "")
}

// lookup finds a proxy's binary, or skips (fails with RUNSVC_REQUIRE_ALL=1).
func lookup(t testing.TB, name, fallback string) string {
	t.Helper()
	bin, err := exec.LookPath(name)
	if err != nil {
		bin = fallback
	}
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
			t.Fatalf("%s is not installed and RUNSVC_REQUIRE_ALL=1 (apt-get install %s)", name, name)
		}
		t.Skipf("skipped: %s not installed", name)
	}
	return bin
}

func writeConf(t testing.TB, dir, name, text string) string {
	t.Helper()
	conf := filepath.Join(dir, name)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return conf
}

// nginxHTTPConf is an HTTP/1.1 reverse proxy as nginx's documentation
// writes it: proxy_pass and nothing else, so every buffer, timeout and
// limit (proxy_buffering on, HTTP/1.0 to the backend, a 1 MiB body, 60s
// reads) is nginx's default.
const nginxHTTPConf = nginxPreamble + `  server {
    listen %[2]s;
    location / {
      proxy_pass http://%[3]s;
    }
  }
}
`

// NginxHTTP puts Debian's nginx, a default proxy_pass, in front of an
// HTTP server (upstream is host:port) and returns its URL,
// "http://127.0.0.1:port", once upstream answers through it.
func NginxHTTP(t testing.TB, upstream string) string {
	t.Helper()
	bin := lookup(t, "nginx", "/usr/sbin/nginx")
	dir := t.TempDir()
	listen := blackbox.FreePort(t)
	conf := writeConf(t, dir, "nginx.conf", fmt.Sprintf(nginxHTTPConf, dir, listen, upstream))
	runUntil(t, dir, listen, exec.Command(bin, "-p", dir, "-c", conf), filepath.Join(dir, "error.log"), answersHTTP)
	return "http://" + listen
}

// answersHTTP waits until a GET of / at addr gets an answer from behind
// the proxy: anything but the 502, 503 or 504 nginx gives while its
// upstream does not answer.
func answersHTTP(addr string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		resp, err := http.Get("http://" + addr + "/")
		if err == nil {
			_ = resp.Body.Close()
			switch resp.StatusCode {
			case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
				err = fmt.Errorf("HTTP %d", resp.StatusCode)
			default:
				return nil
			}
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// run starts the proxy, stops it when the test ends and waits until the
// backend's health check answers through it.
func run(t testing.TB, dir, listen string, cmd *exec.Cmd, errorLog string) string {
	t.Helper()
	return runUntil(t, dir, listen, cmd, errorLog, blackbox.WaitHealthy)
}

// runUntil is run, waiting with ready instead of the health check.
func runUntil(t testing.TB, dir, listen string, cmd *exec.Cmd, errorLog string, ready func(string, time.Duration) error) string {
	t.Helper()
	out, err := os.Create(filepath.Join(dir, "output"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); _ = out.Close(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	if err := ready(listen, 20*time.Second); err != nil {
		output, _ := os.ReadFile(filepath.Join(dir, "output"))
		var log []byte
		if errorLog != "" {
			log, _ = os.ReadFile(errorLog)
		}
		t.Fatalf("%s in front of %s never answered: %v\n%s%s", filepath.Base(cmd.Path), listen, err, output, log)
	}
	return listen
}

// NginxWithReadTimeout is Nginx with grpc_read_timeout d instead of
// 300s: a proxy that cuts a stream idle for d.
func NginxWithReadTimeout(t testing.TB, upstream string, d time.Duration) string {
	t.Helper()
	bin := lookup(t, "nginx", "/usr/sbin/nginx")
	dir := t.TempDir()
	listen := blackbox.FreePort(t)
	text := strings.Replace(fmt.Sprintf(nginxConf, dir, listen, upstream), "grpc_read_timeout 300s", fmt.Sprintf("grpc_read_timeout %ds", int(d.Seconds())), 1)
	conf := writeConf(t, dir, "nginx.conf", text)
	return run(t, dir, listen, exec.Command(bin, "-p", dir, "-c", conf), filepath.Join(dir, "error.log"))
}
