package dev.runsvc.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * DelegationService hands a task to another agent as a child Run.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class DelegationServiceGrpc {

  private DelegationServiceGrpc() {}

  public static final String SERVICE_NAME = "runsvc.v1.DelegationService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.DelegateRequest,
      dev.runsvc.v1.DelegateResponse> getDelegateMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Delegate",
      requestType = dev.runsvc.v1.DelegateRequest.class,
      responseType = dev.runsvc.v1.DelegateResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.DelegateRequest,
      dev.runsvc.v1.DelegateResponse> getDelegateMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.DelegateRequest, dev.runsvc.v1.DelegateResponse> getDelegateMethod;
    if ((getDelegateMethod = DelegationServiceGrpc.getDelegateMethod) == null) {
      synchronized (DelegationServiceGrpc.class) {
        if ((getDelegateMethod = DelegationServiceGrpc.getDelegateMethod) == null) {
          DelegationServiceGrpc.getDelegateMethod = getDelegateMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.DelegateRequest, dev.runsvc.v1.DelegateResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Delegate"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.DelegateRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.DelegateResponse.getDefaultInstance()))
              .setSchemaDescriptor(new DelegationServiceMethodDescriptorSupplier("Delegate"))
              .build();
        }
      }
    }
    return getDelegateMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.GetDelegationRequest,
      dev.runsvc.v1.GetDelegationResponse> getGetDelegationMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetDelegation",
      requestType = dev.runsvc.v1.GetDelegationRequest.class,
      responseType = dev.runsvc.v1.GetDelegationResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.GetDelegationRequest,
      dev.runsvc.v1.GetDelegationResponse> getGetDelegationMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.GetDelegationRequest, dev.runsvc.v1.GetDelegationResponse> getGetDelegationMethod;
    if ((getGetDelegationMethod = DelegationServiceGrpc.getGetDelegationMethod) == null) {
      synchronized (DelegationServiceGrpc.class) {
        if ((getGetDelegationMethod = DelegationServiceGrpc.getGetDelegationMethod) == null) {
          DelegationServiceGrpc.getGetDelegationMethod = getGetDelegationMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.GetDelegationRequest, dev.runsvc.v1.GetDelegationResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetDelegation"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetDelegationRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetDelegationResponse.getDefaultInstance()))
              .setSchemaDescriptor(new DelegationServiceMethodDescriptorSupplier("GetDelegation"))
              .build();
        }
      }
    }
    return getGetDelegationMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.AwaitDelegationRequest,
      dev.runsvc.v1.AwaitDelegationResponse> getAwaitDelegationMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "AwaitDelegation",
      requestType = dev.runsvc.v1.AwaitDelegationRequest.class,
      responseType = dev.runsvc.v1.AwaitDelegationResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.AwaitDelegationRequest,
      dev.runsvc.v1.AwaitDelegationResponse> getAwaitDelegationMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.AwaitDelegationRequest, dev.runsvc.v1.AwaitDelegationResponse> getAwaitDelegationMethod;
    if ((getAwaitDelegationMethod = DelegationServiceGrpc.getAwaitDelegationMethod) == null) {
      synchronized (DelegationServiceGrpc.class) {
        if ((getAwaitDelegationMethod = DelegationServiceGrpc.getAwaitDelegationMethod) == null) {
          DelegationServiceGrpc.getAwaitDelegationMethod = getAwaitDelegationMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.AwaitDelegationRequest, dev.runsvc.v1.AwaitDelegationResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "AwaitDelegation"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.AwaitDelegationRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.AwaitDelegationResponse.getDefaultInstance()))
              .setSchemaDescriptor(new DelegationServiceMethodDescriptorSupplier("AwaitDelegation"))
              .build();
        }
      }
    }
    return getAwaitDelegationMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static DelegationServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<DelegationServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<DelegationServiceStub>() {
        @java.lang.Override
        public DelegationServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new DelegationServiceStub(channel, callOptions);
        }
      };
    return DelegationServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static DelegationServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<DelegationServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<DelegationServiceBlockingStub>() {
        @java.lang.Override
        public DelegationServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new DelegationServiceBlockingStub(channel, callOptions);
        }
      };
    return DelegationServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static DelegationServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<DelegationServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<DelegationServiceFutureStub>() {
        @java.lang.Override
        public DelegationServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new DelegationServiceFutureStub(channel, callOptions);
        }
      };
    return DelegationServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * DelegationService hands a task to another agent as a child Run.
   * </pre>
   */
  public static abstract class DelegationServiceImplBase implements io.grpc.BindableService {

    /**
     * <pre>
     * Delegate starts a child Run of a delegate Spec. Synchronous by default:
     * it returns when the child settles (or fails DELEGATION_TIMEOUT after
     * `timeout`, leaving the child running); with `async` it returns the
     * delegation at once.
     * </pre>
     */
    public void delegate(dev.runsvc.v1.DelegateRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.DelegateResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDelegateMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetDelegation returns a delegation and its child's outcome so far.
     * Fails NOT_FOUND / DELEGATION_NOT_FOUND.
     * </pre>
     */
    public void getDelegation(dev.runsvc.v1.GetDelegationRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetDelegationResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetDelegationMethod(), responseObserver);
    }

    /**
     * <pre>
     * AwaitDelegation waits for a delegation's child to settle. Fails
     * DEADLINE_EXCEEDED / DELEGATION_TIMEOUT with "Delegation to '&lt;name&gt;'
     * timed out after &lt;t&gt;s" when `timeout` elapses; the child keeps running.
     * </pre>
     */
    public void awaitDelegation(dev.runsvc.v1.AwaitDelegationRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.AwaitDelegationResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getAwaitDelegationMethod(), responseObserver);
    }

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
          .addMethod(
            getDelegateMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.DelegateRequest,
                dev.runsvc.v1.DelegateResponse>(
                  this, METHODID_DELEGATE)))
          .addMethod(
            getGetDelegationMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.GetDelegationRequest,
                dev.runsvc.v1.GetDelegationResponse>(
                  this, METHODID_GET_DELEGATION)))
          .addMethod(
            getAwaitDelegationMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.AwaitDelegationRequest,
                dev.runsvc.v1.AwaitDelegationResponse>(
                  this, METHODID_AWAIT_DELEGATION)))
          .build();
    }
  }

  /**
   * <pre>
   * DelegationService hands a task to another agent as a child Run.
   * </pre>
   */
  public static final class DelegationServiceStub extends io.grpc.stub.AbstractAsyncStub<DelegationServiceStub> {
    private DelegationServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected DelegationServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new DelegationServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * Delegate starts a child Run of a delegate Spec. Synchronous by default:
     * it returns when the child settles (or fails DELEGATION_TIMEOUT after
     * `timeout`, leaving the child running); with `async` it returns the
     * delegation at once.
     * </pre>
     */
    public void delegate(dev.runsvc.v1.DelegateRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.DelegateResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDelegateMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetDelegation returns a delegation and its child's outcome so far.
     * Fails NOT_FOUND / DELEGATION_NOT_FOUND.
     * </pre>
     */
    public void getDelegation(dev.runsvc.v1.GetDelegationRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetDelegationResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetDelegationMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * AwaitDelegation waits for a delegation's child to settle. Fails
     * DEADLINE_EXCEEDED / DELEGATION_TIMEOUT with "Delegation to '&lt;name&gt;'
     * timed out after &lt;t&gt;s" when `timeout` elapses; the child keeps running.
     * </pre>
     */
    public void awaitDelegation(dev.runsvc.v1.AwaitDelegationRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.AwaitDelegationResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getAwaitDelegationMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * <pre>
   * DelegationService hands a task to another agent as a child Run.
   * </pre>
   */
  public static final class DelegationServiceBlockingStub extends io.grpc.stub.AbstractBlockingStub<DelegationServiceBlockingStub> {
    private DelegationServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected DelegationServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new DelegationServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * Delegate starts a child Run of a delegate Spec. Synchronous by default:
     * it returns when the child settles (or fails DELEGATION_TIMEOUT after
     * `timeout`, leaving the child running); with `async` it returns the
     * delegation at once.
     * </pre>
     */
    public dev.runsvc.v1.DelegateResponse delegate(dev.runsvc.v1.DelegateRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDelegateMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetDelegation returns a delegation and its child's outcome so far.
     * Fails NOT_FOUND / DELEGATION_NOT_FOUND.
     * </pre>
     */
    public dev.runsvc.v1.GetDelegationResponse getDelegation(dev.runsvc.v1.GetDelegationRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetDelegationMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * AwaitDelegation waits for a delegation's child to settle. Fails
     * DEADLINE_EXCEEDED / DELEGATION_TIMEOUT with "Delegation to '&lt;name&gt;'
     * timed out after &lt;t&gt;s" when `timeout` elapses; the child keeps running.
     * </pre>
     */
    public dev.runsvc.v1.AwaitDelegationResponse awaitDelegation(dev.runsvc.v1.AwaitDelegationRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getAwaitDelegationMethod(), getCallOptions(), request);
    }
  }

  /**
   * <pre>
   * DelegationService hands a task to another agent as a child Run.
   * </pre>
   */
  public static final class DelegationServiceFutureStub extends io.grpc.stub.AbstractFutureStub<DelegationServiceFutureStub> {
    private DelegationServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected DelegationServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new DelegationServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * Delegate starts a child Run of a delegate Spec. Synchronous by default:
     * it returns when the child settles (or fails DELEGATION_TIMEOUT after
     * `timeout`, leaving the child running); with `async` it returns the
     * delegation at once.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.DelegateResponse> delegate(
        dev.runsvc.v1.DelegateRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDelegateMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetDelegation returns a delegation and its child's outcome so far.
     * Fails NOT_FOUND / DELEGATION_NOT_FOUND.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.GetDelegationResponse> getDelegation(
        dev.runsvc.v1.GetDelegationRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetDelegationMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * AwaitDelegation waits for a delegation's child to settle. Fails
     * DEADLINE_EXCEEDED / DELEGATION_TIMEOUT with "Delegation to '&lt;name&gt;'
     * timed out after &lt;t&gt;s" when `timeout` elapses; the child keeps running.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.AwaitDelegationResponse> awaitDelegation(
        dev.runsvc.v1.AwaitDelegationRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getAwaitDelegationMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_DELEGATE = 0;
  private static final int METHODID_GET_DELEGATION = 1;
  private static final int METHODID_AWAIT_DELEGATION = 2;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final DelegationServiceImplBase serviceImpl;
    private final int methodId;

    MethodHandlers(DelegationServiceImplBase serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_DELEGATE:
          serviceImpl.delegate((dev.runsvc.v1.DelegateRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.DelegateResponse>) responseObserver);
          break;
        case METHODID_GET_DELEGATION:
          serviceImpl.getDelegation((dev.runsvc.v1.GetDelegationRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.GetDelegationResponse>) responseObserver);
          break;
        case METHODID_AWAIT_DELEGATION:
          serviceImpl.awaitDelegation((dev.runsvc.v1.AwaitDelegationRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.AwaitDelegationResponse>) responseObserver);
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

  private static abstract class DelegationServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    DelegationServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.runsvc.v1.DelegationProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("DelegationService");
    }
  }

  private static final class DelegationServiceFileDescriptorSupplier
      extends DelegationServiceBaseDescriptorSupplier {
    DelegationServiceFileDescriptorSupplier() {}
  }

  private static final class DelegationServiceMethodDescriptorSupplier
      extends DelegationServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final String methodName;

    DelegationServiceMethodDescriptorSupplier(String methodName) {
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
      synchronized (DelegationServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new DelegationServiceFileDescriptorSupplier())
              .addMethod(getDelegateMethod())
              .addMethod(getGetDelegationMethod())
              .addMethod(getAwaitDelegationMethod())
              .build();
        }
      }
    }
    return result;
  }
}
