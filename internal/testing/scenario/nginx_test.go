package scenario_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/testing/scenario"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/wirecheck"
)

const nginxConf = `daemon off;
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
  server {
    listen %[2]s http2;
    client_max_body_size 8m;
    location / {
      grpc_pass grpc://%[3]s;
      grpc_buffer_size 64k;
      grpc_read_timeout 300s;
      grpc_send_timeout 300s;
    }
  }
}
`

// startNginx puts Debian's nginx in front of addr and returns its address.
func startNginx(t *testing.T, upstream string) string {
	t.Helper()
	bin, err := exec.LookPath("nginx")
	if err != nil {
		bin = "/usr/sbin/nginx"
	}
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("RUNSVC_REQUIRE_ALL") == "1" {
			t.Fatal("nginx is not installed and RUNSVC_REQUIRE_ALL=1")
		}
		t.Skip("skipped: nginx not installed")
	}
	dir := t.TempDir()
	listen := blackbox.FreePort(t)
	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf(nginxConf, dir, listen, upstream)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", conf)
	out, _ := os.Create(filepath.Join(dir, "stdout"))
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	if err := blackbox.WaitHealthy(listen, 20*time.Second); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
		t.Fatalf("nginx in front of runsvc never answered: %v\n%s", err, log)
	}
	return listen
}

// TestThroughNginx: every scenario's status arrives intact through nginx's
// grpc_pass, pushback trailer included, and an error stays Trailers-Only.
func TestThroughNginx(t *testing.T) {
	f, err := scenario.Load(repoFile(t, "testdata/scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := testserver.Start(t, func(c *server.Config) { c.PolicyFile = repoFile(t, "testdata/policy.json") })
	proxy := startNginx(t, srv.Addr)
	r := &scenario.Runner{Conn: testserver.Dial(t, proxy), Suite: "nginx"}
	ctx := testserver.Context(t)
	if err := r.Setup(ctx, f); err != nil {
		t.Fatal(err)
	}
	for _, s := range f.Scenarios {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			o, err := r.Run(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range s.Problems(o) {
				t.Errorf("through nginx, %s: %s", s.Reason, p)
			}
		})
	}
	t.Run("Trailers-Only survives the proxy", func(t *testing.T) {
		for _, addr := range []string{srv.Addr, proxy} {
			resp, err := wirecheck.Call(ctx, addr, "/runsvc.v1.RunService/GetRun", &runsvcv1.GetRunRequest{RunId: "run_missing"})
			if err != nil {
				t.Fatal(err)
			}
			if !resp.TrailersOnly {
				t.Errorf("via %s: the error came as %d header blocks and %d data frames, not Trailers-Only: %v", addr, len(resp.Headers), resp.DataFrames, resp.Headers)
			}
			last := resp.Last()
			if last["grpc-status"] != "5" || last[errdetails.PushbackTrailer] != "-1" || last["grpc-status-details-bin"] == "" {
				t.Errorf("via %s: trailers %v", addr, last)
			}
		}
	})
}
