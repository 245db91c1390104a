// Package browsertest starts a real headless Chromium for tests, driven
// with chromedp. The browser resolves no host name and reaches no address
// but 127.0.0.1, and stops when the test ends.
//
// It needs Debian's chromium (/usr/bin/chromium) or another Chromium or
// Chrome on PATH. Without one the test is skipped, unless
// RUNSVC_REQUIRE_ALL=1, which makes it fail instead.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// RequireAllEnv is the environment variable that turns a missing browser
// from a skipped test into a failed one when set to "1".
const RequireAllEnv = "RUNSVC_REQUIRE_ALL"

// candidates are the browser binaries looked for, in order.
var candidates = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Find returns the browser's path, if one is installed.
func Find() (string, bool) {
	for _, name := range candidates {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium", true
	}
	return "", false
}

// Start launches a headless browser and returns the context of its first
// tab; the browser stops when the test ends, or after timeout. It skips t
// (or fails it, with RUNSVC_REQUIRE_ALL=1) when no browser is installed.
func Start(t testing.TB, timeout time.Duration) context.Context {
	t.Helper()
	path, ok := Find()
	if !ok {
		if os.Getenv(RequireAllEnv) == "1" {
			t.Fatalf("browsertest: chromium not installed, and %s=1 requires every test to run", RequireAllEnv)
		}
		t.Skip("skipped: chromium not installed")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900),
		// Nothing but the test's own servers: no name resolves, no proxy.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"),
		chromedp.Flag("no-proxy-server", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-domain-reliability", true),
	)
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	base, cancelTimeout := context.WithTimeout(context.Background(), timeout)
	alloc, cancelAlloc := chromedp.NewExecAllocator(base, opts...)
	ctx, cancelTab := chromedp.NewContext(alloc)
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
		cancelTimeout()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("browsertest: starting %s: %v", path, err)
	}
	return ctx
}
