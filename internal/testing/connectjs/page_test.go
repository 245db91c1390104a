package connectjs_test

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/testing/browsertest"
)

// pageHTML loads the bundled connect-web page.
const pageHTML = `<!doctype html><title>runsvc connect-web</title><pre id="text"></pre><script type="module" src="/page.js"></script>`

// bundle builds web/page.js with esbuild into one browser script. It skips
// the test (fails it with RUNSVC_REQUIRE_ALL=1) when npm ci has not been
// run here.
func bundle(t *testing.T) []byte {
	t.Helper()
	esbuild := filepath.Join("node_modules", ".bin", "esbuild")
	if _, err := os.Stat(filepath.Join("node_modules", "@connectrpc", "connect-web")); err != nil {
		if os.Getenv(browsertest.RequireAllEnv) == "1" {
			t.Fatalf("internal/testing/connectjs: node_modules not installed (npm ci), and %s=1", browsertest.RequireAllEnv)
		}
		t.Skip("skipped: internal/testing/connectjs node_modules not installed (npm ci)")
	}
	out := filepath.Join(t.TempDir(), "page.js")
	cmd := exec.Command(esbuild, filepath.Join("web", "page.js"), "--bundle", "--format=esm", "--log-level=warning", "--outfile="+out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("esbuild: %v\n%s", err, msg)
	}
	js, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// descriptorSet is the FileDescriptorSet of runsvc's protos and every file
// they import, which the page turns into a registry for connect-web.
func descriptorSet(t *testing.T) []byte {
	t.Helper()
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	var add func(protoreflect.FileDescriptor)
	add = func(f protoreflect.FileDescriptor) {
		if seen[f.Path()] {
			return
		}
		seen[f.Path()] = true
		for i := range f.Imports().Len() {
			add(f.Imports().Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(f))
	}
	add(runsvcv1.File_runsvc_v1_run_proto)
	b, err := proto.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pageSite serves the page, its bundle, the descriptors and the SSE page:
// the same site on every origin the test opens.
func pageSite(t *testing.T) http.Handler {
	js, desc := bundle(t), descriptorSet(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(pageHTML))
	})
	mux.HandleFunc("/sse", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(ssePage))
	})
	mux.HandleFunc("/page.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write(js)
	})
	mux.HandleFunc("/descriptors.binpb", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(desc)
	})
	return mux
}
