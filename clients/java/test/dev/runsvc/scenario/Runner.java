package dev.runsvc.scenario;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.runsvc.client.RunsvcClient;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Context;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.ProtoServiceDescriptorSupplier;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Calls runsvc.v1 methods by name ("Service/Method") with protojson requests, over one channel:
 * the method is found in the generated file descriptors (dev.runsvc.v1.&lt;Service&gt;Grpc), the
 * messages are DynamicMessages of its types, parsed and printed by JsonFormat.
 */
final class Runner {
  static final long CALL_TIMEOUT_MS = 60_000;
  static final long UNTIL_TIMEOUT_MS = 30_000;
  static final long POLL_INTERVAL_MS = 50;
  static final String PACKAGE = "runsvc.v1";

  /** A scenario could not be run to its check (not a wrong status). */
  static final class ScenarioError extends Exception {
    ScenarioError(String message) {
      super(message);
    }
  }

  /** A response as JSON, or the error of its call. */
  static final class Result {
    final JsonElement response;
    final StatusRuntimeException error;

    Result(JsonElement response, StatusRuntimeException error) {
      this.response = response;
      this.error = error;
    }
  }

  private static final JsonFormat.TypeRegistry TYPES =
      JsonFormat.TypeRegistry.newBuilder()
          .add(com.google.rpc.ErrorDetailsProto.getDescriptor().getMessageTypes())
          .add(com.google.rpc.Status.getDescriptor())
          .build();
  private static final Map<String, Descriptors.ServiceDescriptor> SERVICES = new ConcurrentHashMap<>();

  final Channel channel;
  final String suite;
  final Map<String, String> variables;

  Runner(Channel channel, String suite, Map<String, String> variables) {
    this.channel = channel;
    this.suite = suite;
    this.variables = variables;
  }

  /** The channel with a bearer key on every call, or the channel itself without one. */
  Channel withKey(String apiKey) {
    return apiKey.isEmpty() ? channel : ClientInterceptors.intercept(channel, RunsvcClient.bearer(apiKey));
  }

  /** Publishes the file's Specs. */
  void setup(List<JsonElement> specs) throws ScenarioError {
    for (JsonElement spec : specs) {
      JsonObject req = new JsonObject();
      req.add("spec", spec);
      Result r = call(channel, "SpecService/PublishSpec", req.toString());
      if (r.error != null) {
        throw new ScenarioError("publishing " + spec + ": " + r.error.getStatus());
      }
    }
  }

  static Descriptors.ServiceDescriptor service(String name) throws ScenarioError {
    Descriptors.ServiceDescriptor sd = SERVICES.get(name);
    if (sd != null) {
      return sd;
    }
    try {
      Class<?> grpc = Class.forName("dev.runsvc.v1." + name + "Grpc");
      io.grpc.ServiceDescriptor desc = (io.grpc.ServiceDescriptor) grpc.getMethod("getServiceDescriptor").invoke(null);
      sd = ((ProtoServiceDescriptorSupplier) desc.getSchemaDescriptor()).getServiceDescriptor();
    } catch (ReflectiveOperationException e) {
      throw new ScenarioError("no service " + PACKAGE + "." + name + ": " + e);
    }
    SERVICES.put(name, sd);
    return sd;
  }

  static Descriptors.MethodDescriptor method(String call) throws ScenarioError {
    int slash = call.indexOf('/');
    if (slash <= 0 || slash == call.length() - 1) {
      throw new ScenarioError("call " + call + " is not Service/Method");
    }
    return service(call.substring(0, slash)).findMethodByName(call.substring(slash + 1));
  }

