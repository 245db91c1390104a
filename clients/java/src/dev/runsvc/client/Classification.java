package dev.runsvc.client;

import com.google.protobuf.Message;
import io.grpc.Status;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a client needs to decide about a runsvc failure: what it was, and
 * whether and when to retry it. {@link RunsvcErrors#classify} builds one
 * from an RPC error or a {@code google.rpc.Status}; nothing in it comes
 * from the message text.
 */
public final class Classification {
  private final Status.Code code;
  private final String message;
  private final String reason;
  private final String domain;
  private final Map<String, String> metadata;
  private final Duration retryDelay;
  private final String pushback;
  private final List<Message> details;
  private final com.google.rpc.Status status;

  Classification(
      com.google.rpc.Status status,
      String reason,
      String domain,
      Map<String, String> metadata,
      Duration retryDelay,
      List<Message> details,
      String pushback) {
    this.status = status;
    this.code = Status.fromCodeValue(status.getCode()).getCode();
    this.message = status.getMessage();
    this.reason = reason;
    this.domain = domain;
    this.metadata = Map.copyOf(metadata);
    this.retryDelay = retryDelay;
    this.details = List.copyOf(details);
    this.pushback = pushback;
  }

  /** The status code, e.g. {@code NOT_FOUND}; {@code OK} for no failure. */
  public Status.Code code() {
    return code;
  }

  /** The status message, for people: never decide on it. */
  public String message() {
    return message;
  }

  /** The ErrorInfo reason, e.g. {@link Reasons#RUN_NOT_FOUND}; "" without an ErrorInfo. */
  public String reason() {
    return reason;
  }

  /** The ErrorInfo domain ({@link Reasons#DEFAULT_DOMAIN} for runsvc); "" without one. */
  public String domain() {
    return domain;
  }

  /** The ErrorInfo metadata (never null, unmodifiable). */
  public Map<String, String> metadata() {
    return metadata;
  }

  /** Whether a retry may succeed: true exactly when the status carries RetryInfo. */
  public boolean retryable() {
    return retryDelay != null;
  }

  /** How long to wait before retrying, from RetryInfo; null when not retryable. */
  public Duration retryDelay() {
    return retryDelay;
  }

  /**
   * The raw {@code grpc-retry-pushback-ms} trailer of an RPC error ("-1": do not retry); null for
   * a status read from a response, or when the trailer is absent.
   */
  public String pushback() {
    return pushback;
  }

  /** Every detail, unpacked to its google.rpc type (an Any when the type is unknown). */
  public List<Message> details() {
    return details;
  }

  /** The first detail of a type, e.g. {@code detail(BadRequest.class)}, or null. */
  public <T extends Message> T detail(Class<T> type) {
    for (Message m : details) {
      if (type.isInstance(m)) {
        return type.cast(m);
      }
    }
    return null;
  }

  /** The google.rpc.Status itself. */
  public com.google.rpc.Status status() {
    return status;
  }

  /** Whether this is a runsvc error of a domain: an ErrorInfo from it. */
  public boolean isFrom(String domain) {
    return !reason.isEmpty() && this.domain.equals(domain);
  }

  @Override
  public String toString() {
    return code
        + " reason="
        + reason
        + " domain="
        + domain
        + " metadata="
        + metadata
        + " retryable="
        + retryable()
        + (retryDelay != null ? " retryDelay=" + retryDelay : "")
        + " message="
        + message;
  }
}
