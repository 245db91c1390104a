package dev.runsvc.check;

import com.google.protobuf.Any;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import dev.runsvc.client.Classification;
import dev.runsvc.client.Reasons;
import dev.runsvc.client.Retry;
import dev.runsvc.client.RunsvcErrors;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Checks RunsvcErrors.classify and Retry without a server: statuses built here, as runsvc, a proxy
 * or a bug would send them. Prints one line per failed check and exits 1 if any failed.
 */
public final class Main {
  private static final List<String> failures = new ArrayList<>();
  private static int checks;

  private Main() {}

  public static void main(String[] args) {
    classifiesAStatus();
    classifiesAnRpcError();
    classifiesWhatIsNotRunsvcs();
    retries();
    for (String f : failures) {
      System.out.println("FAIL: " + f);
    }
    System.out.println(checks + " checks, " + failures.size() + " failed");
    System.exit(failures.isEmpty() ? 0 : 1);
  }

  static void check(boolean ok, String what) {
    checks++;
    if (!ok) {
      failures.add(what);
    }
  }

  static com.google.rpc.Status status(int code, String reason, String domain, Duration delay) {
    com.google.rpc.Status.Builder b = com.google.rpc.Status.newBuilder().setCode(code).setMessage("m: " + reason);
    b.addDetails(Any.pack(ErrorInfo.newBuilder().setReason(reason).setDomain(domain).putMetadata("k", "v").build()));
    b.addDetails(Any.pack(BadRequest.newBuilder().addFieldViolations(BadRequest.FieldViolation.newBuilder().setField("f")).build()));
    if (delay != null) {
      b.addDetails(Any.pack(RetryInfo.newBuilder()
          .setRetryDelay(com.google.protobuf.Duration.newBuilder().setSeconds(delay.getSeconds()).setNanos(delay.getNano()))
          .build()));
    }
    return b.build();
  }

  static StatusRuntimeException rpcError(com.google.rpc.Status st, String pushback) {
    StatusRuntimeException e = StatusProto.toStatusRuntimeException(st);
    if (pushback != null) {
      Metadata md = new Metadata();
      md.put(RunsvcErrors.STATUS_DETAILS_KEY, st);
      md.put(RunsvcErrors.PUSHBACK_KEY, pushback);
      e = Status.fromCodeValue(st.getCode()).withDescription(st.getMessage()).asRuntimeException(md);
    }
    return e;
  }

  static void classifiesAStatus() {
    Classification c = RunsvcErrors.classify(status(8, Reasons.OVERLOADED, "runsvc", Duration.ofMillis(1500)));
    check(c.code() == Status.Code.RESOURCE_EXHAUSTED, "code from the status: " + c);
    check(c.reason().equals("OVERLOADED") && c.domain().equals("runsvc"), "reason and domain: " + c);
    check(c.metadata().equals(java.util.Map.of("k", "v")), "metadata: " + c);
    check(c.retryable() && c.retryDelay().equals(Duration.ofMillis(1500)), "RetryInfo's delay: " + c);
    check(c.detail(BadRequest.class) != null && c.details().size() == 3, "every detail unpacked: " + c.details());
    check(c.pushback() == null, "no pushback for a status from a response");
    Classification none = RunsvcErrors.classify(status(5, Reasons.RUN_NOT_FOUND, "runsvc", null));
    check(!none.retryable() && none.retryDelay() == null, "no RetryInfo, not retryable: " + none);
    Classification ok = RunsvcErrors.classify((com.google.rpc.Status) null);
    check(ok.code() == Status.Code.OK && ok.reason().isEmpty(), "null is OK: " + ok);
  }

  static void classifiesAnRpcError() {
    com.google.rpc.Status st = status(14, Reasons.STORE_UNAVAILABLE, "runsvc", Duration.ofSeconds(2));
    Classification c = RunsvcErrors.classify(rpcError(st, "2000"));
    check(c.code() == Status.Code.UNAVAILABLE && c.reason().equals("STORE_UNAVAILABLE"), "the trailer's status: " + c);
    check("2000".equals(c.pushback()) && c.retryDelay().equals(Duration.ofSeconds(2)), "pushback and delay: " + c);
    Classification plain = RunsvcErrors.classify(Status.NOT_FOUND.withDescription("gone").asRuntimeException());
    check(plain.code() == Status.Code.NOT_FOUND && plain.reason().isEmpty() && plain.message().equals("gone"), "no trailer: the code alone: " + plain);
    Metadata md = new Metadata();
    md.put(RunsvcErrors.STATUS_DETAILS_KEY, status(8, Reasons.QUOTA_EXCEEDED, "runsvc", Duration.ofSeconds(1)));
    Classification rewritten = RunsvcErrors.classify(Status.UNAVAILABLE.asRuntimeException(md));
    check(rewritten.reason().equals("QUOTA_EXCEEDED") && rewritten.code() == Status.Code.RESOURCE_EXHAUSTED,
        "a proxy's code over runsvc's trailer: the trailer's status: " + rewritten);
  }

  static void classifiesWhatIsNotRunsvcs() {
    Classification c = RunsvcErrors.classify(new IllegalStateException("boom"));
    check(c.code() == Status.Code.UNKNOWN && c.reason().isEmpty() && !c.retryable(), "not a gRPC error: UNKNOWN: " + c);
    Classification other = RunsvcErrors.classify(status(14, "BUSY", "example.com", Duration.ofSeconds(1)));
    check(other.retryable() && !other.isFrom(Reasons.DEFAULT_DOMAIN), "another domain's error: " + other);
  }

  static void retries() {
    AtomicLong now = new AtomicLong();
    List<Duration> waits = new ArrayList<>();
    Retry fake = Retry.defaults().withClock(now::get, d -> { waits.add(d); now.addAndGet(d.toNanos()); });
    AtomicInteger calls = new AtomicInteger();
    StatusRuntimeException overloaded = rpcError(status(14, Reasons.OVERLOADED, "runsvc", Duration.ofMillis(300)), "300");
    String got = fake.withDeadline(Duration.ofSeconds(10)).call(left -> {
      if (calls.incrementAndGet() < 3) {
        throw overloaded;
      }
      return "done after " + left;
    });
    check(calls.get() == 3 && waits.equals(List.of(Duration.ofMillis(300), Duration.ofMillis(300))), "two waits of RetryInfo's delay: " + waits);
    check(got.equals("done after PT9.4S"), "the time left goes to the call: " + got);

    check(attempts(fake.withMaxAttempts(2), overloaded) == 2, "at most maxAttempts calls");
    check(attempts(fake.withDeadline(Duration.ofMillis(200)), overloaded) == 1, "no wait past the deadline");
    check(attempts(fake, rpcError(status(5, Reasons.RUN_NOT_FOUND, "runsvc", null), "-1")) == 1, "no retry without RetryInfo");
    check(attempts(fake, rpcError(status(14, "BUSY", "example.com", Duration.ofMillis(1)), "1")) == 1, "no retry of another domain");
    check(attempts(fake.withDomain("example.com"), rpcError(status(14, "BUSY", "example.com", Duration.ofMillis(1)), "1")) == Retry.DEFAULT_MAX_ATTEMPTS,
        "withDomain retries that domain's errors");
  }

  static int attempts(Retry r, StatusRuntimeException err) {
    AtomicInteger calls = new AtomicInteger();
    try {
      r.call(left -> {
        calls.incrementAndGet();
        throw err;
      });
    } catch (StatusRuntimeException e) {
      check(e == err, "the last error is thrown");
    }
    return calls.get();
  }
}
