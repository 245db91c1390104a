package console_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"google.golang.org/protobuf/types/known/structpb"
)

// ScreenshotsEnv makes TestConsoleInBrowser write the screenshots under
// docs/ when set to "1"; normal runs never rewrite them.
const screenshotsEnv = "RUNSVC_SCREENSHOTS"

// maxScreenshot bounds a committed screenshot's size.
const maxScreenshot = 150 << 10

func screenshotsWanted() bool { return os.Getenv(screenshotsEnv) == "1" }

func structString(s string) *structpb.Value { return structpb.NewStringValue(s) }

// screenshots writes the Runs list, a failed Run and a suspended Run at
// desktop and phone width to docs/console-*.png.
func screenshots(t *testing.T, b browser, failed, suspended string) {
	pages := []struct{ name, path string }{{"runs", "/runs"}, {"failed-run", "/runs/" + failed}, {"suspended-run", "/runs/" + suspended}}
	widths := []struct {
		name          string
		width, height int64
		mobile        bool
	}{{"desktop", 1280, 800, false}, {"phone", 390, 844, true}}
	for _, wd := range widths {
		var opts []chromedp.EmulateViewportOption
		if wd.mobile {
			opts = append(opts, chromedp.EmulateMobile, chromedp.EmulatePortrait)
		}
		b.do(t, chromedp.EmulateViewport(wd.width, wd.height, opts...))
		for _, p := range pages {
			b.open(t, p.path)
			if p.name == "runs" && wd.mobile {
				// The cards, not the filter, are what the phone shot is for.
				eval[bool](t, b, `window.scrollTo(0, document.querySelector("table.runs").offsetTop - 8), true`)
			}
			png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if len(png) > maxScreenshot {
				t.Errorf("%s at %s is %d bytes, more than %d", p.name, wd.name, len(png), maxScreenshot)
			}
			file := filepath.Join("..", "..", "docs", "console-"+p.name+"-"+wd.name+".png")
			if err := os.WriteFile(file, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s (%d bytes)", file, len(png))
		}
	}
	b.do(t, chromedp.EmulateViewport(1280, 900))
}
