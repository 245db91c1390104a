package engine_test

import (
	"fmt"
	"slices"
	"testing"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/store/postgres/pgtest"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// TestThreadHistoryStopsAtDeletedRun, on SQLite and PostgreSQL over
// gRPC: after DeleteRun of a settled Run in the middle of an idle thread,
// the next Run completes and its OpenAI request carries only the
// exchanges after the deleted Run; after deleting the thread's last Run,
// the next one starts with no history.
func TestThreadHistoryStopsAtDeletedRun(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { threadHistoryAfterDelete(t) })
	t.Run("postgres", func(t *testing.T) {
		dsn := pgtest.Start(t).NewDatabase(t)
		threadHistoryAfterDelete(t, func(c *server.Config) { c.Store = dsn })
	})
}

func threadHistoryAfterDelete(t *testing.T, opts ...testserver.Option) {
	t.Setenv("RUNSVC_SECRET_OPENAI_TEST_KEY", "sk-test-thread-4242")
	srv := testserver.Start(t, opts...)
	model := newRecordingOpenAI(t)
	srv.Publish(t, fmt.Sprintf(`{"name": "chat", "instructions": "Be brief.", "model": {"provider": "openai", "model": "gpt-4o-mini", "baseUrl": %q, "apiKeyCredential": "openai_test_key"},
	  "credentials": [{"name": "openai_test_key"}]}`, model.srv.URL+"/v1"))
	ctx := testserver.Context(t)
	var ids []string
	ask := func(t *testing.T, input string) {
		t.Helper()
		resp, err := srv.Runs.StartRun(ctx, &runsvcv1.StartRunRequest{Spec: "chat", Input: input, ThreadId: "conv-del"})
		if err != nil {
			t.Fatalf("StartRun(%s): %v", input, err)
		}
		if run := srv.Settled(t, resp.GetRun().GetRunId()); run.GetState() != runsvcv1.RunState_RUN_STATE_COMPLETED {
			t.Fatalf("run %s = %v %v, want COMPLETED", input, run.GetState(), run.GetFailure())
		}
		ids = append(ids, resp.GetRun().GetRunId())
	}
	for _, q := range []string{"q1", "q2", "q3"} {
		ask(t, q)
	}
	for _, tc := range []struct {
		name   string
		delete int // index into ids of the Run deleted
		input  string
		want   []chatMessage
	}{
		{"middle Run deleted", 1, "q4", []chatMessage{{"system", "Be brief."}, {"user", "q3"}, {"assistant", "answer 3"}, {"user", "q4"}}},
		{"last Run deleted", 3, "q5", []chatMessage{{"system", "Be brief."}, {"user", "q5"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := srv.Runs.DeleteRun(ctx, &runsvcv1.DeleteRunRequest{RunId: ids[tc.delete]}); err != nil {
				t.Fatalf("DeleteRun(%s) = %v", ids[tc.delete], err)
			}
			ask(t, tc.input)
			if got := model.request(model.count() - 1); !slices.Equal(got, tc.want) {
				t.Errorf("the next Run's request = %+v, want %+v", got, tc.want)
			}
		})
	}
}
