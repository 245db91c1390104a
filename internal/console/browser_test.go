package console_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/testing/browsertest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// scriptOutput is the client tool's output the flaky Run is given: it must
// render as text, never run.
const scriptOutput = `<script>window.__pwned=1</script>`

// browser is a chromedp tab and the console's base URL.
type browser struct {
	ctx  context.Context
	base string
}

// do runs actions, failing the test on error.
func (b browser) do(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// open navigates to path and returns the HTTP status of the page.
func (b browser) open(t *testing.T, path string) int64 {
	t.Helper()
	resp, err := chromedp.Run(b.ctx, chromedp.NavigateResponse(b.base+path))
	if err != nil {
		t.Fatalf("opening %s: %v", path, err)
	}
	return resp.Status
}

// submit clicks css and waits for the page the click loads.
func (b browser) submit(t *testing.T, css string) {
	t.Helper()
	mark := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Evaluate[bool](`window.__old = true`)(ctx, tg)
		return err
	})
	b.do(t, mark, chromedp.Click(chromedp.CSS(css)))
	b.waitFor(t, `window.__old === undefined && document.readyState === "complete"`)
}

// waitFor polls a JavaScript condition until it holds; a poll cut short
// by a navigation is polled again.
func (b browser) waitFor(t *testing.T, cond string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(b.ctx, time.Second)
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(50*time.Millisecond)))
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: %v", cond, err)
		}
	}
}

// text is the text of the first element matching css.
func (b browser) text(t *testing.T, css string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(css)))
	if err != nil {
		t.Fatalf("text of %s: %v", css, err)
	}
	return s
}

