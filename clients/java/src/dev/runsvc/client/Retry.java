package dev.runsvc.client;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Retries runsvc calls whose error says a retry may succeed.
 *
 * <p>A runsvc error is retryable if and only if its status carries RetryInfo; {@link #call} waits
 * that delay and calls again, never past the deadline and at most {@link #maxAttempts} times.
 * Errors from another domain (a proxy, another service) are not retried. Instances are immutable:
 * each {@code with...} method returns a copy.
 *
 * <pre>{@code
 * Run run = Retry.within(Duration.ofSeconds(30)).call(left ->
 *     client.runs().withDeadlineAfter(left.toMillis(), TimeUnit.MILLISECONDS).getRun(req).getRun());
 * }</pre>
 */
public final class Retry {
  /** How many calls {@link #call} makes at most when not told otherwise. */
  public static final int DEFAULT_MAX_ATTEMPTS = 5;

  /** A call to retry. */
  @FunctionalInterface
  public interface Call<T> {
    /**
     * Makes the call. {@code timeLeft} is the time until the deadline (null without one): pass it
     * on as the RPC's deadline.
     */
    T call(Duration timeLeft);
  }

  /** Told of each retry before its wait. */
  @FunctionalInterface
  public interface Listener {
    /** The call failed with a retryable error on attempt {@code attempt}; next after {@code delay}. */
    void onRetry(int attempt, RuntimeException error, Duration delay);
  }

  /** Waits; replaceable in tests. */
  @FunctionalInterface
  public interface Sleeper {
    /** Waits for a duration. */
    void sleep(Duration d) throws InterruptedException;
  }

  private final int maxAttempts;
  private final Duration deadline;
  private final String domain;
  private final Listener listener;
  private final Sleeper sleeper;
  private final LongSupplier nanoClock;

  private Retry(
      int maxAttempts,
      Duration deadline,
      String domain,
      Listener listener,
      Sleeper sleeper,
      LongSupplier nanoClock) {
    this.maxAttempts = maxAttempts;
    this.deadline = deadline;
    this.domain = domain;
    this.listener = listener;
    this.sleeper = sleeper;
    this.nanoClock = nanoClock;
  }

  /** Retries without a deadline, up to {@link #DEFAULT_MAX_ATTEMPTS} calls. */
  public static Retry defaults() {
    return new Retry(
        DEFAULT_MAX_ATTEMPTS,
        null,
        Reasons.DEFAULT_DOMAIN,
        null,
        d -> Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000),
        System::nanoTime);
  }

  /** Retries within a deadline, counted from each {@link #call}. */
  public static Retry within(Duration deadline) {
    return defaults().withDeadline(deadline);
  }

  /** A copy that gives up once waiting would pass the deadline (null: none). */
  public Retry withDeadline(Duration deadline) {
    return new Retry(maxAttempts, deadline, domain, listener, sleeper, nanoClock);
  }

  /** A copy that makes at most {@code n} calls, the first included. */
  public Retry withMaxAttempts(int n) {
    return new Retry(Math.max(1, n), deadline, domain, listener, sleeper, nanoClock);
  }

  /** A copy that retries errors of another ErrorInfo domain than runsvc's default. */
  public Retry withDomain(String domain) {
    return new Retry(maxAttempts, deadline, domain, listener, sleeper, nanoClock);
  }

  /** A copy that tells {@code l} of each retry. */
  public Retry withListener(Listener l) {
    return new Retry(maxAttempts, deadline, domain, l, sleeper, nanoClock);
  }

  /** A copy with another clock (nanoseconds) and sleeper, for tests. */
  public Retry withClock(LongSupplier nanoClock, Sleeper sleeper) {
    return new Retry(maxAttempts, deadline, domain, listener, sleeper, nanoClock);
  }

  /** The most calls {@link #call} makes. */
  public int maxAttempts() {
    return maxAttempts;
  }

  /**
   * Calls until the call returns, and throws its last error once that error is not retryable (no
   * RetryInfo, or not from the domain), the attempts run out, or waiting RetryInfo's delay would
   * pass the deadline. An interrupted wait throws the last error with the interrupt kept.
   */
  public <T> T call(Call<T> call) {
    Long deadlineAt = deadline == null ? null : nanoClock.getAsLong() + deadline.toNanos();
    for (int attempt = 1; ; attempt++) {
      Duration left =
          deadlineAt == null
              ? null
              : Duration.ofNanos(Math.max(0, deadlineAt - nanoClock.getAsLong()));
      try {
        return call.call(left);
      } catch (RuntimeException err) {
        Duration delay = delayBeforeNext(err, attempt, deadlineAt);
        if (delay == null) {
          throw err;
        }
        if (listener != null) {
          listener.onRetry(attempt, err, delay);
        }
        try {
          sleeper.sleep(delay);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw err;
        }
      }
    }
  }

  /** The wait before the next attempt, or null to give up. */
  private Duration delayBeforeNext(RuntimeException err, int attempt, Long deadlineAt) {
    Classification c = RunsvcErrors.classify(err);
    if (!c.retryable() || !c.isFrom(domain) || attempt >= maxAttempts) {
      return null;
    }
    Duration delay = c.retryDelay();
    if (deadlineAt != null && nanoClock.getAsLong() + delay.toNanos() > deadlineAt) {
      return null;
    }
    return delay;
  }
}
