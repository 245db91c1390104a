// A program outside the client's package, compiled against nothing but
// runsvc-client.jar (java_test.go copies it to a temporary directory): as a
// tenant allowed one Run start a minute it starts a Run that its token
// budget fails, classifies that failure (BUDGET_EXCEEDED, not retryable),
// then starts a second Run and classifies the refusal (QUOTA_EXCEEDED,
// retryable after RetryInfo's delay), which Retry honours.
//
// Usage: java -cp runsvc-client.jar:. Outside <host:port> <api key>
import com.google.protobuf.util.JsonFormat;
import dev.runsvc.client.Classification;
import dev.runsvc.client.Reasons;
import dev.runsvc.client.Retry;
import dev.runsvc.client.RunsvcClient;
import dev.runsvc.client.RunsvcErrors;
import dev.runsvc.v1.GetScheduleRequest;
import dev.runsvc.v1.GetWebhookRequest;
import dev.runsvc.v1.PublishSpecRequest;
import dev.runsvc.v1.Run;
import dev.runsvc.v1.RunState;
import dev.runsvc.v1.StartRunRequest;
import dev.runsvc.v1.WaitRunRequest;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

public class Outside {
  // A scripted model that spends 9 tokens on a turn that calls a tool;
  // the Spec allows 10, so the next turn's call is refused.
  static final String SPEC =
      "{\"spec\": {\"name\": \"outside-budget\", \"model\": {\"provider\": \"scripted\", \"script\": {\"turns\": ["
          + "{\"toolCalls\": [{\"name\": \"memory_set\", \"arguments\": {\"key\": \"a\", \"value\": 1}}],"
          + " \"usage\": {\"inputTokens\": 8, \"outputTokens\": 1}}, {\"text\": \"never\"}]}},"
          + " \"tools\": [{\"name\": \"memory_set\", \"kind\": \"TOOL_KIND_BUILTIN\"}],"
          + " \"limits\": {\"tokenBudget\": \"10\"}}}";

  public static void main(String[] args) throws Exception {
    try (RunsvcClient client = RunsvcClient.builder(args[0]).apiKey(args[1]).plaintext().build()) {
      PublishSpecRequest.Builder publish = PublishSpecRequest.newBuilder();
      JsonFormat.parser().merge(SPEC, publish);
      client.specs().withDeadlineAfter(30, TimeUnit.SECONDS).publishSpec(publish.build());

      StartRunRequest start =
          StartRunRequest.newBuilder().setSpec("outside-budget").setInput("go").build();
      Run run = client.runs().withDeadlineAfter(30, TimeUnit.SECONDS).startRun(start).getRun();
      System.out.println("started " + run.getRunId());
      while (run.getState() != RunState.RUN_STATE_FAILED
          && run.getState() != RunState.RUN_STATE_COMPLETED) {
        run =
            client
                .runs()
                .withDeadlineAfter(30, TimeUnit.SECONDS)
                .waitRun(
                    WaitRunRequest.newBuilder()
                        .setRunId(run.getRunId())
                        .setWait(com.google.protobuf.Duration.newBuilder().setSeconds(20))
                        .build())
                .getRun();
      }
      Classification budget = RunsvcErrors.classify(run.getFailure());
      System.out.println("run " + run.getState() + ": " + budget);
      check(budget.reason().equals(Reasons.BUDGET_EXCEEDED), "the Run's failure is BUDGET_EXCEEDED");
      check(!budget.retryable() && budget.retryDelay() == null, "BUDGET_EXCEEDED is not retryable");

      Classification quota = null;
      try {
        client.runs().withDeadlineAfter(30, TimeUnit.SECONDS).startRun(start);
      } catch (StatusRuntimeException e) {
        quota = RunsvcErrors.classify(e);
      }
      check(quota != null, "the second start in a minute fails");
      System.out.println("second start: " + quota);
      check(quota.reason().equals(Reasons.QUOTA_EXCEEDED), "the second start is QUOTA_EXCEEDED");
      check(quota.isFrom(Reasons.DEFAULT_DOMAIN), "its domain is runsvc");
      check(quota.retryable(), "QUOTA_EXCEEDED is retryable");
      check(quota.retryDelay().compareTo(Duration.ZERO) > 0, "after a delay");
      check(
          String.valueOf(quota.retryDelay().toMillis()).equals(quota.pushback()),
          "the pushback trailer is the RetryInfo delay");
      System.out.println("retry after " + quota.retryDelay());

      retryHonoursTheDelay(client, start, quota.retryDelay());
      triggersAreReachable(client);
      System.out.println("OK");
    }
  }