  static MethodDescriptor<DynamicMessage, DynamicMessage> grpcMethod(Descriptors.MethodDescriptor md) {
    return MethodDescriptor.<DynamicMessage, DynamicMessage>newBuilder()
        .setType(
            md.isServerStreaming()
                ? (md.isClientStreaming() ? MethodDescriptor.MethodType.BIDI_STREAMING : MethodDescriptor.MethodType.SERVER_STREAMING)
                : (md.isClientStreaming() ? MethodDescriptor.MethodType.CLIENT_STREAMING : MethodDescriptor.MethodType.UNARY))
        .setFullMethodName(MethodDescriptor.generateFullMethodName(md.getService().getFullName(), md.getName()))
        .setRequestMarshaller(ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(md.getInputType())))
        .setResponseMarshaller(ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(md.getOutputType())))
        .build();
  }

  static DynamicMessage parse(Descriptors.MethodDescriptor md, String json) throws ScenarioError {
    DynamicMessage.Builder b = DynamicMessage.newBuilder(md.getInputType());
    try {
      JsonFormat.parser().usingTypeRegistry(TYPES).merge(json, b);
    } catch (InvalidProtocolBufferException e) {
      throw new ScenarioError("request " + json + ": " + e.getMessage());
    }
    return b.build();
  }

  static JsonElement print(DynamicMessage m) throws ScenarioError {
    try {
      return JsonParser.parseString(JsonFormat.printer().usingTypeRegistry(TYPES).print(m));
    } catch (InvalidProtocolBufferException e) {
      throw new ScenarioError("printing a " + m.getDescriptorForType().getFullName() + ": " + e.getMessage());
    }
  }

  static CallOptions options() {
    return CallOptions.DEFAULT.withDeadlineAfter(CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS);
  }

  /**
   * Invokes a method with a protojson request: its response as JSON (a server stream's last
   * message), or its error. A method the service does not declare is called with an empty message.
   */
  static Result call(Channel ch, String call, String json) throws ScenarioError {
    Descriptors.MethodDescriptor md = method(call);
    try {
      if (md == null) {
        ClientCalls.blockingUnaryCall(ch, rawMethod(PACKAGE + "." + call), options(), new byte[0]);
        return new Result(new JsonObject(), null);
      }
      MethodDescriptor<DynamicMessage, DynamicMessage> m = grpcMethod(md);
      DynamicMessage req = parse(md, json);
      DynamicMessage resp = DynamicMessage.getDefaultInstance(md.getOutputType());
      if (md.isServerStreaming()) {
        Iterator<DynamicMessage> it = ClientCalls.blockingServerStreamingCall(ch, m, options(), req);
        while (it.hasNext()) {
          resp = it.next();
        }
      } else {
        resp = ClientCalls.blockingUnaryCall(ch, m, options(), req);
      }
      return new Result(print(resp), null);
    } catch (StatusRuntimeException e) {
      return new Result(null, e);
    }
  }

  /**
   * Opens a server stream and returns once its first message came; cancelling the returned context
   * ends the stream.
   */
  static Context.CancellableContext hold(Channel ch, String call, String json) throws ScenarioError {
    Descriptors.MethodDescriptor md = method(call);
    if (md == null || !md.isServerStreaming()) {
      throw new ScenarioError("hold needs a server stream; " + call + " is not one");
    }
    DynamicMessage req = parse(md, json);
    Context.CancellableContext cc = Context.current().withCancellation();
    Context previous = cc.attach();
    try {
      ClientCalls.blockingServerStreamingCall(ch, grpcMethod(md), options(), req).next();
      return cc;
    } catch (RuntimeException e) {
      cc.cancel(null);
      throw e;
    } finally {
      cc.detach(previous);
    }
  }

  static MethodDescriptor<byte[], byte[]> rawMethod(String fullName) {
    MethodDescriptor.Marshaller<byte[]> bytes =
        new MethodDescriptor.Marshaller<byte[]>() {
          @Override
          public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
          }

          @Override
          public byte[] parse(InputStream stream) {
            try {
              return stream.readAllBytes();
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
        };
    return MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(fullName)
        .setRequestMarshaller(bytes)
        .setResponseMarshaller(bytes)
        .build();
  }

  /** A google.rpc.Status in JSON, as a message. */
  static com.google.rpc.Status status(JsonElement v, String path) throws ScenarioError {
    com.google.rpc.Status.Builder b = com.google.rpc.Status.newBuilder();
    try {
      JsonFormat.parser().usingTypeRegistry(TYPES).merge(v.toString(), b);
    } catch (InvalidProtocolBufferException e) {
      throw new ScenarioError("the value at " + path + " is not a google.rpc.Status: " + e.getMessage());
    }
    return b.build();
  }

  /** The variables a scenario starts with: the suite's name and the server's. */
  Map<String, String> startVariables() {
    Map<String, String> v = new HashMap<>(variables);
    v.put("suite", suite);
    return v;
  }

  /** An RPC error's message as grpc-java read it from grpc-message. */
  static String wireMessage(StatusRuntimeException e) {
    String d = Status.fromThrowable(e).getDescription();
    return d == null ? "" : d;
  }
}
