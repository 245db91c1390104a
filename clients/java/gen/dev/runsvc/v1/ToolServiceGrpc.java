package dev.runsvc.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * ToolService lists tools, runs one directly, and lets processes in any
 * language serve worker tools.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class ToolServiceGrpc {

  private ToolServiceGrpc() {}

  public static final String SERVICE_NAME = "runsvc.v1.ToolService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ListToolsRequest,
      dev.runsvc.v1.ListToolsResponse> getListToolsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListTools",
      requestType = dev.runsvc.v1.ListToolsRequest.class,
      responseType = dev.runsvc.v1.ListToolsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ListToolsRequest,
      dev.runsvc.v1.ListToolsResponse> getListToolsMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ListToolsRequest, dev.runsvc.v1.ListToolsResponse> getListToolsMethod;
    if ((getListToolsMethod = ToolServiceGrpc.getListToolsMethod) == null) {
      synchronized (ToolServiceGrpc.class) {
        if ((getListToolsMethod = ToolServiceGrpc.getListToolsMethod) == null) {
          ToolServiceGrpc.getListToolsMethod = getListToolsMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ListToolsRequest, dev.runsvc.v1.ListToolsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListTools"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListToolsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListToolsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ToolServiceMethodDescriptorSupplier("ListTools"))
              .build();
        }
      }
    }
    return getListToolsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.InvokeToolRequest,
      dev.runsvc.v1.InvokeToolResponse> getInvokeToolMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "InvokeTool",
      requestType = dev.runsvc.v1.InvokeToolRequest.class,
      responseType = dev.runsvc.v1.InvokeToolResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.InvokeToolRequest,
      dev.runsvc.v1.InvokeToolResponse> getInvokeToolMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.InvokeToolRequest, dev.runsvc.v1.InvokeToolResponse> getInvokeToolMethod;
    if ((getInvokeToolMethod = ToolServiceGrpc.getInvokeToolMethod) == null) {
      synchronized (ToolServiceGrpc.class) {
        if ((getInvokeToolMethod = ToolServiceGrpc.getInvokeToolMethod) == null) {
          ToolServiceGrpc.getInvokeToolMethod = getInvokeToolMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.InvokeToolRequest, dev.runsvc.v1.InvokeToolResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "InvokeTool"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.InvokeToolRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.InvokeToolResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ToolServiceMethodDescriptorSupplier("InvokeTool"))
              .build();
        }
      }
    }
    return getInvokeToolMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ServeToolsRequest,
      dev.runsvc.v1.ServeToolsResponse> getServeToolsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ServeTools",
      requestType = dev.runsvc.v1.ServeToolsRequest.class,
      responseType = dev.runsvc.v1.ServeToolsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ServeToolsRequest,
      dev.runsvc.v1.ServeToolsResponse> getServeToolsMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ServeToolsRequest, dev.runsvc.v1.ServeToolsResponse> getServeToolsMethod;
    if ((getServeToolsMethod = ToolServiceGrpc.getServeToolsMethod) == null) {
      synchronized (ToolServiceGrpc.class) {
        if ((getServeToolsMethod = ToolServiceGrpc.getServeToolsMethod) == null) {
          ToolServiceGrpc.getServeToolsMethod = getServeToolsMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ServeToolsRequest, dev.runsvc.v1.ServeToolsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ServeTools"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ServeToolsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ServeToolsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ToolServiceMethodDescriptorSupplier("ServeTools"))
              .build();
        }
      }
    }
    return getServeToolsMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static ToolServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ToolServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ToolServiceStub>() {
        @java.lang.Override
        public ToolServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ToolServiceStub(channel, callOptions);
        }
      };
    return ToolServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static ToolServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ToolServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ToolServiceBlockingStub>() {
        @java.lang.Override
        public ToolServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ToolServiceBlockingStub(channel, callOptions);
        }
      };
    return ToolServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static ToolServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ToolServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ToolServiceFutureStub>() {
        @java.lang.Override
        public ToolServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ToolServiceFutureStub(channel, callOptions);
        }
      };
    return ToolServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * ToolService lists tools, runs one directly, and lets processes in any
   * language serve worker tools.
   * </pre>
   */
  public static abstract class ToolServiceImplBase implements io.grpc.BindableService {

    /**
     * <pre>
     * ListTools lists the built-in tools, the worker tools connected now, and,
     * when a Spec is named, that Spec's tools.
     * </pre>
     */
    public void listTools(dev.runsvc.v1.ListToolsRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListToolsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListToolsMethod(), responseObserver);
    }

    /**
     * <pre>
     * InvokeTool runs one tool outside any Run. A tool that fails is a result
     * with `error` set, not an RPC error; a tool nobody provides fails
     * NOT_FOUND / TOOL_NOT_FOUND.
     * </pre>
     */
    public void invokeTool(dev.runsvc.v1.InvokeToolRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.InvokeToolResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getInvokeToolMethod(), responseObserver);
    }

    /**
     * <pre>
     * ServeTools is a worker's connection. The worker sends `register` first,
     * then answers every `call` it receives with a `result` carrying the same
     * call_id. Several workers may serve one tool name; calls are spread among
     * them, and a call whose worker disconnects is given to another.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<dev.runsvc.v1.ServeToolsRequest> serveTools(
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ServeToolsResponse> responseObserver) {
      return io.grpc.stub.ServerCalls.asyncUnimplementedStreamingCall(getServeToolsMethod(), responseObserver);
    }

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
          .addMethod(
            getListToolsMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.ListToolsRequest,
                dev.runsvc.v1.ListToolsResponse>(
                  this, METHODID_LIST_TOOLS)))
          .addMethod(
            getInvokeToolMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.InvokeToolRequest,
                dev.runsvc.v1.InvokeToolResponse>(
                  this, METHODID_INVOKE_TOOL)))
          .addMethod(
            getServeToolsMethod(),
            io.grpc.stub.ServerCalls.asyncBidiStreamingCall(
              new MethodHandlers<
                dev.runsvc.v1.ServeToolsRequest,
                dev.runsvc.v1.ServeToolsResponse>(
                  this, METHODID_SERVE_TOOLS)))
          .build();
    }
  }

  /**
   * <pre>
   * ToolService lists tools, runs one directly, and lets processes in any
   * language serve worker tools.
   * </pre>
   */
  public static final class ToolServiceStub extends io.grpc.stub.AbstractAsyncStub<ToolServiceStub> {
    private ToolServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ToolServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ToolServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListTools lists the built-in tools, the worker tools connected now, and,
     * when a Spec is named, that Spec's tools.
     * </pre>
     */
    public void listTools(dev.runsvc.v1.ListToolsRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListToolsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListToolsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * InvokeTool runs one tool outside any Run. A tool that fails is a result
     * with `error` set, not an RPC error; a tool nobody provides fails
     * NOT_FOUND / TOOL_NOT_FOUND.
     * </pre>
     */
    public void invokeTool(dev.runsvc.v1.InvokeToolRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.InvokeToolResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getInvokeToolMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ServeTools is a worker's connection. The worker sends `register` first,
     * then answers every `call` it receives with a `result` carrying the same
     * call_id. Several workers may serve one tool name; calls are spread among
     * them, and a call whose worker disconnects is given to another.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<dev.runsvc.v1.ServeToolsRequest> serveTools(
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ServeToolsResponse> responseObserver) {
      return io.grpc.stub.ClientCalls.asyncBidiStreamingCall(
          getChannel().newCall(getServeToolsMethod(), getCallOptions()), responseObserver);
    }
  }

  /**
   * <pre>
   * ToolService lists tools, runs one directly, and lets processes in any
   * language serve worker tools.
   * </pre>
   */
  public static final class ToolServiceBlockingStub extends io.grpc.stub.AbstractBlockingStub<ToolServiceBlockingStub> {
    private ToolServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ToolServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ToolServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListTools lists the built-in tools, the worker tools connected now, and,
     * when a Spec is named, that Spec's tools.
     * </pre>
     */
    public dev.runsvc.v1.ListToolsResponse listTools(dev.runsvc.v1.ListToolsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListToolsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * InvokeTool runs one tool outside any Run. A tool that fails is a result
     * with `error` set, not an RPC error; a tool nobody provides fails
     * NOT_FOUND / TOOL_NOT_FOUND.
     * </pre>
     */
    public dev.runsvc.v1.InvokeToolResponse invokeTool(dev.runsvc.v1.InvokeToolRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getInvokeToolMethod(), getCallOptions(), request);
    }
  }

  /**
   * <pre>
   * ToolService lists tools, runs one directly, and lets processes in any
   * language serve worker tools.
   * </pre>
   */
  public static final class ToolServiceFutureStub extends io.grpc.stub.AbstractFutureStub<ToolServiceFutureStub> {
    private ToolServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ToolServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ToolServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListTools lists the built-in tools, the worker tools connected now, and,
     * when a Spec is named, that Spec's tools.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.ListToolsResponse> listTools(
        dev.runsvc.v1.ListToolsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListToolsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * InvokeTool runs one tool outside any Run. A tool that fails is a result
     * with `error` set, not an RPC error; a tool nobody provides fails
     * NOT_FOUND / TOOL_NOT_FOUND.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.InvokeToolResponse> invokeTool(
        dev.runsvc.v1.InvokeToolRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getInvokeToolMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_LIST_TOOLS = 0;
  private static final int METHODID_INVOKE_TOOL = 1;
  private static final int METHODID_SERVE_TOOLS = 2;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final ToolServiceImplBase serviceImpl;
    private final int methodId;

    MethodHandlers(ToolServiceImplBase serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_LIST_TOOLS:
          serviceImpl.listTools((dev.runsvc.v1.ListToolsRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ListToolsResponse>) responseObserver);
          break;
        case METHODID_INVOKE_TOOL:
          serviceImpl.invokeTool((dev.runsvc.v1.InvokeToolRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.InvokeToolResponse>) responseObserver);
          break;
        default:
          throw new AssertionError();
      }
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public io.grpc.stub.StreamObserver<Req> invoke(
        io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_SERVE_TOOLS:
          return (io.grpc.stub.StreamObserver<Req>) serviceImpl.serveTools(
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ServeToolsResponse>) responseObserver);
        default:
          throw new AssertionError();
      }
    }
  }

  private static abstract class ToolServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    ToolServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.runsvc.v1.ToolProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("ToolService");
    }
  }

  private static final class ToolServiceFileDescriptorSupplier
      extends ToolServiceBaseDescriptorSupplier {
    ToolServiceFileDescriptorSupplier() {}
  }

  private static final class ToolServiceMethodDescriptorSupplier
      extends ToolServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final String methodName;

    ToolServiceMethodDescriptorSupplier(String methodName) {
      this.methodName = methodName;
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.MethodDescriptor getMethodDescriptor() {
      return getServiceDescriptor().findMethodByName(methodName);
    }
  }

  private static volatile io.grpc.ServiceDescriptor serviceDescriptor;

  public static io.grpc.ServiceDescriptor getServiceDescriptor() {
    io.grpc.ServiceDescriptor result = serviceDescriptor;
    if (result == null) {
      synchronized (ToolServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new ToolServiceFileDescriptorSupplier())
              .addMethod(getListToolsMethod())
              .addMethod(getInvokeToolMethod())
              .addMethod(getServeToolsMethod())
              .build();
        }
      }
    }
    return result;
  }
}
