package dev.runsvc.client;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.rpc.BadRequest;
import com.google.rpc.DebugInfo;
import com.google.rpc.ErrorInfo;
import com.google.rpc.Help;
import com.google.rpc.LocalizedMessage;
import com.google.rpc.PreconditionFailure;
import com.google.rpc.QuotaFailure;
import com.google.rpc.RequestInfo;
import com.google.rpc.ResourceInfo;
import com.google.rpc.RetryInfo;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.protobuf.StatusProto;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Classifies runsvc failures: RPC errors ({@code StatusRuntimeException}) and {@code
 * google.rpc.Status} values such as a Run's failure.
 *
 * <p>Every runsvc failure is a google.rpc.Status whose first detail is an {@code
 * ErrorInfo{reason, domain, metadata}}; it is retryable if and only if a {@code RetryInfo} detail
 * is present. An RPC error carries the status in the {@code grpc-status-details-bin} trailer
 * (read with {@link StatusProto}) and the retry delay again in {@code grpc-retry-pushback-ms}.
 */
public final class RunsvcErrors {
  /** The trailer that holds the google.rpc.Status of an RPC error. */
  public static final Metadata.Key<com.google.rpc.Status> STATUS_DETAILS_KEY =
      Metadata.Key.of(
          "grpc-status-details-bin",
          ProtoUtils.metadataMarshaller(com.google.rpc.Status.getDefaultInstance()));

  /** The trailer with the retry delay in milliseconds; -1 when not retryable. */
  public static final Metadata.Key<String> PUSHBACK_KEY =
      Metadata.Key.of("grpc-retry-pushback-ms", Metadata.ASCII_STRING_MARSHALLER);

  private static final List<Class<? extends Message>> KNOWN_DETAILS =
      List.of(
          ErrorInfo.class,
          RetryInfo.class,
          BadRequest.class,
          PreconditionFailure.class,
          QuotaFailure.class,
          ResourceInfo.class,
          RequestInfo.class,
          DebugInfo.class,
          Help.class,
          LocalizedMessage.class);

  private RunsvcErrors() {}

  /**
   * Classifies an RPC error from its status details trailer and pushback trailer. An error without
   * the details trailer classifies by its gRPC code alone; a throwable that is not a gRPC error is
   * UNKNOWN.
   */
  public static Classification classify(Throwable error) {
    Status st = Status.fromThrowable(error);
    Metadata trailers = Status.trailersFromThrowable(error);
    com.google.rpc.Status proto = statusOf(error, trailers);
    if (proto == null) {
      proto =
          com.google.rpc.Status.newBuilder()
              .setCode(st.getCode().value())
              .setMessage(st.getDescription() == null ? "" : st.getDescription())
              .build();
    }
    String pushback = null;
    if (trailers != null) {
      Iterable<String> all = trailers.getAll(PUSHBACK_KEY);
      if (all != null) {
        pushback = String.join(",", all);
      }
    }
    return classify(proto, pushback);
  }

  /**
   * Classifies a google.rpc.Status: a Run's {@code failure}, a tool call's {@code error}. A status
   * without details classifies by its code alone; null is OK.
   */
  public static Classification classify(com.google.rpc.Status status) {
    return classify(status == null ? com.google.rpc.Status.getDefaultInstance() : status, null);
  }

  private static com.google.rpc.Status statusOf(Throwable error, Metadata trailers) {
    try {
      return StatusProto.fromThrowable(error);
    } catch (IllegalArgumentException codesDiffer) {
      // A proxy changed the code but kept the trailer: the trailer's status is runsvc's.
      return trailers == null ? null : trailers.get(STATUS_DETAILS_KEY);
    }
  }

  private static Classification classify(com.google.rpc.Status status, String pushback) {
    String reason = "";
    String domain = "";
    Map<String, String> metadata = new HashMap<>();
    Duration delay = null;
    List<Message> details = new ArrayList<>();
    for (Any any : status.getDetailsList()) {
      Message d = unpack(any);
      details.add(d);
      if (d instanceof ErrorInfo && reason.isEmpty()) {
        ErrorInfo info = (ErrorInfo) d;
        reason = info.getReason();
        domain = info.getDomain();
        metadata.putAll(info.getMetadataMap());
      } else if (d instanceof RetryInfo && delay == null) {
        com.google.protobuf.Duration rd = ((RetryInfo) d).getRetryDelay();
        delay = Duration.ofSeconds(rd.getSeconds(), rd.getNanos());
      }
    }
    return new Classification(status, reason, domain, metadata, delay, details, pushback);
  }

  private static Message unpack(Any any) {
    for (Class<? extends Message> type : KNOWN_DETAILS) {
      if (any.is(type)) {
        try {
          return any.unpack(type);
        } catch (InvalidProtocolBufferException e) {
          return any;
        }
      }
    }
    return any;
  }
}
