package console_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// plainChecks reads a failed Run's page with script execution off, then
// checks that Tab first reaches the skip link.
func plainChecks(t *testing.T, b browser, id string, run *runsvcv1.Run) {
	setScripts := func(disabled bool) {
		if _, err := chromedp.Call(b.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: disabled}); err != nil {
			t.Fatal(err)
		}
	}
	setScripts(true)
	b.open(t, "/runs/"+id)
	nodes, err := chromedp.Run(b.ctx, chromedp.Nodes(chromedp.CSSAll("ol.timeline > li")))
	setScripts(false)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(nodes)) != run.GetLastSeq() {
		t.Errorf("without JavaScript the timeline has %d rows, the log %d Records", len(nodes), run.GetLastSeq())
	}
	if got := b.text(t, "main > .failure .reason"); got != errdetails.ClassifyStatus(run.GetFailure()).Reason {
		t.Errorf("without JavaScript the failure shows %q", got)
	}
	b.open(t, "/runs/"+id)
	b.do(t, chromedp.KeyEvent("\t"))
	if got := eval[string](t, b, "document.activeElement.textContent"); got != "Skip to content" {
		t.Errorf("the first Tab stop is %q", got)
	}
}

// questionChecks answers ask_user's question from the page.
func questionChecks(t *testing.T, b browser, w *world) {
	id := w.start(t, "asker")
	w.waitFor(t, id, runsvcv1.RunState_RUN_STATE_SUSPENDED)
	b.open(t, "/runs/"+id)
	if got := b.text(t, "#resume-question h3"); got != "Which region?" {
		t.Fatalf("the question shows as %q", got)
	}
	b.do(t, chromedp.SetValue(chromedp.CSS("#answer"), "eu-west"))
	b.submit(t, "#resume-question button")
	run := w.waitFor(t, id, runsvcv1.RunState_RUN_STATE_COMPLETED)
	var answered bool
	for _, r := range w.records(t, id) {
		answered = answered || r.GetResumed().GetAnswer() == "eu-west"
	}
	if !answered || run.GetAnswer() != "Thanks" {
		t.Errorf("log has the answer: %v; Run answer %q", answered, run.GetAnswer())
	}
}