// eval evaluates a JavaScript expression in the page, as DevTools would.
func eval[T any](t *testing.T, b browser, expr string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// count is how many elements match css.
func (b browser) count(t *testing.T, css string) int {
	t.Helper()
	return eval[int](t, b, fmt.Sprintf("document.querySelectorAll(%q).length", css))
}

// signIn signs in with key and checks the console lands on the Runs.
func (b browser) signIn(t *testing.T, key string) {
	t.Helper()
	if b.count(t, "form[action='/logout']") > 0 {
		// Sign out: the form posts, the session ends, the sign-in form is next.
		b.submit(t, "form[action='/logout'] button")
		if p := eval[string](t, b, "location.pathname"); p != "/login" {
			t.Fatalf("signed out, the console shows %s", p)
		}
	}
	b.open(t, "/login")
	b.do(t, chromedp.SetValue(chromedp.CSS("#key"), key))
	b.submit(t, "form[action='/login'] button")
	if p := eval[string](t, b, "location.pathname"); p != "/runs" {
		t.Fatalf("signed in, the console shows %s, want /runs", p)
	}
}

// TestConsoleInBrowser drives the console in a real headless Chromium
// through every point issue 21 asks to be shown.
func TestConsoleInBrowser(t *testing.T) {
	ctx := browsertest.Start(t, 5*time.Minute)
	w := startWorld(t)
	b := browser{ctx: ctx, base: w.srv.ConsoleURL}
	if b.base == "" {
		t.Fatal("the server reports no console URL")
	}
	support, flaky, janitor := w.start(t, "support"), w.start(t, "flaky"), w.start(t, "janitor")
	w.waitFor(t, support, runsvcv1.RunState_RUN_STATE_SUSPENDED)
	suspendedFlaky := w.waitFor(t, flaky, runsvcv1.RunState_RUN_STATE_SUSPENDED)
	w.waitFor(t, janitor, runsvcv1.RunState_RUN_STATE_SUSPENDED)
	// The flaky Run's client tool answers with markup; the Run then fails.
	call := suspendedFlaky.GetSuspension().GetToolCalls()[0].GetCallId()
	if _, err := w.runs.ResumeRun(testserver.Context(t), &runsvcv1.ResumeRunRequest{RunId: flaky,
		ToolResults: []*runsvcv1.ToolResult{{CallId: call, Output: structString(scriptOutput)}}}); err != nil {
		t.Fatal(err)
	}
	failed := w.waitFor(t, flaky, runsvcv1.RunState_RUN_STATE_FAILED)

	t.Run("sign in", func(t *testing.T) { signInChecks(t, b, w) })
	t.Run("run list shows the test's Runs", func(t *testing.T) {
		b.open(t, "/runs")
		for _, id := range []string{support, flaky, janitor} {
			if b.count(t, fmt.Sprintf("tr[data-run=%q]", id)) != 1 {
				t.Errorf("the Runs list has no row for %s", id)
			}
		}
		if got := b.text(t, "[data-state=FAILED]"); got == "0" {
			t.Errorf("FAILED count is %s, want at least 1", got)
		}
	})
	t.Run("failed run shows turns, tool calls, reason and retry bit", func(t *testing.T) { failedRunChecks(t, b, flaky, failed) })
	t.Run("tool output with script renders as text", func(t *testing.T) { scriptChecks(t, b, flaky) })
	t.Run("readable without JavaScript, keyboard first stop is the skip link", func(t *testing.T) { plainChecks(t, b, flaky, failed) })
	t.Run("filters", func(t *testing.T) {
		b.open(t, "/runs?state=FAILED&spec=flaky")
		if n := b.count(t, "tr.run"); n != 1 || b.count(t, fmt.Sprintf("tr[data-run=%q]", flaky)) != 1 {
			t.Errorf("state=FAILED&spec=flaky shows %d rows", n)
		}
		b.open(t, "/runs?since=2999-01-01T00:00")
		if n := b.count(t, "tr.run"); n != 0 {
			t.Errorf("Runs created after 2999: %d rows", n)
		}
	})
	t.Run("at phone width the Runs list reads whole, with outcomes", func(t *testing.T) { phoneChecks(t, b, flaky, failed) })
	if screenshotsWanted() {
		t.Run("screenshots", func(t *testing.T) {
			b.signIn(t, w.keys["acme/admin"])
			screenshots(t, b, flaky, support)
		})
	}
	t.Run("answering a client tool completes the Run", func(t *testing.T) { answerChecks(t, b, w, support) })
	t.Run("approving from the page completes the Run", func(t *testing.T) { approveChecks(t, b, w, janitor) })
	t.Run("denying from the page never calls the tool", func(t *testing.T) { denyChecks(t, b, w) })
	t.Run("live text streams in", func(t *testing.T) { liveChecks(t, b, w) })
	t.Run("answering a question completes the Run", func(t *testing.T) { questionChecks(t, b, w) })
	t.Run("live counts update", func(t *testing.T) { countChecks(t, b, w) })
	t.Run("a runner sends a message and interrupts; a refused action shows the API's status", func(t *testing.T) { steerChecks(t, b, w) })
	t.Run("specs, versions and their diff", func(t *testing.T) { specChecks(t, b, w) })
	t.Run("the catalogue lists every reason", func(t *testing.T) { catalogueChecks(t, b) })
	t.Run("reader sees no actions and a forged one is refused", func(t *testing.T) { readerChecks(t, b, w) })
	t.Run("thread filter, thread, continues and fork links", func(t *testing.T) { threadChecks(t, b, w) })
	t.Run("another tenant's Run is not found", func(t *testing.T) { tenantChecks(t, b, w, flaky) })
}

// signInChecks: a wrong key is refused; the right one gives an HttpOnly,
// SameSite=Strict, expiring session cookie.
func signInChecks(t *testing.T, b browser, w *world) {
	b.open(t, "/runs")
	if loc := eval[string](t, b, "location.pathname"); loc != "/login" {
		t.Fatalf("before signing in /runs went to %s, want /login", loc)
	}
	b.do(t, chromedp.SetValue(chromedp.CSS("#key"), "not-a-key"), chromedp.Click(chromedp.CSS("form[action='/login'] button")),
		chromedp.WaitVisible(chromedp.CSS(".problem")))
	if got := b.text(t, ".problem"); !strings.Contains(got, "not in the keys file") {
		t.Fatalf("a wrong key says %q", got)
	}
	b.signIn(t, w.keys["acme/admin"])
	cookies, err := chromedp.Call(b.ctx, network.GetCookies, network.GetCookiesParams{})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, c := range cookies.Cookies {
		if c.Name != "runsvc_session" {
			continue
		}
		found = true
		if !c.HTTPOnly || c.SameSite != network.CookieSameSiteStrict || c.Session || c.Expires <= float64(time.Now().Unix()) {
			t.Errorf("session cookie: httpOnly=%v sameSite=%v session=%v expires=%v", c.HTTPOnly, c.SameSite, c.Session, c.Expires)
		}
	}
	if !found {
		t.Fatal("no session cookie after signing in")
	}
	if got := b.text(t, ".who"); !strings.Contains(got, "acme") || !strings.Contains(got, "admin") {
		t.Errorf("signed in as %q", got)
	}
}

// failedRunChecks compares the page with the Run's failure as GetRun
// returns it: the same reason, code and retry bit, and a catalogue link.
func failedRunChecks(t *testing.T, b browser, id string, run *runsvcv1.Run) {
	want := errdetails.ClassifyStatus(run.GetFailure())
	if want.Reason == "" {
		t.Fatalf("the failed Run has no reason: %v", run.GetFailure())
	}
	if !want.Retryable {
		t.Errorf("a Run failed with its retry budget spent should be retryable (DESIGN §2), got %+v", want)
	}
	b.open(t, "/runs/"+id)
	if got := b.text(t, "#run-state"); got != "FAILED" {
		t.Errorf("state shows %q", got)
	}
	if b.count(t, ".rec-turn") < 2 || b.count(t, ".rec-model") < 1 {
		t.Errorf("turns: %d, model calls: %d", b.count(t, ".rec-turn"), b.count(t, ".rec-model"))
	}
	if got := b.text(t, ".rec-tool strong"); got != "Tool call: lookup (CLIENT)" {
		t.Errorf("tool call row says %q", got)
	}
	if got := b.text(t, ".rec-tool"); !strings.Contains(got, `"q":"<b>bold</b>"`) {
		t.Errorf("tool call row lacks its arguments: %q", got)
	}
	if b.count(t, ".rec-model-failed") < 1 {
		t.Error("no failed model call in the timeline")
	}
	if got := b.text(t, "main > .failure .reason"); got != want.Reason {
		t.Errorf("failure reason shows %q, the status says %q", got, want.Reason)
	}
	if got := b.text(t, "main > .failure .code"); got != want.Code.String() {
		t.Errorf("failure code shows %q, want %s", got, want.Code)
	}
	if got := b.text(t, "main > .failure .retryable"); !strings.HasPrefix(got, "yes, after") {
		t.Errorf("retry bit shows %q", got)
	}
	href := eval[string](t, b, `document.querySelector("main > .failure a.reason").getAttribute("href")`)
	if href != "/errors#"+want.Reason {
		t.Fatalf("catalogue link %q", href)
	}
	b.open(t, href)
	if got := b.text(t, "#h-"+want.Reason); got != want.Reason {
		t.Errorf("the catalogue entry heading is %q", got)
	}
}

// scriptChecks: the markup the tool returned is shown as text and never
// ran; the only script of the page is the console's own file.
func scriptChecks(t *testing.T, b browser, id string) {
	b.open(t, "/runs/"+id)
	if got := b.text(t, ".rec-resumed pre"); !strings.Contains(got, scriptOutput) {
		t.Errorf("the tool's output shows as %q, want the literal %s", got, scriptOutput)
	}
	if eval[bool](t, b, "window.__pwned !== undefined") {
		t.Fatal("the tool's <script> ran")
	}
	if n := eval[int](t, b, "document.scripts.length"); n != 1 {
		t.Errorf("%d scripts in the page, want only /static/live.js", n)
	}
}

// answerChecks answers the support Run's client tool from the page.
func answerChecks(t *testing.T, b browser, w *world, id string) {
	b.open(t, "/runs/"+id)
	b.do(t, chromedp.SetValue(chromedp.CSS("#resume-tools textarea"), `{"status": "shipped"}`))
	b.submit(t, "#resume-tools button")
	run := w.waitFor(t, id, runsvcv1.RunState_RUN_STATE_COMPLETED)
	if run.GetAnswer() != "Order 42 shipped" {
		t.Errorf("answer %q", run.GetAnswer())
	}
	var resumed bool
	for _, r := range w.records(t, id) {
		for _, res := range r.GetResumed().GetToolResults() {
			resumed = resumed || res.GetOutput().GetStructValue().GetFields()["status"].GetStringValue() == "shipped"
		}
	}
	if !resumed {
		t.Error("the log has no Resumed record with the page's result")
	}
	b.open(t, "/runs/"+id)
	if got := b.text(t, ".rec-settled strong"); got != "Settled: COMPLETED" {
		t.Errorf("the page says %q", got)
	}
}

// approveChecks approves the janitor's delete_repo from the page, with a
// note.
func approveChecks(t *testing.T, b browser, w *world, id string) {
	b.open(t, "/runs/"+id)
	b.do(t, chromedp.SetValue(chromedp.CSS("#note"), "ok, it is archived"))
	b.submit(t, `#resume-approval button[value="approve"]`)
	run := w.waitFor(t, id, runsvcv1.RunState_RUN_STATE_COMPLETED)
	if run.GetAnswer() != "Deleted" || w.deletes.Load() != 1 {
		t.Errorf("answer %q, tool server calls %d", run.GetAnswer(), w.deletes.Load())
	}
	var approved, finished bool
	for _, r := range w.records(t, id) {
		approved = approved || (r.GetResumed().GetApproved() && r.GetResumed().GetReason() == runsvcv1.SuspensionReason_SUSPENSION_REASON_APPROVAL)
		finished = finished || (r.GetToolCallFinished().GetName() == "delete_repo" && r.GetToolCallFinished().GetError() == nil)
	}
	if !approved || !finished {
		t.Errorf("log: approved %v, delete_repo finished %v", approved, finished)
	}
}

// liveChecks opens a Run while its model call is in flight and sees its
// text arrive over server-sent events, without reloading.
func liveChecks(t *testing.T, b browser, w *world) {
	id := w.start(t, "slow")
	w.waitFor(t, id, runsvcv1.RunState_RUN_STATE_RUNNING)
	b.open(t, "/runs/"+id)
	if got := b.text(t, "#run-state"); got != "RUNNING" {
		t.Fatalf("the page opened on a %s Run; the model call should still be in flight", got)
	}
	if got := eval[string](t, b, `document.querySelector("#live .live-text").textContent`); got != "" {
		t.Fatalf("live text before the call returned: %q", got)
	}
	marker := eval[string](t, b, `window.__marker = "same page"`)
	b.do(t, chromedp.WaitReady(chromedp.CSS(`#live[data-ended="true"]`)))
	if got := eval[string](t, b, `document.querySelector("#live .live-text").textContent`); got != "streamed answer arrives" {
		t.Errorf("live text %q", got)
	}
	if eval[string](t, b, `window.__marker || ""`) != marker {
		t.Error("the page reloaded: the text did not stream into it")
	}
}

// readerChecks: a reader sees a suspended Run without any form, and a
// forged action, with the session's own CSRF token, is ROLE_DENIED by the
// server; without the token it is refused before any RPC.
func readerChecks(t *testing.T, b browser, w *world) {
	id := w.start(t, "support")
	w.waitFor(t, id, runsvcv1.RunState_RUN_STATE_SUSPENDED)
	b.signIn(t, w.keys["acme/reader"])
	b.open(t, "/runs/"+id)
	if n := b.count(t, "#actions, form.action, #resume-tools"); n != 0 {
		t.Fatalf("a reader sees %d action forms", n)
	}
	forge := `fetch("/runs/%s/resume", {method: "POST", headers: {"Content-Type": "application/x-www-form-urlencoded"},
	  body: new URLSearchParams({csrf: %s, kind: "question", answer: "forged"})}).then(async r => JSON.stringify({status: r.status, body: await r.text()}))`
	withToken := fmt.Sprintf(forge, id, `document.querySelector("form[action='/logout'] input[name=csrf]").value`)
	var got struct {
		Status int    `json:"status"`
		Body   string `json:"body"`
	}
	if err := json.Unmarshal([]byte(eval[string](t, b, withToken)), &got); err != nil {
		t.Fatal(err)
	}
	if got.Status != 403 || !strings.Contains(got.Body, "ROLE_DENIED") {
		t.Errorf("forged resume with the token: %d %s", got.Status, excerpt(got.Body))
	}
	if err := json.Unmarshal([]byte(eval[string](t, b, fmt.Sprintf(forge, id, `"wrong-token"`))), &got); err != nil {
		t.Fatal(err)
	}
	if got.Status != 403 || !strings.Contains(got.Body, "CSRF") {
		t.Errorf("forged resume without the token: %d %s", got.Status, excerpt(got.Body))
	}
	resp, err := w.runs.GetRun(testserver.Context(t), &runsvcv1.GetRunRequest{RunId: id})
	if err != nil || resp.GetRun().GetState() != runsvcv1.RunState_RUN_STATE_SUSPENDED {
		t.Errorf("after the forged actions the Run is %v (%v), want still SUSPENDED", resp.GetRun().GetState(), err)
	}
}

// tenantChecks: globex's admin finds neither acme's Run nor its row.
func tenantChecks(t *testing.T, b browser, w *world, acmeRun string) {
	b.signIn(t, w.keys["globex/admin"])
	if code := b.open(t, "/runs/"+acmeRun); code != 404 {
		t.Errorf("another tenant's Run answered HTTP %d", code)
	}
	if got := b.text(t, ".failure .reason"); got != "RUN_NOT_FOUND" {
		t.Errorf("another tenant's Run shows %q", got)
	}
	b.open(t, "/runs")
	if n := b.count(t, "tr.run"); n != 0 {
		t.Errorf("globex's Runs list shows %d Runs", n)
	}
}

func excerpt(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}