  // The schedules() and webhooks() stubs reach their services: an unknown
  // schedule is SCHEDULE_NOT_FOUND; webhooks are an admin's, so this key
  // (publisher, runner) is refused ROLE_DENIED naming the method.
  static void triggersAreReachable(RunsvcClient client) {
    Classification schedule = null;
    try {
      client.schedules().withDeadlineAfter(30, TimeUnit.SECONDS)
          .getSchedule(GetScheduleRequest.newBuilder().setScheduleId("sch_missing").build());
    } catch (StatusRuntimeException e) {
      schedule = RunsvcErrors.classify(e);
    }
    System.out.println("unknown schedule: " + schedule);
    check(schedule != null && schedule.reason().equals(Reasons.SCHEDULE_NOT_FOUND),
        "an unknown schedule is SCHEDULE_NOT_FOUND");
    Classification webhook = null;
    try {
      client.webhooks().withDeadlineAfter(30, TimeUnit.SECONDS)
          .getWebhook(GetWebhookRequest.newBuilder().setId("wh_missing").build());
    } catch (StatusRuntimeException e) {
      webhook = RunsvcErrors.classify(e);
    }
    System.out.println("unknown webhook: " + webhook);
    check(webhook != null && webhook.reason().equals(Reasons.ROLE_DENIED)
        && webhook.metadata().get("method").equals("/runsvc.v1.WebhookService/GetWebhook"),
        "a runner's GetWebhook is ROLE_DENIED");
  }

  // Retry waits the RetryInfo delay before the next start when the deadline
  // leaves room for it (a clock that the sleeper moves, so nothing waits),
  // and gives up at once when it does not.
  static void retryHonoursTheDelay(RunsvcClient client, StartRunRequest start, Duration delay) {
    AtomicLong now = new AtomicLong();
    List<Duration> waits = new ArrayList<>();
    List<Duration> told = new ArrayList<>();
    List<Integer> calls = new ArrayList<>();
    Retry patient =
        Retry.within(delay.multipliedBy(3))
            .withMaxAttempts(2)
            .withListener((n, err, d) -> told.add(RunsvcErrors.classify(err).retryDelay()))
            .withClock(now::get, d -> { waits.add(d); now.addAndGet(d.toNanos()); });
    Classification last = attempt(patient, client, start, calls);
    System.out.println("patient retry: calls=" + calls.size() + " waits=" + waits);
    check(calls.size() == 2 && waits.size() == 1, "Retry called twice and waited once");
    check(waits.equals(told), "Retry waited the RetryInfo delay of the error it retried");
    check(waits.get(0).compareTo(Duration.ZERO) > 0, "a delay of more than nothing");
    check(last.reason().equals(Reasons.QUOTA_EXCEEDED), "the last error is QUOTA_EXCEEDED");

    calls.clear();
    Retry hurried = Retry.within(Duration.ofMillis(1)).withClock(now::get, d -> waits.add(d));
    attempt(hurried, client, start, calls);
    System.out.println("hurried retry: calls=" + calls.size());
    check(calls.size() == 1, "Retry does not wait past its deadline");
  }

  static Classification attempt(
      Retry retry, RunsvcClient client, StartRunRequest start, List<Integer> calls) {
    try {
      retry.call(
          left -> {
            calls.add(calls.size() + 1);
            return client.runs().withDeadlineAfter(30, TimeUnit.SECONDS).startRun(start);
          });
    } catch (StatusRuntimeException e) {
      return RunsvcErrors.classify(e);
    }
    throw new IllegalStateException("a start succeeded within the minute");
  }

  static void check(boolean ok, String what) {
    if (!ok) {
      System.out.println("FAIL: " + what);
      System.exit(1);
    }
  }
}