// countChecks: the Runs list's counts follow a new Run without a reload.
func countChecks(t *testing.T, b browser, w *world) {
	b.open(t, "/runs")
	before := b.text(t, "[data-state=SUSPENDED]")
	eval[string](t, b, `window.__marker = "same page"`)
	id := w.start(t, "support")
	w.waitFor(t, id, runsvcv1.RunState_RUN_STATE_SUSPENDED)
	var n int
	fmt.Sscan(before, &n)
	want := fmt.Sprint(n + 1)
	deadline := time.Now().Add(20 * time.Second)
	for b.text(t, "[data-state=SUSPENDED]") != want {
		if time.Now().After(deadline) {
			t.Fatalf("SUSPENDED count stayed %s, want %s", b.text(t, "[data-state=SUSPENDED]"), want)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if eval[string](t, b, `window.__marker || ""`) != "same page" {
		t.Error("the page reloaded: the counts did not come live")
	}
}

// steerChecks: a runner's page has the message and interrupt forms; both
// reach the log. Answering the settled Run, forged from the page, shows the status the API returns for the same call.
func steerChecks(t *testing.T, b browser, w *world) {
	b.signIn(t, w.keys["acme/runner"])
	id := w.start(t, "support")
	w.waitFor(t, id, runsvcv1.RunState_RUN_STATE_SUSPENDED)
	b.open(t, "/runs/"+id)
	b.do(t, chromedp.SetValue(chromedp.CSS("#msg"), "please hurry"))
	b.submit(t, "#send-message button")
	b.do(t, chromedp.SetValue(chromedp.CSS("#reason"), "not needed"))
	b.submit(t, "#interrupt button")
	run := w.waitFor(t, id, runsvcv1.RunState_RUN_STATE_ABORTED)
	if run.GetAbortCause() != runsvcv1.AbortCause_ABORT_CAUSE_INTERRUPTED {
		t.Errorf("abort cause %v", run.GetAbortCause())
	}
	var queued, asked bool
	for _, r := range w.records(t, id) {
		queued = queued || r.GetMessageQueued().GetText() == "please hurry"
		asked = asked || r.GetAbortRequested().GetReason() == "not needed"
	}
	if !queued || !asked {
		t.Errorf("log: message queued %v, interrupt with its reason %v", queued, asked)
	}
	_, apiErr := w.runs.ResumeRun(testserver.Context(t), &runsvcv1.ResumeRunRequest{RunId: id, Answer: "late"})
	want := errdetails.Classify(apiErr)
	if want.Reason == "" {
		t.Fatalf("resuming a settled Run through the API: %v", apiErr)
	}
	b.open(t, "/runs/"+id)
	page := eval[string](t, b, fmt.Sprintf(`fetch("/runs/%s/resume", {method: "POST", headers: {"Content-Type": "application/x-www-form-urlencoded"},
	  body: new URLSearchParams({csrf: document.querySelector("form[action='/logout'] input[name=csrf]").value, kind: "question", answer: "late"})})
	  .then(async r => { const d = new DOMParser().parseFromString(await r.text(), "text/html");
	    const q = s => (d.querySelector(s) || {textContent: ""}).textContent;
	    return JSON.stringify({status: r.status, reason: q(".failure .reason"), code: q(".failure .code"), message: q(".failure .message"),
	      precondition: q(".failure table td")}); })`, id))
	var got struct {
		Status                              int
		Reason, Code, Message, Precondition string
	}
	if err := json.Unmarshal([]byte(page), &got); err != nil {
		t.Fatal(err)
	}
	st, _ := status.FromError(apiErr)
	if got.Reason != want.Reason || got.Code != want.Code.String() || got.Message != st.Message() || got.Status != 409 {
		t.Errorf("the page shows %+v; the API returned %s %s %q", got, want.Reason, want.Code, st.Message())
	}
	if b, _ := protojson.Marshal(st.Proto()); strings.Contains(string(b), "PreconditionFailure") && got.Precondition == "" {
		t.Error("the API's PreconditionFailure is not on the page")
	}
}

// specChecks publishes a second Version of a Spec and diffs the two.
func specChecks(t *testing.T, b browser, w *world) {
	b.signIn(t, w.keys["acme/admin"])
	first := testserver.Publish(t, w.specs, `{"name": "notes", "instructions": "Be brief.", "model": {"provider": "scripted", "script": {"turns": [{"text": "ok"}]}}}`)
	second := testserver.Publish(t, w.specs, `{"name": "notes", "instructions": "Be thorough.", "model": {"provider": "scripted", "script": {"turns": [{"text": "ok"}]}}}`)
	b.open(t, "/specs")
	if b.count(t, `a[href="/specs/notes"]`) != 1 {
		t.Fatal("the Specs list has no notes")
	}
	b.open(t, "/specs/notes")
	if n := b.count(t, `input[name=a]`); n != 2 {
		t.Fatalf("%d Versions listed, want 2", n)
	}
	b.do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`input[name=a][value=%q]`, first.GetVersion()))),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`input[name=b][value=%q]`, second.GetVersion()))),
	)
	b.submit(t, `form[aria-label="Compare Versions"] button`)
	if got := b.text(t, ".diff .ddel"); !strings.Contains(got, "Be brief.") {
		t.Errorf("removed lines %q", got)
	}
	if got := b.text(t, ".diff .dadd"); !strings.Contains(got, "Be thorough.") {
		t.Errorf("added lines %q", got)
	}
}

// catalogueChecks: one entry per reason of the table, with its code.
func catalogueChecks(t *testing.T, b browser) {
	b.open(t, "/errors")
	entries := errdetails.Catalogue()
	if n := b.count(t, ".reason-entry"); n != len(entries) {
		t.Fatalf("%d entries, the table has %d reasons", n, len(entries))
	}
	for _, e := range entries {
		if got := b.text(t, "#"+e.Reason+" dd"); got != e.Code {
			t.Errorf("%s: code shows %q, want %s", e.Reason, got, e.Code)
		}
	}
}

