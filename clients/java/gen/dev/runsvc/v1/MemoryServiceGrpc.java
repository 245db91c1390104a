package dev.runsvc.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * MemoryService is a durable key-value memory shared by the Runs of one
 * family (a root Run and its descendants) or by anyone naming a namespace.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class MemoryServiceGrpc {

  private MemoryServiceGrpc() {}

  public static final String SERVICE_NAME = "runsvc.v1.MemoryService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.SetValueRequest,
      dev.runsvc.v1.SetValueResponse> getSetValueMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "SetValue",
      requestType = dev.runsvc.v1.SetValueRequest.class,
      responseType = dev.runsvc.v1.SetValueResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.SetValueRequest,
      dev.runsvc.v1.SetValueResponse> getSetValueMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.SetValueRequest, dev.runsvc.v1.SetValueResponse> getSetValueMethod;
    if ((getSetValueMethod = MemoryServiceGrpc.getSetValueMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getSetValueMethod = MemoryServiceGrpc.getSetValueMethod) == null) {
          MemoryServiceGrpc.getSetValueMethod = getSetValueMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.SetValueRequest, dev.runsvc.v1.SetValueResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "SetValue"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.SetValueRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.SetValueResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("SetValue"))
              .build();
        }
      }
    }
    return getSetValueMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.GetValueRequest,
      dev.runsvc.v1.GetValueResponse> getGetValueMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetValue",
      requestType = dev.runsvc.v1.GetValueRequest.class,
      responseType = dev.runsvc.v1.GetValueResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.GetValueRequest,
      dev.runsvc.v1.GetValueResponse> getGetValueMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.GetValueRequest, dev.runsvc.v1.GetValueResponse> getGetValueMethod;
    if ((getGetValueMethod = MemoryServiceGrpc.getGetValueMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getGetValueMethod = MemoryServiceGrpc.getGetValueMethod) == null) {
          MemoryServiceGrpc.getGetValueMethod = getGetValueMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.GetValueRequest, dev.runsvc.v1.GetValueResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetValue"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetValueRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetValueResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("GetValue"))
              .build();
        }
      }
    }
    return getGetValueMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.WatchMemoryRequest,
      dev.runsvc.v1.WatchMemoryResponse> getWatchMemoryMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "WatchMemory",
      requestType = dev.runsvc.v1.WatchMemoryRequest.class,
      responseType = dev.runsvc.v1.WatchMemoryResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.WatchMemoryRequest,
      dev.runsvc.v1.WatchMemoryResponse> getWatchMemoryMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.WatchMemoryRequest, dev.runsvc.v1.WatchMemoryResponse> getWatchMemoryMethod;
    if ((getWatchMemoryMethod = MemoryServiceGrpc.getWatchMemoryMethod) == null) {
      synchronized (MemoryServiceGrpc.class) {
        if ((getWatchMemoryMethod = MemoryServiceGrpc.getWatchMemoryMethod) == null) {
          MemoryServiceGrpc.getWatchMemoryMethod = getWatchMemoryMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.WatchMemoryRequest, dev.runsvc.v1.WatchMemoryResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "WatchMemory"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.WatchMemoryRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.WatchMemoryResponse.getDefaultInstance()))
              .setSchemaDescriptor(new MemoryServiceMethodDescriptorSupplier("WatchMemory"))
              .build();
        }
      }
    }
    return getWatchMemoryMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static MemoryServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<MemoryServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<MemoryServiceStub>() {
        @java.lang.Override
        public MemoryServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new MemoryServiceStub(channel, callOptions);
        }
      };
    return MemoryServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static MemoryServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<MemoryServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<MemoryServiceBlockingStub>() {
        @java.lang.Override
        public MemoryServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new MemoryServiceBlockingStub(channel, callOptions);
        }
      };
    return MemoryServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static MemoryServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<MemoryServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<MemoryServiceFutureStub>() {
        @java.lang.Override
        public MemoryServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new MemoryServiceFutureStub(channel, callOptions);
        }
      };
    return MemoryServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * MemoryService is a durable key-value memory shared by the Runs of one
   * family (a root Run and its descendants) or by anyone naming a namespace.
   * </pre>
   */
  public static abstract class MemoryServiceImplBase implements io.grpc.BindableService {

    /**
     * <pre>
     * SetValue writes one key. A value that is not JSON-representable or is
     * over 256 KiB fails INVALID_ARGUMENT / VALUE_NOT_PORTABLE.
     * </pre>
     */
    public void setValue(dev.runsvc.v1.SetValueRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.SetValueResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getSetValueMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetValue reads keys. With `wait`, it blocks up to `wait` for each
     * missing key in turn, failing DEADLINE_EXCEEDED / AWAIT_TIMEOUT with
     * "Timeout waiting for :&lt;key&gt; in &lt;namespace&gt; after &lt;t&gt; seconds".
     * </pre>
     */
    public void getValue(dev.runsvc.v1.GetValueRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetValueResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetValueMethod(), responseObserver);
    }

    /**
     * <pre>
     * WatchMemory streams changes to keys matching glob patterns.
     * </pre>
     */
    public void watchMemory(dev.runsvc.v1.WatchMemoryRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.WatchMemoryResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getWatchMemoryMethod(), responseObserver);
    }

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
          .addMethod(
            getSetValueMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.SetValueRequest,
                dev.runsvc.v1.SetValueResponse>(
                  this, METHODID_SET_VALUE)))
          .addMethod(
            getGetValueMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.GetValueRequest,
                dev.runsvc.v1.GetValueResponse>(
                  this, METHODID_GET_VALUE)))
          .addMethod(
            getWatchMemoryMethod(),
            io.grpc.stub.ServerCalls.asyncServerStreamingCall(
              new MethodHandlers<
                dev.runsvc.v1.WatchMemoryRequest,
                dev.runsvc.v1.WatchMemoryResponse>(
                  this, METHODID_WATCH_MEMORY)))
          .build();
    }
  }

  /**
   * <pre>
   * MemoryService is a durable key-value memory shared by the Runs of one
   * family (a root Run and its descendants) or by anyone naming a namespace.
   * </pre>
   */
  public static final class MemoryServiceStub extends io.grpc.stub.AbstractAsyncStub<MemoryServiceStub> {
    private MemoryServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected MemoryServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new MemoryServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * SetValue writes one key. A value that is not JSON-representable or is
     * over 256 KiB fails INVALID_ARGUMENT / VALUE_NOT_PORTABLE.
     * </pre>
     */
    public void setValue(dev.runsvc.v1.SetValueRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.SetValueResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getSetValueMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetValue reads keys. With `wait`, it blocks up to `wait` for each
     * missing key in turn, failing DEADLINE_EXCEEDED / AWAIT_TIMEOUT with
     * "Timeout waiting for :&lt;key&gt; in &lt;namespace&gt; after &lt;t&gt; seconds".
     * </pre>
     */
    public void getValue(dev.runsvc.v1.GetValueRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetValueResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetValueMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * WatchMemory streams changes to keys matching glob patterns.
     * </pre>
     */
    public void watchMemory(dev.runsvc.v1.WatchMemoryRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.WatchMemoryResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(getWatchMemoryMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * <pre>
   * MemoryService is a durable key-value memory shared by the Runs of one
   * family (a root Run and its descendants) or by anyone naming a namespace.
   * </pre>
   */
  public static final class MemoryServiceBlockingStub extends io.grpc.stub.AbstractBlockingStub<MemoryServiceBlockingStub> {
    private MemoryServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected MemoryServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new MemoryServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * SetValue writes one key. A value that is not JSON-representable or is
     * over 256 KiB fails INVALID_ARGUMENT / VALUE_NOT_PORTABLE.
     * </pre>
     */
    public dev.runsvc.v1.SetValueResponse setValue(dev.runsvc.v1.SetValueRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getSetValueMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetValue reads keys. With `wait`, it blocks up to `wait` for each
     * missing key in turn, failing DEADLINE_EXCEEDED / AWAIT_TIMEOUT with
     * "Timeout waiting for :&lt;key&gt; in &lt;namespace&gt; after &lt;t&gt; seconds".
     * </pre>
     */
    public dev.runsvc.v1.GetValueResponse getValue(dev.runsvc.v1.GetValueRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetValueMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * WatchMemory streams changes to keys matching glob patterns.
     * </pre>
     */
    public java.util.Iterator<dev.runsvc.v1.WatchMemoryResponse> watchMemory(
        dev.runsvc.v1.WatchMemoryRequest request) {
      return io.grpc.stub.ClientCalls.blockingServerStreamingCall(
          getChannel(), getWatchMemoryMethod(), getCallOptions(), request);
    }
  }

  /**
   * <pre>
   * MemoryService is a durable key-value memory shared by the Runs of one
   * family (a root Run and its descendants) or by anyone naming a namespace.
   * </pre>
   */
  public static final class MemoryServiceFutureStub extends io.grpc.stub.AbstractFutureStub<MemoryServiceFutureStub> {
    private MemoryServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected MemoryServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new MemoryServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * SetValue writes one key. A value that is not JSON-representable or is
     * over 256 KiB fails INVALID_ARGUMENT / VALUE_NOT_PORTABLE.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.SetValueResponse> setValue(
        dev.runsvc.v1.SetValueRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getSetValueMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetValue reads keys. With `wait`, it blocks up to `wait` for each
     * missing key in turn, failing DEADLINE_EXCEEDED / AWAIT_TIMEOUT with
     * "Timeout waiting for :&lt;key&gt; in &lt;namespace&gt; after &lt;t&gt; seconds".
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.GetValueResponse> getValue(
        dev.runsvc.v1.GetValueRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetValueMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_SET_VALUE = 0;
  private static final int METHODID_GET_VALUE = 1;
  private static final int METHODID_WATCH_MEMORY = 2;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final MemoryServiceImplBase serviceImpl;
    private final int methodId;

    MethodHandlers(MemoryServiceImplBase serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_SET_VALUE:
          serviceImpl.setValue((dev.runsvc.v1.SetValueRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.SetValueResponse>) responseObserver);
          break;
        case METHODID_GET_VALUE:
          serviceImpl.getValue((dev.runsvc.v1.GetValueRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.GetValueResponse>) responseObserver);
          break;
        case METHODID_WATCH_MEMORY:
          serviceImpl.watchMemory((dev.runsvc.v1.WatchMemoryRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.WatchMemoryResponse>) responseObserver);
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
        default:
          throw new AssertionError();
      }
    }
  }

  private static abstract class MemoryServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    MemoryServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.runsvc.v1.MemoryProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("MemoryService");
    }
  }

  private static final class MemoryServiceFileDescriptorSupplier
      extends MemoryServiceBaseDescriptorSupplier {
    MemoryServiceFileDescriptorSupplier() {}
  }

  private static final class MemoryServiceMethodDescriptorSupplier
      extends MemoryServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final String methodName;

    MemoryServiceMethodDescriptorSupplier(String methodName) {
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
      synchronized (MemoryServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new MemoryServiceFileDescriptorSupplier())
              .addMethod(getSetValueMethod())
              .addMethod(getGetValueMethod())
              .addMethod(getWatchMemoryMethod())
              .build();
        }
      }
    }
    return result;
  }
}
