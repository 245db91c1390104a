package dev.runsvc.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * BusService carries messages between robots (bus-enabled Specs) by channel
 * name. A channel is a bus-enabled Spec's name or a channel one declares.
 * Delivery is at-least-once: a message is delivered until acknowledged.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class BusServiceGrpc {

  private BusServiceGrpc() {}

  public static final String SERVICE_NAME = "runsvc.v1.BusService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.BusServiceSendMessageRequest,
      dev.runsvc.v1.BusServiceSendMessageResponse> getSendMessageMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "SendMessage",
      requestType = dev.runsvc.v1.BusServiceSendMessageRequest.class,
      responseType = dev.runsvc.v1.BusServiceSendMessageResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.BusServiceSendMessageRequest,
      dev.runsvc.v1.BusServiceSendMessageResponse> getSendMessageMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.BusServiceSendMessageRequest, dev.runsvc.v1.BusServiceSendMessageResponse> getSendMessageMethod;
    if ((getSendMessageMethod = BusServiceGrpc.getSendMessageMethod) == null) {
      synchronized (BusServiceGrpc.class) {
        if ((getSendMessageMethod = BusServiceGrpc.getSendMessageMethod) == null) {
          BusServiceGrpc.getSendMessageMethod = getSendMessageMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.BusServiceSendMessageRequest, dev.runsvc.v1.BusServiceSendMessageResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "SendMessage"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.BusServiceSendMessageRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.BusServiceSendMessageResponse.getDefaultInstance()))
              .setSchemaDescriptor(new BusServiceMethodDescriptorSupplier("SendMessage"))
              .build();
        }
      }
    }
    return getSendMessageMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ReceiveRequest,
      dev.runsvc.v1.ReceiveResponse> getReceiveMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Receive",
      requestType = dev.runsvc.v1.ReceiveRequest.class,
      responseType = dev.runsvc.v1.ReceiveResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ReceiveRequest,
      dev.runsvc.v1.ReceiveResponse> getReceiveMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ReceiveRequest, dev.runsvc.v1.ReceiveResponse> getReceiveMethod;
    if ((getReceiveMethod = BusServiceGrpc.getReceiveMethod) == null) {
      synchronized (BusServiceGrpc.class) {
        if ((getReceiveMethod = BusServiceGrpc.getReceiveMethod) == null) {
          BusServiceGrpc.getReceiveMethod = getReceiveMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ReceiveRequest, dev.runsvc.v1.ReceiveResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Receive"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ReceiveRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ReceiveResponse.getDefaultInstance()))
              .setSchemaDescriptor(new BusServiceMethodDescriptorSupplier("Receive"))
              .build();
        }
      }
    }
    return getReceiveMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.AcknowledgeMessagesRequest,
      dev.runsvc.v1.AcknowledgeMessagesResponse> getAcknowledgeMessagesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "AcknowledgeMessages",
      requestType = dev.runsvc.v1.AcknowledgeMessagesRequest.class,
      responseType = dev.runsvc.v1.AcknowledgeMessagesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.AcknowledgeMessagesRequest,
      dev.runsvc.v1.AcknowledgeMessagesResponse> getAcknowledgeMessagesMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.AcknowledgeMessagesRequest, dev.runsvc.v1.AcknowledgeMessagesResponse> getAcknowledgeMessagesMethod;
    if ((getAcknowledgeMessagesMethod = BusServiceGrpc.getAcknowledgeMessagesMethod) == null) {
      synchronized (BusServiceGrpc.class) {
        if ((getAcknowledgeMessagesMethod = BusServiceGrpc.getAcknowledgeMessagesMethod) == null) {
          BusServiceGrpc.getAcknowledgeMessagesMethod = getAcknowledgeMessagesMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.AcknowledgeMessagesRequest, dev.runsvc.v1.AcknowledgeMessagesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "AcknowledgeMessages"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.AcknowledgeMessagesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.AcknowledgeMessagesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new BusServiceMethodDescriptorSupplier("AcknowledgeMessages"))
              .build();
        }
      }
    }
    return getAcknowledgeMessagesMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static BusServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<BusServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<BusServiceStub>() {
        @java.lang.Override
        public BusServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new BusServiceStub(channel, callOptions);
        }
      };
    return BusServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static BusServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<BusServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<BusServiceBlockingStub>() {
        @java.lang.Override
        public BusServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new BusServiceBlockingStub(channel, callOptions);
        }
      };
    return BusServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static BusServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<BusServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<BusServiceFutureStub>() {
        @java.lang.Override
        public BusServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new BusServiceFutureStub(channel, callOptions);
        }
      };
    return BusServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * BusService carries messages between robots (bus-enabled Specs) by channel
   * name. A channel is a bus-enabled Spec's name or a channel one declares.
   * Delivery is at-least-once: a message is delivered until acknowledged.
   * </pre>
   */
  public static abstract class BusServiceImplBase implements io.grpc.BindableService {

    /**
     * <pre>
     * SendMessage sends a message from a robot to a channel. Fails
     * FAILED_PRECONDITION / BUS_NOT_CONFIGURED when the sender's Spec has no
     * bus, and NOT_FOUND / CHANNEL_NOT_FOUND for an unknown channel.
     * </pre>
     */
    public void sendMessage(dev.runsvc.v1.BusServiceSendMessageRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.BusServiceSendMessageResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getSendMessageMethod(), responseObserver);
    }

    /**
     * <pre>
     * Receive streams a channel's unacknowledged messages, oldest first, then
     * new ones as they arrive. A message not acknowledged within
     * `ack_timeout` is delivered again.
     * </pre>
     */
    public void receive(dev.runsvc.v1.ReceiveRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ReceiveResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReceiveMethod(), responseObserver);
    }

    /**
     * <pre>
     * AcknowledgeMessages marks messages of a channel as handled, so they are
     * never delivered again.
     * </pre>
     */
    public void acknowledgeMessages(dev.runsvc.v1.AcknowledgeMessagesRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.AcknowledgeMessagesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getAcknowledgeMessagesMethod(), responseObserver);
    }

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
          .addMethod(
            getSendMessageMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.BusServiceSendMessageRequest,
                dev.runsvc.v1.BusServiceSendMessageResponse>(
                  this, METHODID_SEND_MESSAGE)))
          .addMethod(
            getReceiveMethod(),
            io.grpc.stub.ServerCalls.asyncServerStreamingCall(
              new MethodHandlers<
                dev.runsvc.v1.ReceiveRequest,
                dev.runsvc.v1.ReceiveResponse>(
                  this, METHODID_RECEIVE)))
          .addMethod(
            getAcknowledgeMessagesMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.AcknowledgeMessagesRequest,
                dev.runsvc.v1.AcknowledgeMessagesResponse>(
                  this, METHODID_ACKNOWLEDGE_MESSAGES)))
          .build();
    }
  }

  /**
   * <pre>
   * BusService carries messages between robots (bus-enabled Specs) by channel
   * name. A channel is a bus-enabled Spec's name or a channel one declares.
   * Delivery is at-least-once: a message is delivered until acknowledged.
   * </pre>
   */
  public static final class BusServiceStub extends io.grpc.stub.AbstractAsyncStub<BusServiceStub> {
    private BusServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected BusServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new BusServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * SendMessage sends a message from a robot to a channel. Fails
     * FAILED_PRECONDITION / BUS_NOT_CONFIGURED when the sender's Spec has no
     * bus, and NOT_FOUND / CHANNEL_NOT_FOUND for an unknown channel.
     * </pre>
     */
    public void sendMessage(dev.runsvc.v1.BusServiceSendMessageRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.BusServiceSendMessageResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getSendMessageMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Receive streams a channel's unacknowledged messages, oldest first, then
     * new ones as they arrive. A message not acknowledged within
     * `ack_timeout` is delivered again.
     * </pre>
     */
    public void receive(dev.runsvc.v1.ReceiveRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ReceiveResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(getReceiveMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * AcknowledgeMessages marks messages of a channel as handled, so they are
     * never delivered again.
     * </pre>
     */
    public void acknowledgeMessages(dev.runsvc.v1.AcknowledgeMessagesRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.AcknowledgeMessagesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getAcknowledgeMessagesMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * <pre>
   * BusService carries messages between robots (bus-enabled Specs) by channel
   * name. A channel is a bus-enabled Spec's name or a channel one declares.
   * Delivery is at-least-once: a message is delivered until acknowledged.
   * </pre>
   */
  public static final class BusServiceBlockingStub extends io.grpc.stub.AbstractBlockingStub<BusServiceBlockingStub> {
    private BusServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected BusServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new BusServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * SendMessage sends a message from a robot to a channel. Fails
     * FAILED_PRECONDITION / BUS_NOT_CONFIGURED when the sender's Spec has no
     * bus, and NOT_FOUND / CHANNEL_NOT_FOUND for an unknown channel.
     * </pre>
     */
    public dev.runsvc.v1.BusServiceSendMessageResponse sendMessage(dev.runsvc.v1.BusServiceSendMessageRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getSendMessageMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Receive streams a channel's unacknowledged messages, oldest first, then
     * new ones as they arrive. A message not acknowledged within
     * `ack_timeout` is delivered again.
     * </pre>
     */
    public java.util.Iterator<dev.runsvc.v1.ReceiveResponse> receive(
        dev.runsvc.v1.ReceiveRequest request) {
      return io.grpc.stub.ClientCalls.blockingServerStreamingCall(
          getChannel(), getReceiveMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * AcknowledgeMessages marks messages of a channel as handled, so they are
     * never delivered again.
     * </pre>
     */
    public dev.runsvc.v1.AcknowledgeMessagesResponse acknowledgeMessages(dev.runsvc.v1.AcknowledgeMessagesRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getAcknowledgeMessagesMethod(), getCallOptions(), request);
    }
  }

  /**
   * <pre>
   * BusService carries messages between robots (bus-enabled Specs) by channel
   * name. A channel is a bus-enabled Spec's name or a channel one declares.
   * Delivery is at-least-once: a message is delivered until acknowledged.
   * </pre>
   */
  public static final class BusServiceFutureStub extends io.grpc.stub.AbstractFutureStub<BusServiceFutureStub> {
    private BusServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected BusServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new BusServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * SendMessage sends a message from a robot to a channel. Fails
     * FAILED_PRECONDITION / BUS_NOT_CONFIGURED when the sender's Spec has no
     * bus, and NOT_FOUND / CHANNEL_NOT_FOUND for an unknown channel.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.BusServiceSendMessageResponse> sendMessage(
        dev.runsvc.v1.BusServiceSendMessageRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getSendMessageMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * AcknowledgeMessages marks messages of a channel as handled, so they are
     * never delivered again.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.AcknowledgeMessagesResponse> acknowledgeMessages(
        dev.runsvc.v1.AcknowledgeMessagesRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getAcknowledgeMessagesMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_SEND_MESSAGE = 0;
  private static final int METHODID_RECEIVE = 1;
  private static final int METHODID_ACKNOWLEDGE_MESSAGES = 2;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final BusServiceImplBase serviceImpl;
    private final int methodId;

    MethodHandlers(BusServiceImplBase serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_SEND_MESSAGE:
          serviceImpl.sendMessage((dev.runsvc.v1.BusServiceSendMessageRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.BusServiceSendMessageResponse>) responseObserver);
          break;
        case METHODID_RECEIVE:
          serviceImpl.receive((dev.runsvc.v1.ReceiveRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ReceiveResponse>) responseObserver);
          break;
        case METHODID_ACKNOWLEDGE_MESSAGES:
          serviceImpl.acknowledgeMessages((dev.runsvc.v1.AcknowledgeMessagesRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.AcknowledgeMessagesResponse>) responseObserver);
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

  private static abstract class BusServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    BusServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.runsvc.v1.BusProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("BusService");
    }
  }

  private static final class BusServiceFileDescriptorSupplier
      extends BusServiceBaseDescriptorSupplier {
    BusServiceFileDescriptorSupplier() {}
  }

  private static final class BusServiceMethodDescriptorSupplier
      extends BusServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final String methodName;

    BusServiceMethodDescriptorSupplier(String methodName) {
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
      synchronized (BusServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new BusServiceFileDescriptorSupplier())
              .addMethod(getSendMessageMethod())
              .addMethod(getReceiveMethod())
              .addMethod(getAcknowledgeMessagesMethod())
              .build();
        }
      }
    }
    return result;
  }
}
