package engine_test

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// longThreadRuns is the long thread's length in TestLongThreadHistory.
const longThreadRuns = 300

// TestLongThreadHistory, on SQLite and PostgreSQL over gRPC: on a thread
// of 300 Runs, each Run's OpenAI request carries exactly the exchanges of
// the Runs before it, and starting Run 300 reads no more Run logs than
// starting Run 2 did (the store's ReadLog count from /metrics); after
// DeleteRun of a Run in the middle the next request starts after it, and
// after a restart (the cache gone) the next one is still exact.
func TestLongThreadHistory(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		longThread(t, func(c *server.Config) { c.Data = dir })
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := pgtest.Start(t).NewDatabase(t)
		longThread(t, func(c *server.Config) { c.Store = dsn })
	})
}

// threadChat is a thread's conversation as the model should see it, Run
// by Run.
type threadChat struct {
	model     *recordingOpenAI
	exchanges [][]chatMessage // per Run started, in order
	from      int             // the first Run still in the history
}

// ask starts the thread's next Run and checks that its request carries
// the history and its input; it returns the Run's id and, when
// countReads, how many logs the store read from its start until it
// settled.
func (c *threadChat) ask(t *testing.T, srv *testserver.Server, input string, countReads bool) (string, float64) {
	t.Helper()
	ctx := testserver.Context(t)
	var before float64
	if countReads {
		before = logReads(t, srv.MetricsAddr)
	}
	resp, err := srv.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "chat", Input: input, ThreadId: "long"})
	if err != nil {
		t.Fatalf("StartRun(%s): %v", input, err)
	}
	if run := srv.Settled(t, resp.GetRun().GetRunId()); run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
		t.Fatalf("run %s = %v %v, want COMPLETED", input, run.GetState(), run.GetFailure())
	}
	var reads float64
	if countReads {
		reads = logReads(t, srv.MetricsAddr) - before
	}
	n := c.model.count()
	want := []chatMessage{{"system", "Be brief."}}
	for _, ex := range c.exchanges[c.from:] {
		want = append(want, ex...)
	}
	want = append(want, chatMessage{"user", input})
	if got := c.model.request(n - 1); !slices.Equal(got, want) {
		t.Fatalf("the request of %s has %d messages, want %d: %+v", input, len(got), len(want), diffMessages(got, want))
	}
	c.exchanges = append(c.exchanges, []chatMessage{{"user", input}, {"assistant", fmt.Sprintf("answer %d", n)}})
	return resp.GetRun().GetRunId(), reads
}

// diffMessages describes the first difference between two requests.
func diffMessages(got, want []chatMessage) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("message %d is %+v, want %+v", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("the first %d messages agree", min(len(got), len(want)))
}

func longThread(t *testing.T, storeOpt testserver.Option) {
	t.Setenv("RUNSVC_SECRET_OPENAI_TEST_KEY", "sk-test-thread-4242")
	chat := &threadChat{model: newRecordingOpenAI(t)}
	opts := []testserver.Option{storeOpt, func(c *server.Config) { c.Ops.MetricsListen = "127.0.0.1:0" }}
	var ids []string
	t.Run("one process", func(t *testing.T) {
		srv := testserver.Start(t, opts...)
		srv.Publish(t, fmt.Sprintf(`{"name": "chat", "instructions": "Be brief.", "model": {"provider": "openai", "model": "gpt-4o-mini", "baseUrl": %q, "apiKeyCredential": "openai_test_key"},
		  "credentials": [{"name": "openai_test_key"}]}`, chat.model.srv.URL+"/v1"))
		var second float64
		for i := 1; i <= longThreadRuns; i++ {
			id, reads := chat.ask(t, srv, fmt.Sprintf("q%d", i), i == 2 || i == longThreadRuns)
			ids = append(ids, id)
			switch i {
			case 2:
				second = reads
			case longThreadRuns:
				if reads > second {
					t.Errorf("Run %d read %v logs, Run 2 %v: the cost grows with the thread", i, reads, second)
				}
			}
		}
	})
	if t.Failed() {
		return
	}
	t.Run("after a restart", func(t *testing.T) {
		srv := testserver.Start(t, opts...)
		chat.ask(t, srv, "after the restart", false)
	})
	t.Run("a Run in the middle deleted", func(t *testing.T) {
		srv := testserver.Start(t, opts...)
		ctx := testserver.Context(t)
		mid := longThreadRuns / 2
		if _, err := srv.Runs.DeleteRun(ctx, &runsvcv1.DeleteRunRequest{RunId: ids[mid]}); err != nil {
			t.Fatalf("DeleteRun(%s) = %v", ids[mid], err)
		}
		chat.from = mid + 1
		chat.ask(t, srv, "after the deletion", false)
		chat.ask(t, srv, "once more", false)
	})
}

var logReadsMetric = regexp.MustCompile(`(?m)^runsvc_store_operation_duration_seconds_count\{operation="ReadLog",outcome="ok"\} (\S+)$`)

// logReads is how many logs the server's store has read so far.
func logReads(t *testing.T, addr string) float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	m := logReadsMetric.FindSubmatch(body)
	if m == nil {
		return 0
	}
	v, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
