package console_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
)

// phoneWidth is the width of the phone the list must read on.
const phoneWidth = 390

// phoneChecks (issue 31, item 18): at 390 px every Run of the list is
// read whole, with no horizontal scroll; a settled Run shows its outcome
// and failure reason; a Spec without pricing reads "no pricing"; the
// filter's labels stay on their inputs' line at both widths.
func phoneChecks(t *testing.T, b browser, id string, failed *runsvcv1.Run) {
	defer b.do(t, chromedp.EmulateViewport(1280, 900))
	b.open(t, "/runs")
	labelsBesideInputs(t, b, "desktop")
	b.do(t, chromedp.EmulateViewport(phoneWidth, 844, chromedp.EmulateMobile, chromedp.EmulatePortrait))
	b.open(t, "/runs")
	labelsBesideInputs(t, b, "phone")
	if over := eval[int](t, b, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); over > 0 {
		t.Errorf("the page is %d px wider than the phone", over)
	}
	// Every cell of every Run, State first, is whole and on screen.
	cut := eval[[]string](t, b, `[...document.querySelectorAll("tr.run td")].filter(td => {
		const r = td.getBoundingClientRect();
		return td.scrollWidth > td.clientWidth || r.left < 0 || r.right > document.documentElement.clientWidth;
	}).map(td => (td.dataset.label || "?") + ": " + td.textContent)`)
	if len(cut) > 0 {
		t.Errorf("cells cut or off screen at %d px: %q", phoneWidth, cut)
	}
	states := eval[[]string](t, b, `[...document.querySelectorAll("tr.run td.state")].map(td => td.innerText)`)
	for _, s := range states {
		if !strings.Contains(" QUEUED RUNNING SUSPENDED COMPLETED FAILED ABORTED ABANDONED ", " "+s+" ") {
			t.Errorf("a State cell reads %q", s)
		}
	}
	if len(states) == 0 {
		t.Fatal("no State cells")
	}
	want := errdetails.ClassifyStatus(failed.GetFailure())
	row := fmt.Sprintf("tr[data-run=%q] .outcome", id)
	if got := b.text(t, row+" .reason"); got != want.Reason {
		t.Errorf("the failed Run's outcome shows reason %q, want %q", got, want.Reason)
	}
	if lines := eval[int](t, b, fmt.Sprintf("document.querySelector(%q).getClientRects().length", row+" .reason")); lines != 1 {
		t.Errorf("the failed Run's reason is broken over %d lines", lines)
	}
	if got := b.text(t, row); !strings.Contains(got, excerptOf(want.Message, 40)) {
		t.Errorf("the failed Run's outcome %q lacks its message %q", got, want.Message)
	}
	b.open(t, "/runs/"+id)
	if got := b.text(t, "#run-cost"); got != "no pricing" {
		t.Errorf("the cost of a Run of a Spec without pricing reads %q", got)
	}
}

// labelsBesideInputs: each filter label sits on its input's line.
func labelsBesideInputs(t *testing.T, b browser, width string) {
	t.Helper()
	apart := eval[[]string](t, b, `[...document.querySelectorAll("form.filter label")].filter(l => {
		const a = l.getBoundingClientRect(), c = document.getElementById(l.htmlFor).getBoundingClientRect();
		const mid = a.top + a.height / 2;
		return mid < c.top || mid > c.bottom || a.right > c.left;
	}).map(l => l.textContent)`)
	if len(apart) > 0 {
		t.Errorf("at %s, labels not beside their inputs: %q", width, apart)
	}
}

// excerptOf is the first n runes of s.
func excerptOf(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}
