package dev.runsvc.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * SpecService publishes and reads agent Specs. A Spec is validated once, at
 * publish, and stored as an immutable Version keyed by its content hash.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class SpecServiceGrpc {

  private SpecServiceGrpc() {}

  public static final String SERVICE_NAME = "runsvc.v1.SpecService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.PublishSpecRequest,
      dev.runsvc.v1.PublishSpecResponse> getPublishSpecMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "PublishSpec",
      requestType = dev.runsvc.v1.PublishSpecRequest.class,
      responseType = dev.runsvc.v1.PublishSpecResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.PublishSpecRequest,
      dev.runsvc.v1.PublishSpecResponse> getPublishSpecMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.PublishSpecRequest, dev.runsvc.v1.PublishSpecResponse> getPublishSpecMethod;
    if ((getPublishSpecMethod = SpecServiceGrpc.getPublishSpecMethod) == null) {
      synchronized (SpecServiceGrpc.class) {
        if ((getPublishSpecMethod = SpecServiceGrpc.getPublishSpecMethod) == null) {
          SpecServiceGrpc.getPublishSpecMethod = getPublishSpecMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.PublishSpecRequest, dev.runsvc.v1.PublishSpecResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "PublishSpec"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.PublishSpecRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.PublishSpecResponse.getDefaultInstance()))
              .setSchemaDescriptor(new SpecServiceMethodDescriptorSupplier("PublishSpec"))
              .build();
        }
      }
    }
    return getPublishSpecMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.GetSpecRequest,
      dev.runsvc.v1.GetSpecResponse> getGetSpecMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetSpec",
      requestType = dev.runsvc.v1.GetSpecRequest.class,
      responseType = dev.runsvc.v1.GetSpecResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.GetSpecRequest,
      dev.runsvc.v1.GetSpecResponse> getGetSpecMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.GetSpecRequest, dev.runsvc.v1.GetSpecResponse> getGetSpecMethod;
    if ((getGetSpecMethod = SpecServiceGrpc.getGetSpecMethod) == null) {
      synchronized (SpecServiceGrpc.class) {
        if ((getGetSpecMethod = SpecServiceGrpc.getGetSpecMethod) == null) {
          SpecServiceGrpc.getGetSpecMethod = getGetSpecMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.GetSpecRequest, dev.runsvc.v1.GetSpecResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetSpec"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetSpecRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetSpecResponse.getDefaultInstance()))
              .setSchemaDescriptor(new SpecServiceMethodDescriptorSupplier("GetSpec"))
              .build();
        }
      }
    }
    return getGetSpecMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ListSpecsRequest,
      dev.runsvc.v1.ListSpecsResponse> getListSpecsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListSpecs",
      requestType = dev.runsvc.v1.ListSpecsRequest.class,
      responseType = dev.runsvc.v1.ListSpecsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ListSpecsRequest,
      dev.runsvc.v1.ListSpecsResponse> getListSpecsMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ListSpecsRequest, dev.runsvc.v1.ListSpecsResponse> getListSpecsMethod;
    if ((getListSpecsMethod = SpecServiceGrpc.getListSpecsMethod) == null) {
      synchronized (SpecServiceGrpc.class) {
        if ((getListSpecsMethod = SpecServiceGrpc.getListSpecsMethod) == null) {
          SpecServiceGrpc.getListSpecsMethod = getListSpecsMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ListSpecsRequest, dev.runsvc.v1.ListSpecsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListSpecs"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListSpecsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListSpecsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new SpecServiceMethodDescriptorSupplier("ListSpecs"))
              .build();
        }
      }
    }
    return getListSpecsMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static SpecServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<SpecServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<SpecServiceStub>() {
        @java.lang.Override
        public SpecServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new SpecServiceStub(channel, callOptions);
        }
      };
    return SpecServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static SpecServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<SpecServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<SpecServiceBlockingStub>() {
        @java.lang.Override
        public SpecServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new SpecServiceBlockingStub(channel, callOptions);
        }
      };
    return SpecServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static SpecServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<SpecServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<SpecServiceFutureStub>() {
        @java.lang.Override
        public SpecServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new SpecServiceFutureStub(channel, callOptions);
        }
      };
    return SpecServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * SpecService publishes and reads agent Specs. A Spec is validated once, at
   * publish, and stored as an immutable Version keyed by its content hash.
   * </pre>
   */
  public static abstract class SpecServiceImplBase implements io.grpc.BindableService {

    /**
     * <pre>
     * PublishSpec validates a Spec and stores it as a new Version. Every problem
     * is reported at once: the error is INVALID_ARGUMENT with reason
     * SPEC_INVALID and one BadRequest violation per problem. Publishing a Spec
     * identical to an existing Version returns that Version unchanged.
     * </pre>
     */
    public void publishSpec(dev.runsvc.v1.PublishSpecRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.PublishSpecResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getPublishSpecMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetSpec returns one Version of a Spec, the newest when no version is
     * given. Fails NOT_FOUND / SPEC_NOT_FOUND.
     * </pre>
     */
    public void getSpec(dev.runsvc.v1.GetSpecRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetSpecResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetSpecMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListSpecs lists the newest Version of every Spec, or every Version of one
     * Spec when a name is given, ordered by name then publish time.
     * </pre>
     */
    public void listSpecs(dev.runsvc.v1.ListSpecsRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListSpecsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListSpecsMethod(), responseObserver);
    }

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
          .addMethod(
            getPublishSpecMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.PublishSpecRequest,
                dev.runsvc.v1.PublishSpecResponse>(
                  this, METHODID_PUBLISH_SPEC)))
          .addMethod(
            getGetSpecMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.GetSpecRequest,
                dev.runsvc.v1.GetSpecResponse>(
                  this, METHODID_GET_SPEC)))
          .addMethod(
            getListSpecsMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.ListSpecsRequest,
                dev.runsvc.v1.ListSpecsResponse>(
                  this, METHODID_LIST_SPECS)))
          .build();
    }
  }

  /**
   * <pre>
   * SpecService publishes and reads agent Specs. A Spec is validated once, at
   * publish, and stored as an immutable Version keyed by its content hash.
   * </pre>
   */
  public static final class SpecServiceStub extends io.grpc.stub.AbstractAsyncStub<SpecServiceStub> {
    private SpecServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected SpecServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new SpecServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * PublishSpec validates a Spec and stores it as a new Version. Every problem
     * is reported at once: the error is INVALID_ARGUMENT with reason
     * SPEC_INVALID and one BadRequest violation per problem. Publishing a Spec
     * identical to an existing Version returns that Version unchanged.
     * </pre>
     */
    public void publishSpec(dev.runsvc.v1.PublishSpecRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.PublishSpecResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getPublishSpecMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetSpec returns one Version of a Spec, the newest when no version is
     * given. Fails NOT_FOUND / SPEC_NOT_FOUND.
     * </pre>
     */
    public void getSpec(dev.runsvc.v1.GetSpecRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetSpecResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetSpecMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListSpecs lists the newest Version of every Spec, or every Version of one
     * Spec when a name is given, ordered by name then publish time.
     * </pre>
     */
    public void listSpecs(dev.runsvc.v1.ListSpecsRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListSpecsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListSpecsMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * <pre>
   * SpecService publishes and reads agent Specs. A Spec is validated once, at
   * publish, and stored as an immutable Version keyed by its content hash.
   * </pre>
   */
  public static final class SpecServiceBlockingStub extends io.grpc.stub.AbstractBlockingStub<SpecServiceBlockingStub> {
    private SpecServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected SpecServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new SpecServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * PublishSpec validates a Spec and stores it as a new Version. Every problem
     * is reported at once: the error is INVALID_ARGUMENT with reason
     * SPEC_INVALID and one BadRequest violation per problem. Publishing a Spec
     * identical to an existing Version returns that Version unchanged.
     * </pre>
     */
    public dev.runsvc.v1.PublishSpecResponse publishSpec(dev.runsvc.v1.PublishSpecRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getPublishSpecMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetSpec returns one Version of a Spec, the newest when no version is
     * given. Fails NOT_FOUND / SPEC_NOT_FOUND.
     * </pre>
     */
    public dev.runsvc.v1.GetSpecResponse getSpec(dev.runsvc.v1.GetSpecRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetSpecMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListSpecs lists the newest Version of every Spec, or every Version of one
     * Spec when a name is given, ordered by name then publish time.
     * </pre>
     */
    public dev.runsvc.v1.ListSpecsResponse listSpecs(dev.runsvc.v1.ListSpecsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListSpecsMethod(), getCallOptions(), request);
    }
  }

  /**
   * <pre>
   * SpecService publishes and reads agent Specs. A Spec is validated once, at
   * publish, and stored as an immutable Version keyed by its content hash.
   * </pre>
   */
  public static final class SpecServiceFutureStub extends io.grpc.stub.AbstractFutureStub<SpecServiceFutureStub> {
    private SpecServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected SpecServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new SpecServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * PublishSpec validates a Spec and stores it as a new Version. Every problem
     * is reported at once: the error is INVALID_ARGUMENT with reason
     * SPEC_INVALID and one BadRequest violation per problem. Publishing a Spec
     * identical to an existing Version returns that Version unchanged.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.PublishSpecResponse> publishSpec(
        dev.runsvc.v1.PublishSpecRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getPublishSpecMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetSpec returns one Version of a Spec, the newest when no version is
     * given. Fails NOT_FOUND / SPEC_NOT_FOUND.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.GetSpecResponse> getSpec(
        dev.runsvc.v1.GetSpecRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetSpecMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListSpecs lists the newest Version of every Spec, or every Version of one
     * Spec when a name is given, ordered by name then publish time.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.ListSpecsResponse> listSpecs(
        dev.runsvc.v1.ListSpecsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListSpecsMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_PUBLISH_SPEC = 0;
  private static final int METHODID_GET_SPEC = 1;
  private static final int METHODID_LIST_SPECS = 2;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final SpecServiceImplBase serviceImpl;
    private final int methodId;

    MethodHandlers(SpecServiceImplBase serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_PUBLISH_SPEC:
          serviceImpl.publishSpec((dev.runsvc.v1.PublishSpecRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.PublishSpecResponse>) responseObserver);
          break;
        case METHODID_GET_SPEC:
          serviceImpl.getSpec((dev.runsvc.v1.GetSpecRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.GetSpecResponse>) responseObserver);
          break;
        case METHODID_LIST_SPECS:
          serviceImpl.listSpecs((dev.runsvc.v1.ListSpecsRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ListSpecsResponse>) responseObserver);
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

  private static abstract class SpecServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    SpecServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.runsvc.v1.SpecProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("SpecService");
    }
  }

  private static final class SpecServiceFileDescriptorSupplier
      extends SpecServiceBaseDescriptorSupplier {
    SpecServiceFileDescriptorSupplier() {}
  }

  private static final class SpecServiceMethodDescriptorSupplier
      extends SpecServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final String methodName;

    SpecServiceMethodDescriptorSupplier(String methodName) {
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
      synchronized (SpecServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new SpecServiceFileDescriptorSupplier())
              .addMethod(getPublishSpecMethod())
              .addMethod(getGetSpecMethod())
              .addMethod(getListSpecsMethod())
              .build();
        }
      }
    }
    return result;
  }
}