// threadChecks starts two Runs on one thread, one on another and one on
// none, then filters the Runs list by the first thread from the form: it
// shows exactly that thread's Runs, oldest first. The second Run's page
// links its thread and the Run it continues; a fork's page links its
// source.
func threadChecks(t *testing.T, b browser, w *world) {
	b.signIn(t, w.keys["acme/admin"])
	testserver.Publish(t, w.specs, `{"name": "chat", "model": {"provider": "scripted", "script": {"turns": [{"text": "ok"}]}}}`)
	startOn := func(thread string) string {
		resp, err := w.runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "chat", Input: "hi", ThreadId: thread})
		if err != nil {
			t.Fatalf("StartRun(thread %q): %v", thread, err)
		}
		w.waitFor(t, resp.GetRun().GetRunId(), runsvcv1.RunState_RUN_STATE_COMPLETED)
		return resp.GetRun().GetRunId()
	}
	first, second := startOn("t-blue"), startOn("t-blue")
	other, none := startOn("t-green"), startOn("")
	b.open(t, "/runs")
	b.do(t, chromedp.SetValue(chromedp.CSS("#thread"), "t-blue"))
	b.submit(t, `form[aria-label="Filter"] button`)
	if got := eval[string](t, b, `location.search`); got != "?state=&spec=&thread=t-blue&since=&until=" {
		t.Errorf("the form asked for %s", got)
	}
	rows := eval[[]string](t, b, `[...document.querySelectorAll("tr.run")].map(r => r.dataset.run)`)
	if strings.Join(rows, ",") != first+","+second {
		t.Errorf("thread t-blue lists %v, want [%s %s] (not %s nor %s)", rows, first, second, other, none)
	}
	if got := eval[string](t, b, `document.querySelector("#thread").value`); got != "t-blue" {
		t.Errorf("the filter form kept thread %q", got)
	}
	live := eval[string](t, b, `new Promise(ok => { const es = new EventSource(document.querySelector("#counts").dataset.src);
	  es.addEventListener("counts", e => { es.close(); ok(JSON.parse(e.data).COMPLETED); }); })`)
	if got := b.text(t, "[data-state=COMPLETED]"); got != "2" || live != "2" {
		t.Errorf("thread t-blue's COMPLETED count is %s on the page and %s live, want 2", got, live)
	}
	b.open(t, "/runs/"+second)
	if href := eval[string](t, b, `document.querySelector("#run-thread a").getAttribute("href")`); href != "/runs?thread=t-blue" {
		t.Errorf("thread link %q", href)
	}
	if got := b.text(t, "#run-continues a"); got != first {
		t.Errorf("the second Run continues %q, want %s", got, first)
	}
	b.submit(t, "#run-thread a")
	if n := b.count(t, "tr.run"); n != 2 {
		t.Errorf("the thread link lists %d Runs, want 2", n)
	}
	forkChecks(t, b, w, first)
	waitingChecks(t, b, w)
	threadPagingChecks(t, b, w)
}

// threadPagingChecks starts 51 Runs on one thread, one more than a page:
// the next page of the thread's list is still the thread's, with its last
// Run.
func threadPagingChecks(t *testing.T, b browser, w *world) {
	var last string
	for i := 0; i < 51; i++ {
		resp, err := w.runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "chat", Input: fmt.Sprint(i), ThreadId: "t-many",
			ThreadStrategy: runsvcv1.ThreadStrategy_THREAD_STRATEGY_ENQUEUE})
		if err != nil {
			t.Fatal(err)
		}
		last = resp.GetRun().GetRunId()
	}
	w.waitFor(t, last, runsvcv1.RunState_RUN_STATE_COMPLETED)
	b.open(t, "/runs?thread=t-many")
	if n := b.count(t, "tr.run"); n != 50 {
		t.Fatalf("the first page of t-many has %d rows, want 50", n)
	}
	b.submit(t, `a[rel="next"]`)
	rows := eval[[]string](t, b, `[...document.querySelectorAll("tr.run")].map(r => r.dataset.run)`)
	if len(rows) != 1 || rows[0] != last {
		t.Errorf("the next page lists %v, want only t-many's last Run %s", rows, last)
	}
	if got := eval[string](t, b, `document.querySelector("#thread").value`); got != "t-many" {
		t.Errorf("the next page's filter form has thread %q", got)
	}
}

