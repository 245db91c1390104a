package dev.runsvc.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * AliasService names Spec Versions. An alias (`prod`, `canary`, any name
 * of lower case letters, digits, '-' and '_' starting with a letter) points
 * new Runs of `spec&#64;alias` at a Version, or, during a canary, splits them
 * by weight between two Versions. Moving an alias changes the Version of
 * new Runs only: a Run keeps the Version it started on. Moving or deleting
 * `prod` needs the publisher or admin role; any role that may call the
 * method may move the others.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class AliasServiceGrpc {

  private AliasServiceGrpc() {}

  public static final String SERVICE_NAME = "runsvc.v1.AliasService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.MoveAliasRequest,
      dev.runsvc.v1.MoveAliasResponse> getMoveAliasMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "MoveAlias",
      requestType = dev.runsvc.v1.MoveAliasRequest.class,
      responseType = dev.runsvc.v1.MoveAliasResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.MoveAliasRequest,
      dev.runsvc.v1.MoveAliasResponse> getMoveAliasMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.MoveAliasRequest, dev.runsvc.v1.MoveAliasResponse> getMoveAliasMethod;
    if ((getMoveAliasMethod = AliasServiceGrpc.getMoveAliasMethod) == null) {
      synchronized (AliasServiceGrpc.class) {
        if ((getMoveAliasMethod = AliasServiceGrpc.getMoveAliasMethod) == null) {
          AliasServiceGrpc.getMoveAliasMethod = getMoveAliasMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.MoveAliasRequest, dev.runsvc.v1.MoveAliasResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "MoveAlias"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.MoveAliasRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.MoveAliasResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AliasServiceMethodDescriptorSupplier("MoveAlias"))
              .build();
        }
      }
    }
    return getMoveAliasMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.GetAliasRequest,
      dev.runsvc.v1.GetAliasResponse> getGetAliasMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetAlias",
      requestType = dev.runsvc.v1.GetAliasRequest.class,
      responseType = dev.runsvc.v1.GetAliasResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.GetAliasRequest,
      dev.runsvc.v1.GetAliasResponse> getGetAliasMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.GetAliasRequest, dev.runsvc.v1.GetAliasResponse> getGetAliasMethod;
    if ((getGetAliasMethod = AliasServiceGrpc.getGetAliasMethod) == null) {
      synchronized (AliasServiceGrpc.class) {
        if ((getGetAliasMethod = AliasServiceGrpc.getGetAliasMethod) == null) {
          AliasServiceGrpc.getGetAliasMethod = getGetAliasMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.GetAliasRequest, dev.runsvc.v1.GetAliasResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetAlias"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetAliasRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetAliasResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AliasServiceMethodDescriptorSupplier("GetAlias"))
              .build();
        }
      }
    }
    return getGetAliasMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ListAliasesRequest,
      dev.runsvc.v1.ListAliasesResponse> getListAliasesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListAliases",
      requestType = dev.runsvc.v1.ListAliasesRequest.class,
      responseType = dev.runsvc.v1.ListAliasesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ListAliasesRequest,
      dev.runsvc.v1.ListAliasesResponse> getListAliasesMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ListAliasesRequest, dev.runsvc.v1.ListAliasesResponse> getListAliasesMethod;
    if ((getListAliasesMethod = AliasServiceGrpc.getListAliasesMethod) == null) {
      synchronized (AliasServiceGrpc.class) {
        if ((getListAliasesMethod = AliasServiceGrpc.getListAliasesMethod) == null) {
          AliasServiceGrpc.getListAliasesMethod = getListAliasesMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ListAliasesRequest, dev.runsvc.v1.ListAliasesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListAliases"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListAliasesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListAliasesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AliasServiceMethodDescriptorSupplier("ListAliases"))
              .build();
        }
      }
    }
    return getListAliasesMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.DeleteAliasRequest,
      dev.runsvc.v1.DeleteAliasResponse> getDeleteAliasMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DeleteAlias",
      requestType = dev.runsvc.v1.DeleteAliasRequest.class,
      responseType = dev.runsvc.v1.DeleteAliasResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.DeleteAliasRequest,
      dev.runsvc.v1.DeleteAliasResponse> getDeleteAliasMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.DeleteAliasRequest, dev.runsvc.v1.DeleteAliasResponse> getDeleteAliasMethod;
    if ((getDeleteAliasMethod = AliasServiceGrpc.getDeleteAliasMethod) == null) {
      synchronized (AliasServiceGrpc.class) {
        if ((getDeleteAliasMethod = AliasServiceGrpc.getDeleteAliasMethod) == null) {
          AliasServiceGrpc.getDeleteAliasMethod = getDeleteAliasMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.DeleteAliasRequest, dev.runsvc.v1.DeleteAliasResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DeleteAlias"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.DeleteAliasRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.DeleteAliasResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AliasServiceMethodDescriptorSupplier("DeleteAlias"))
              .build();
        }
      }
    }
    return getDeleteAliasMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ListAliasHistoryRequest,
      dev.runsvc.v1.ListAliasHistoryResponse> getListAliasHistoryMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListAliasHistory",
      requestType = dev.runsvc.v1.ListAliasHistoryRequest.class,
      responseType = dev.runsvc.v1.ListAliasHistoryResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ListAliasHistoryRequest,
      dev.runsvc.v1.ListAliasHistoryResponse> getListAliasHistoryMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ListAliasHistoryRequest, dev.runsvc.v1.ListAliasHistoryResponse> getListAliasHistoryMethod;
    if ((getListAliasHistoryMethod = AliasServiceGrpc.getListAliasHistoryMethod) == null) {
      synchronized (AliasServiceGrpc.class) {
        if ((getListAliasHistoryMethod = AliasServiceGrpc.getListAliasHistoryMethod) == null) {
          AliasServiceGrpc.getListAliasHistoryMethod = getListAliasHistoryMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ListAliasHistoryRequest, dev.runsvc.v1.ListAliasHistoryResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListAliasHistory"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListAliasHistoryRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListAliasHistoryResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AliasServiceMethodDescriptorSupplier("ListAliasHistory"))
              .build();
        }
      }
    }
    return getListAliasHistoryMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.GetRolloutRequest,
      dev.runsvc.v1.GetRolloutResponse> getGetRolloutMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetRollout",
      requestType = dev.runsvc.v1.GetRolloutRequest.class,
      responseType = dev.runsvc.v1.GetRolloutResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.GetRolloutRequest,
      dev.runsvc.v1.GetRolloutResponse> getGetRolloutMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.GetRolloutRequest, dev.runsvc.v1.GetRolloutResponse> getGetRolloutMethod;
    if ((getGetRolloutMethod = AliasServiceGrpc.getGetRolloutMethod) == null) {
      synchronized (AliasServiceGrpc.class) {
        if ((getGetRolloutMethod = AliasServiceGrpc.getGetRolloutMethod) == null) {
          AliasServiceGrpc.getGetRolloutMethod = getGetRolloutMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.GetRolloutRequest, dev.runsvc.v1.GetRolloutResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetRollout"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetRolloutRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetRolloutResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AliasServiceMethodDescriptorSupplier("GetRollout"))
              .build();
        }
      }
    }
    return getGetRolloutMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static AliasServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AliasServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AliasServiceStub>() {
        @java.lang.Override
        public AliasServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AliasServiceStub(channel, callOptions);
        }
      };
    return AliasServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static AliasServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AliasServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AliasServiceBlockingStub>() {
        @java.lang.Override
        public AliasServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AliasServiceBlockingStub(channel, callOptions);
        }
      };
    return AliasServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static AliasServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AliasServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AliasServiceFutureStub>() {
        @java.lang.Override
        public AliasServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AliasServiceFutureStub(channel, callOptions);
        }
      };
    return AliasServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * AliasService names Spec Versions. An alias (`prod`, `canary`, any name
   * of lower case letters, digits, '-' and '_' starting with a letter) points
   * new Runs of `spec&#64;alias` at a Version, or, during a canary, splits them
   * by weight between two Versions. Moving an alias changes the Version of
   * new Runs only: a Run keeps the Version it started on. Moving or deleting
   * `prod` needs the publisher or admin role; any role that may call the
   * method may move the others.
   * </pre>
   */
  public static abstract class AliasServiceImplBase implements io.grpc.BindableService {

    /**
     * <pre>
     * MoveAlias points an alias at a Version (creating it when it does not
     * exist) and records the move: who, when, from, to. With
     * if_evaluation, the move happens only when that evaluation scored each
     * Version it names at least min_score; otherwise it fails with the
     * evaluation's reason. A bad name, weight or Version fails
     * INVALID_ARGUMENT / ALIAS_INVALID.
     * </pre>
     */
    public void moveAlias(dev.runsvc.v1.MoveAliasRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.MoveAliasResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getMoveAliasMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetAlias returns an alias with its latest moves, or NOT_FOUND /
     * ALIAS_NOT_FOUND.
     * </pre>
     */
    public void getAlias(dev.runsvc.v1.GetAliasRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetAliasResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetAliasMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListAliases lists a Spec's aliases by name, or every alias of the
     * caller's tenant when no Spec is given.
     * </pre>
     */
    public void listAliases(dev.runsvc.v1.ListAliasesRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListAliasesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListAliasesMethod(), responseObserver);
    }

    /**
     * <pre>
     * DeleteAlias deletes an alias, recording who did; Runs started on it
     * keep their Versions. NOT_FOUND / ALIAS_NOT_FOUND when there is none.
     * </pre>
     */
    public void deleteAlias(dev.runsvc.v1.DeleteAliasRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.DeleteAliasResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDeleteAliasMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListAliasHistory lists an alias's moves, newest first, including
     * those before it was deleted.
     * </pre>
     */
    public void listAliasHistory(dev.runsvc.v1.ListAliasHistoryRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListAliasHistoryResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListAliasHistoryMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetRollout compares the Versions an alias splits Runs between, from
     * the newest Runs of the Spec in the store: per Version, how many Runs,
     * how they ended and why, tokens, cost and latency.
     * </pre>
     */
    public void getRollout(dev.runsvc.v1.GetRolloutRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetRolloutResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetRolloutMethod(), responseObserver);
    }

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
          .addMethod(
            getMoveAliasMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.MoveAliasRequest,
                dev.runsvc.v1.MoveAliasResponse>(
                  this, METHODID_MOVE_ALIAS)))
          .addMethod(
            getGetAliasMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.GetAliasRequest,
                dev.runsvc.v1.GetAliasResponse>(
                  this, METHODID_GET_ALIAS)))
          .addMethod(
            getListAliasesMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.ListAliasesRequest,
                dev.runsvc.v1.ListAliasesResponse>(
                  this, METHODID_LIST_ALIASES)))
          .addMethod(
            getDeleteAliasMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.DeleteAliasRequest,
                dev.runsvc.v1.DeleteAliasResponse>(
                  this, METHODID_DELETE_ALIAS)))
          .addMethod(
            getListAliasHistoryMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.ListAliasHistoryRequest,
                dev.runsvc.v1.ListAliasHistoryResponse>(
                  this, METHODID_LIST_ALIAS_HISTORY)))
          .addMethod(
            getGetRolloutMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.GetRolloutRequest,
                dev.runsvc.v1.GetRolloutResponse>(
                  this, METHODID_GET_ROLLOUT)))
          .build();
    }
  }

  /**
   * <pre>
   * AliasService names Spec Versions. An alias (`prod`, `canary`, any name
   * of lower case letters, digits, '-' and '_' starting with a letter) points
   * new Runs of `spec&#64;alias` at a Version, or, during a canary, splits them
   * by weight between two Versions. Moving an alias changes the Version of
   * new Runs only: a Run keeps the Version it started on. Moving or deleting
   * `prod` needs the publisher or admin role; any role that may call the
   * method may move the others.
   * </pre>
   */
  public static final class AliasServiceStub extends io.grpc.stub.AbstractAsyncStub<AliasServiceStub> {
    private AliasServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AliasServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AliasServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * MoveAlias points an alias at a Version (creating it when it does not
     * exist) and records the move: who, when, from, to. With
     * if_evaluation, the move happens only when that evaluation scored each
     * Version it names at least min_score; otherwise it fails with the
     * evaluation's reason. A bad name, weight or Version fails
     * INVALID_ARGUMENT / ALIAS_INVALID.
     * </pre>
     */
    public void moveAlias(dev.runsvc.v1.MoveAliasRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.MoveAliasResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getMoveAliasMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetAlias returns an alias with its latest moves, or NOT_FOUND /
     * ALIAS_NOT_FOUND.
     * </pre>
     */
    public void getAlias(dev.runsvc.v1.GetAliasRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetAliasResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetAliasMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListAliases lists a Spec's aliases by name, or every alias of the
     * caller's tenant when no Spec is given.
     * </pre>
     */
    public void listAliases(dev.runsvc.v1.ListAliasesRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListAliasesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListAliasesMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * DeleteAlias deletes an alias, recording who did; Runs started on it
     * keep their Versions. NOT_FOUND / ALIAS_NOT_FOUND when there is none.
     * </pre>
     */
    public void deleteAlias(dev.runsvc.v1.DeleteAliasRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.DeleteAliasResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDeleteAliasMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListAliasHistory lists an alias's moves, newest first, including
     * those before it was deleted.
     * </pre>
     */
    public void listAliasHistory(dev.runsvc.v1.ListAliasHistoryRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListAliasHistoryResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListAliasHistoryMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetRollout compares the Versions an alias splits Runs between, from
     * the newest Runs of the Spec in the store: per Version, how many Runs,
     * how they ended and why, tokens, cost and latency.
     * </pre>
     */
    public void getRollout(dev.runsvc.v1.GetRolloutRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetRolloutResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetRolloutMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * <pre>
   * AliasService names Spec Versions. An alias (`prod`, `canary`, any name
   * of lower case letters, digits, '-' and '_' starting with a letter) points
   * new Runs of `spec&#64;alias` at a Version, or, during a canary, splits them
   * by weight between two Versions. Moving an alias changes the Version of
   * new Runs only: a Run keeps the Version it started on. Moving or deleting
   * `prod` needs the publisher or admin role; any role that may call the
   * method may move the others.
   * </pre>
   */
  public static final class AliasServiceBlockingStub extends io.grpc.stub.AbstractBlockingStub<AliasServiceBlockingStub> {
    private AliasServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AliasServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AliasServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * MoveAlias points an alias at a Version (creating it when it does not
     * exist) and records the move: who, when, from, to. With
     * if_evaluation, the move happens only when that evaluation scored each
     * Version it names at least min_score; otherwise it fails with the
     * evaluation's reason. A bad name, weight or Version fails
     * INVALID_ARGUMENT / ALIAS_INVALID.
     * </pre>
     */
    public dev.runsvc.v1.MoveAliasResponse moveAlias(dev.runsvc.v1.MoveAliasRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getMoveAliasMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetAlias returns an alias with its latest moves, or NOT_FOUND /
     * ALIAS_NOT_FOUND.
     * </pre>
     */
    public dev.runsvc.v1.GetAliasResponse getAlias(dev.runsvc.v1.GetAliasRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetAliasMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListAliases lists a Spec's aliases by name, or every alias of the
     * caller's tenant when no Spec is given.
     * </pre>
     */
    public dev.runsvc.v1.ListAliasesResponse listAliases(dev.runsvc.v1.ListAliasesRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListAliasesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DeleteAlias deletes an alias, recording who did; Runs started on it
     * keep their Versions. NOT_FOUND / ALIAS_NOT_FOUND when there is none.
     * </pre>
     */
    public dev.runsvc.v1.DeleteAliasResponse deleteAlias(dev.runsvc.v1.DeleteAliasRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDeleteAliasMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListAliasHistory lists an alias's moves, newest first, including
     * those before it was deleted.
     * </pre>
     */
    public dev.runsvc.v1.ListAliasHistoryResponse listAliasHistory(dev.runsvc.v1.ListAliasHistoryRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListAliasHistoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetRollout compares the Versions an alias splits Runs between, from
     * the newest Runs of the Spec in the store: per Version, how many Runs,
     * how they ended and why, tokens, cost and latency.
     * </pre>
     */
    public dev.runsvc.v1.GetRolloutResponse getRollout(dev.runsvc.v1.GetRolloutRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetRolloutMethod(), getCallOptions(), request);
    }
  }

  /**
   * <pre>
   * AliasService names Spec Versions. An alias (`prod`, `canary`, any name
   * of lower case letters, digits, '-' and '_' starting with a letter) points
   * new Runs of `spec&#64;alias` at a Version, or, during a canary, splits them
   * by weight between two Versions. Moving an alias changes the Version of
   * new Runs only: a Run keeps the Version it started on. Moving or deleting
   * `prod` needs the publisher or admin role; any role that may call the
   * method may move the others.
   * </pre>
   */
  public static final class AliasServiceFutureStub extends io.grpc.stub.AbstractFutureStub<AliasServiceFutureStub> {
    private AliasServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AliasServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AliasServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * MoveAlias points an alias at a Version (creating it when it does not
     * exist) and records the move: who, when, from, to. With
     * if_evaluation, the move happens only when that evaluation scored each
     * Version it names at least min_score; otherwise it fails with the
     * evaluation's reason. A bad name, weight or Version fails
     * INVALID_ARGUMENT / ALIAS_INVALID.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.MoveAliasResponse> moveAlias(
        dev.runsvc.v1.MoveAliasRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getMoveAliasMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetAlias returns an alias with its latest moves, or NOT_FOUND /
     * ALIAS_NOT_FOUND.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.GetAliasResponse> getAlias(
        dev.runsvc.v1.GetAliasRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetAliasMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListAliases lists a Spec's aliases by name, or every alias of the
     * caller's tenant when no Spec is given.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.ListAliasesResponse> listAliases(
        dev.runsvc.v1.ListAliasesRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListAliasesMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * DeleteAlias deletes an alias, recording who did; Runs started on it
     * keep their Versions. NOT_FOUND / ALIAS_NOT_FOUND when there is none.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.DeleteAliasResponse> deleteAlias(
        dev.runsvc.v1.DeleteAliasRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDeleteAliasMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListAliasHistory lists an alias's moves, newest first, including
     * those before it was deleted.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.ListAliasHistoryResponse> listAliasHistory(
        dev.runsvc.v1.ListAliasHistoryRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListAliasHistoryMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetRollout compares the Versions an alias splits Runs between, from
     * the newest Runs of the Spec in the store: per Version, how many Runs,
     * how they ended and why, tokens, cost and latency.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.GetRolloutResponse> getRollout(
        dev.runsvc.v1.GetRolloutRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetRolloutMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_MOVE_ALIAS = 0;
  private static final int METHODID_GET_ALIAS = 1;
  private static final int METHODID_LIST_ALIASES = 2;
  private static final int METHODID_DELETE_ALIAS = 3;
  private static final int METHODID_LIST_ALIAS_HISTORY = 4;
  private static final int METHODID_GET_ROLLOUT = 5;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final AliasServiceImplBase serviceImpl;
    private final int methodId;

    MethodHandlers(AliasServiceImplBase serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_MOVE_ALIAS:
          serviceImpl.moveAlias((dev.runsvc.v1.MoveAliasRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.MoveAliasResponse>) responseObserver);
          break;
        case METHODID_GET_ALIAS:
          serviceImpl.getAlias((dev.runsvc.v1.GetAliasRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.GetAliasResponse>) responseObserver);
          break;
        case METHODID_LIST_ALIASES:
          serviceImpl.listAliases((dev.runsvc.v1.ListAliasesRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ListAliasesResponse>) responseObserver);
          break;
        case METHODID_DELETE_ALIAS:
          serviceImpl.deleteAlias((dev.runsvc.v1.DeleteAliasRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.DeleteAliasResponse>) responseObserver);
          break;
        case METHODID_LIST_ALIAS_HISTORY:
          serviceImpl.listAliasHistory((dev.runsvc.v1.ListAliasHistoryRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ListAliasHistoryResponse>) responseObserver);
          break;
        case METHODID_GET_ROLLOUT:
          serviceImpl.getRollout((dev.runsvc.v1.GetRolloutRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.GetRolloutResponse>) responseObserver);
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

  private static abstract class AliasServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    AliasServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.runsvc.v1.AliasProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("AliasService");
    }
  }

  private static final class AliasServiceFileDescriptorSupplier
      extends AliasServiceBaseDescriptorSupplier {
    AliasServiceFileDescriptorSupplier() {}
  }

  private static final class AliasServiceMethodDescriptorSupplier
      extends AliasServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final String methodName;

    AliasServiceMethodDescriptorSupplier(String methodName) {
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
      synchronized (AliasServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new AliasServiceFileDescriptorSupplier())
              .addMethod(getMoveAliasMethod())
              .addMethod(getGetAliasMethod())
              .addMethod(getListAliasesMethod())
              .addMethod(getDeleteAliasMethod())
              .addMethod(getListAliasHistoryMethod())
              .addMethod(getGetRolloutMethod())
              .build();
        }
      }
    }
    return result;
  }
}