// waitingChecks queues a Run behind a thread's suspended one: its page
// says it waits, the active one's does not, and it continues nothing yet.
func waitingChecks(t *testing.T, b browser, w *world) {
	ahead, err := w.runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "support", Input: "hi", ThreadId: "t-wait"})
	if err != nil {
		t.Fatal(err)
	}
	w.waitFor(t, ahead.GetRun().GetRunId(), runsvcv1.RunState_RUN_STATE_SUSPENDED)
	queued, err := w.runs.StartRun(testserver.Context(t), &runsvcv1.StartRunRequest{Spec: "chat", Input: "next", ThreadId: "t-wait",
		ThreadStrategy: runsvcv1.ThreadStrategy_THREAD_STRATEGY_ENQUEUE})
	if err != nil {
		t.Fatal(err)
	}
	if !queued.GetRun().GetWaiting() {
		t.Fatalf("the enqueued Run does not wait: %v", queued.GetRun())
	}
	b.open(t, "/runs/"+queued.GetRun().GetRunId())
	if n := b.count(t, "#run-waiting"); n != 1 {
		t.Errorf("the waiting Run's page has %d waiting notes", n)
	}
	if n := b.count(t, "#run-continues"); n != 0 {
		t.Error("a waiting Run shows what it continues")
	}
	b.open(t, "/runs/"+ahead.GetRun().GetRunId())
	if n := b.count(t, "#run-waiting"); n != 0 {
		t.Error("the active Run's page says it waits")
	}
}

// forkChecks forks a Run before its first turn and reads the fork's
// origin on its page.
func forkChecks(t *testing.T, b browser, w *world, source string) {
	resp, err := w.runs.ForkRun(testserver.Context(t), &runsvcv1.ForkRunRequest{RunId: source, At: &runsvcv1.ForkRunRequest_Turn{Turn: 1}})
	if err != nil {
		t.Fatalf("ForkRun: %v", err)
	}
	fork := resp.GetRun()
	b.open(t, "/runs/"+fork.GetRunId())
	want := fmt.Sprintf("%s before turn 1 (seq %d)", source, fork.GetForkOf().GetSeq())
	if got := b.text(t, "#run-fork"); got != want {
		t.Errorf("fork origin shows %q, want %q", got, want)
	}
	if href := eval[string](t, b, `document.querySelector("#run-fork a").getAttribute("href")`); href != fmt.Sprintf("/runs/%s#seq-%d", source, fork.GetForkOf().GetSeq()) {
		t.Errorf("fork origin link %q", href)
	}
}

// denyChecks denies a janitor's delete_repo from the page with a note: the
// log has the denial and its note, and the tool server is never called.
func denyChecks(t *testing.T, b browser, w *world) {
	b.signIn(t, w.keys["acme/admin"])
	id := w.start(t, "janitor")
	w.waitFor(t, id, runsvcv1.RunState_RUN_STATE_SUSPENDED)
	calls := w.deletes.Load()
	b.open(t, "/runs/"+id)
	b.do(t, chromedp.SetValue(chromedp.CSS("#note"), "keep it"))
	b.submit(t, `#resume-approval button[value="deny"]`)
	w.waitFor(t, id, runsvcv1.RunState_RUN_STATE_COMPLETED)
	var denied bool
	for _, r := range w.records(t, id) {
		res := r.GetResumed()
		denied = denied || (res.GetReason() == runsvcv1.SuspensionReason_SUSPENSION_REASON_APPROVAL && !res.GetApproved() && res.GetNote() == "keep it")
	}
	if !denied || w.deletes.Load() != calls {
		t.Errorf("log: denied with the note %v; tool server calls %d, before %d", denied, w.deletes.Load(), calls)
	}
}
