package dev.runsvc.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * EvaluationService tests a candidate Spec Version against recorded
 * traffic before it takes any: each recorded, settled Run chosen is
 * replayed on the candidate as a sandboxed Run. The model is called for
 * real; each tool call the candidate makes is answered from the recording
 * when it matches a recorded call (same tool, equal arguments as canonical
 * JSON; each recorded call answers at most one replayed call, the first
 * unused one in recorded order), and is fenced otherwise: never made,
 * answered with a tool error the model sees and counted as a divergence,
 * unless its tool is declared `pure`. A client tool, a question or an
 * approval that the recording cannot answer ends the replay as "needs a
 * person". Replays are ordinary durable Runs (GetRun and WatchRun show
 * them) in the evaluation's namespace: ListRuns never lists them and
 * DeleteEvaluation deletes them.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class EvaluationServiceGrpc {

  private EvaluationServiceGrpc() {}

  public static final String SERVICE_NAME = "runsvc.v1.EvaluationService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.EvaluateVersionRequest,
      dev.runsvc.v1.EvaluateVersionResponse> getEvaluateVersionMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "EvaluateVersion",
      requestType = dev.runsvc.v1.EvaluateVersionRequest.class,
      responseType = dev.runsvc.v1.EvaluateVersionResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.EvaluateVersionRequest,
      dev.runsvc.v1.EvaluateVersionResponse> getEvaluateVersionMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.EvaluateVersionRequest, dev.runsvc.v1.EvaluateVersionResponse> getEvaluateVersionMethod;
    if ((getEvaluateVersionMethod = EvaluationServiceGrpc.getEvaluateVersionMethod) == null) {
      synchronized (EvaluationServiceGrpc.class) {
        if ((getEvaluateVersionMethod = EvaluationServiceGrpc.getEvaluateVersionMethod) == null) {
          EvaluationServiceGrpc.getEvaluateVersionMethod = getEvaluateVersionMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.EvaluateVersionRequest, dev.runsvc.v1.EvaluateVersionResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "EvaluateVersion"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.EvaluateVersionRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.EvaluateVersionResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EvaluationServiceMethodDescriptorSupplier("EvaluateVersion"))
              .build();
        }
      }
    }
    return getEvaluateVersionMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.GetEvaluationRequest,
      dev.runsvc.v1.GetEvaluationResponse> getGetEvaluationMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetEvaluation",
      requestType = dev.runsvc.v1.GetEvaluationRequest.class,
      responseType = dev.runsvc.v1.GetEvaluationResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.GetEvaluationRequest,
      dev.runsvc.v1.GetEvaluationResponse> getGetEvaluationMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.GetEvaluationRequest, dev.runsvc.v1.GetEvaluationResponse> getGetEvaluationMethod;
    if ((getGetEvaluationMethod = EvaluationServiceGrpc.getGetEvaluationMethod) == null) {
      synchronized (EvaluationServiceGrpc.class) {
        if ((getGetEvaluationMethod = EvaluationServiceGrpc.getGetEvaluationMethod) == null) {
          EvaluationServiceGrpc.getGetEvaluationMethod = getGetEvaluationMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.GetEvaluationRequest, dev.runsvc.v1.GetEvaluationResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetEvaluation"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetEvaluationRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetEvaluationResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EvaluationServiceMethodDescriptorSupplier("GetEvaluation"))
              .build();
        }
      }
    }
    return getGetEvaluationMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ListEvaluationsRequest,
      dev.runsvc.v1.ListEvaluationsResponse> getListEvaluationsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListEvaluations",
      requestType = dev.runsvc.v1.ListEvaluationsRequest.class,
      responseType = dev.runsvc.v1.ListEvaluationsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ListEvaluationsRequest,
      dev.runsvc.v1.ListEvaluationsResponse> getListEvaluationsMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ListEvaluationsRequest, dev.runsvc.v1.ListEvaluationsResponse> getListEvaluationsMethod;
    if ((getListEvaluationsMethod = EvaluationServiceGrpc.getListEvaluationsMethod) == null) {
      synchronized (EvaluationServiceGrpc.class) {
        if ((getListEvaluationsMethod = EvaluationServiceGrpc.getListEvaluationsMethod) == null) {
          EvaluationServiceGrpc.getListEvaluationsMethod = getListEvaluationsMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ListEvaluationsRequest, dev.runsvc.v1.ListEvaluationsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListEvaluations"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListEvaluationsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListEvaluationsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EvaluationServiceMethodDescriptorSupplier("ListEvaluations"))
              .build();
        }
      }
    }
    return getListEvaluationsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.CheckEvaluationRequest,
      dev.runsvc.v1.CheckEvaluationResponse> getCheckEvaluationMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CheckEvaluation",
      requestType = dev.runsvc.v1.CheckEvaluationRequest.class,
      responseType = dev.runsvc.v1.CheckEvaluationResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.CheckEvaluationRequest,
      dev.runsvc.v1.CheckEvaluationResponse> getCheckEvaluationMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.CheckEvaluationRequest, dev.runsvc.v1.CheckEvaluationResponse> getCheckEvaluationMethod;
    if ((getCheckEvaluationMethod = EvaluationServiceGrpc.getCheckEvaluationMethod) == null) {
      synchronized (EvaluationServiceGrpc.class) {
        if ((getCheckEvaluationMethod = EvaluationServiceGrpc.getCheckEvaluationMethod) == null) {
          EvaluationServiceGrpc.getCheckEvaluationMethod = getCheckEvaluationMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.CheckEvaluationRequest, dev.runsvc.v1.CheckEvaluationResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CheckEvaluation"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.CheckEvaluationRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.CheckEvaluationResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EvaluationServiceMethodDescriptorSupplier("CheckEvaluation"))
              .build();
        }
      }
    }
    return getCheckEvaluationMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.DeleteEvaluationRequest,
      dev.runsvc.v1.DeleteEvaluationResponse> getDeleteEvaluationMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DeleteEvaluation",
      requestType = dev.runsvc.v1.DeleteEvaluationRequest.class,
      responseType = dev.runsvc.v1.DeleteEvaluationResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.DeleteEvaluationRequest,
      dev.runsvc.v1.DeleteEvaluationResponse> getDeleteEvaluationMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.DeleteEvaluationRequest, dev.runsvc.v1.DeleteEvaluationResponse> getDeleteEvaluationMethod;
    if ((getDeleteEvaluationMethod = EvaluationServiceGrpc.getDeleteEvaluationMethod) == null) {
      synchronized (EvaluationServiceGrpc.class) {
        if ((getDeleteEvaluationMethod = EvaluationServiceGrpc.getDeleteEvaluationMethod) == null) {
          EvaluationServiceGrpc.getDeleteEvaluationMethod = getDeleteEvaluationMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.DeleteEvaluationRequest, dev.runsvc.v1.DeleteEvaluationResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DeleteEvaluation"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.DeleteEvaluationRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.DeleteEvaluationResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EvaluationServiceMethodDescriptorSupplier("DeleteEvaluation"))
              .build();
        }
      }
    }
    return getDeleteEvaluationMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static EvaluationServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<EvaluationServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<EvaluationServiceStub>() {
        @java.lang.Override
        public EvaluationServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new EvaluationServiceStub(channel, callOptions);
        }
      };
    return EvaluationServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static EvaluationServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<EvaluationServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<EvaluationServiceBlockingStub>() {
        @java.lang.Override
        public EvaluationServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new EvaluationServiceBlockingStub(channel, callOptions);
        }
      };
    return EvaluationServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static EvaluationServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<EvaluationServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<EvaluationServiceFutureStub>() {
        @java.lang.Override
        public EvaluationServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new EvaluationServiceFutureStub(channel, callOptions);
        }
      };
    return EvaluationServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * EvaluationService tests a candidate Spec Version against recorded
   * traffic before it takes any: each recorded, settled Run chosen is
   * replayed on the candidate as a sandboxed Run. The model is called for
   * real; each tool call the candidate makes is answered from the recording
   * when it matches a recorded call (same tool, equal arguments as canonical
   * JSON; each recorded call answers at most one replayed call, the first
   * unused one in recorded order), and is fenced otherwise: never made,
   * answered with a tool error the model sees and counted as a divergence,
   * unless its tool is declared `pure`. A client tool, a question or an
   * approval that the recording cannot answer ends the replay as "needs a
   * person". Replays are ordinary durable Runs (GetRun and WatchRun show
   * them) in the evaluation's namespace: ListRuns never lists them and
   * DeleteEvaluation deletes them.
   * </pre>
   */
  public static abstract class EvaluationServiceImplBase implements io.grpc.BindableService {

    /**
     * <pre>
     * EvaluateVersion starts an evaluation: one replay Run per recorded Run
     * selected. A bad request fails INVALID_ARGUMENT / EVALUATION_INVALID.
     * </pre>
     */
    public void evaluateVersion(dev.runsvc.v1.EvaluateVersionRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.EvaluateVersionResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getEvaluateVersionMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetEvaluation returns an evaluation with its report as the replays
     * stand now, or NOT_FOUND / EVALUATION_NOT_FOUND.
     * </pre>
     */
    public void getEvaluation(dev.runsvc.v1.GetEvaluationRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetEvaluationResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetEvaluationMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListEvaluations lists the caller's evaluations, newest first, without
     * their per-Run reports.
     * </pre>
     */
    public void listEvaluations(dev.runsvc.v1.ListEvaluationsRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListEvaluationsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListEvaluationsMethod(), responseObserver);
    }

    /**
     * <pre>
     * CheckEvaluation is the gate an alias move applies, asked on its own
     * (a CI step before a rollout): it answers when the evaluation evaluated
     * this Version, every replay settled and its score is at least
     * `min_score`, and fails FAILED_PRECONDITION / EVALUATION_GATE_FAILED
     * otherwise, naming in its details the recorded Runs whose replays
     * scored below it (at most 7, so that the status stays small;
     * `moreFailingRuns` counts the rest).
     * </pre>
     */
    public void checkEvaluation(dev.runsvc.v1.CheckEvaluationRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.CheckEvaluationResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCheckEvaluationMethod(), responseObserver);
    }

    /**
     * <pre>
     * DeleteEvaluation deletes an evaluation with its replay Runs (an
     * active replay is interrupted first).
     * </pre>
     */
    public void deleteEvaluation(dev.runsvc.v1.DeleteEvaluationRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.DeleteEvaluationResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDeleteEvaluationMethod(), responseObserver);
    }

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
          .addMethod(
            getEvaluateVersionMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.EvaluateVersionRequest,
                dev.runsvc.v1.EvaluateVersionResponse>(
                  this, METHODID_EVALUATE_VERSION)))
          .addMethod(
            getGetEvaluationMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.GetEvaluationRequest,
                dev.runsvc.v1.GetEvaluationResponse>(
                  this, METHODID_GET_EVALUATION)))
          .addMethod(
            getListEvaluationsMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.ListEvaluationsRequest,
                dev.runsvc.v1.ListEvaluationsResponse>(
                  this, METHODID_LIST_EVALUATIONS)))
          .addMethod(
            getCheckEvaluationMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.CheckEvaluationRequest,
                dev.runsvc.v1.CheckEvaluationResponse>(
                  this, METHODID_CHECK_EVALUATION)))
          .addMethod(
            getDeleteEvaluationMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.DeleteEvaluationRequest,
                dev.runsvc.v1.DeleteEvaluationResponse>(
                  this, METHODID_DELETE_EVALUATION)))
          .build();
    }
  }

  /**
   * <pre>
   * EvaluationService tests a candidate Spec Version against recorded
   * traffic before it takes any: each recorded, settled Run chosen is
   * replayed on the candidate as a sandboxed Run. The model is called for
   * real; each tool call the candidate makes is answered from the recording
   * when it matches a recorded call (same tool, equal arguments as canonical
   * JSON; each recorded call answers at most one replayed call, the first
   * unused one in recorded order), and is fenced otherwise: never made,
   * answered with a tool error the model sees and counted as a divergence,
   * unless its tool is declared `pure`. A client tool, a question or an
   * approval that the recording cannot answer ends the replay as "needs a
   * person". Replays are ordinary durable Runs (GetRun and WatchRun show
   * them) in the evaluation's namespace: ListRuns never lists them and
   * DeleteEvaluation deletes them.
   * </pre>
   */
  public static final class EvaluationServiceStub extends io.grpc.stub.AbstractAsyncStub<EvaluationServiceStub> {
    private EvaluationServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected EvaluationServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new EvaluationServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * EvaluateVersion starts an evaluation: one replay Run per recorded Run
     * selected. A bad request fails INVALID_ARGUMENT / EVALUATION_INVALID.
     * </pre>
     */
    public void evaluateVersion(dev.runsvc.v1.EvaluateVersionRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.EvaluateVersionResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getEvaluateVersionMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetEvaluation returns an evaluation with its report as the replays
     * stand now, or NOT_FOUND / EVALUATION_NOT_FOUND.
     * </pre>
     */
    public void getEvaluation(dev.runsvc.v1.GetEvaluationRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetEvaluationResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetEvaluationMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListEvaluations lists the caller's evaluations, newest first, without
     * their per-Run reports.
     * </pre>
     */
    public void listEvaluations(dev.runsvc.v1.ListEvaluationsRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListEvaluationsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListEvaluationsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * CheckEvaluation is the gate an alias move applies, asked on its own
     * (a CI step before a rollout): it answers when the evaluation evaluated
     * this Version, every replay settled and its score is at least
     * `min_score`, and fails FAILED_PRECONDITION / EVALUATION_GATE_FAILED
     * otherwise, naming in its details the recorded Runs whose replays
     * scored below it (at most 7, so that the status stays small;
     * `moreFailingRuns` counts the rest).
     * </pre>
     */
    public void checkEvaluation(dev.runsvc.v1.CheckEvaluationRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.CheckEvaluationResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCheckEvaluationMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * DeleteEvaluation deletes an evaluation with its replay Runs (an
     * active replay is interrupted first).
     * </pre>
     */
    public void deleteEvaluation(dev.runsvc.v1.DeleteEvaluationRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.DeleteEvaluationResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDeleteEvaluationMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * <pre>
   * EvaluationService tests a candidate Spec Version against recorded
   * traffic before it takes any: each recorded, settled Run chosen is
   * replayed on the candidate as a sandboxed Run. The model is called for
   * real; each tool call the candidate makes is answered from the recording
   * when it matches a recorded call (same tool, equal arguments as canonical
   * JSON; each recorded call answers at most one replayed call, the first
   * unused one in recorded order), and is fenced otherwise: never made,
   * answered with a tool error the model sees and counted as a divergence,
   * unless its tool is declared `pure`. A client tool, a question or an
   * approval that the recording cannot answer ends the replay as "needs a
   * person". Replays are ordinary durable Runs (GetRun and WatchRun show
   * them) in the evaluation's namespace: ListRuns never lists them and
   * DeleteEvaluation deletes them.
   * </pre>
   */
  public static final class EvaluationServiceBlockingStub extends io.grpc.stub.AbstractBlockingStub<EvaluationServiceBlockingStub> {
    private EvaluationServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected EvaluationServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new EvaluationServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * EvaluateVersion starts an evaluation: one replay Run per recorded Run
     * selected. A bad request fails INVALID_ARGUMENT / EVALUATION_INVALID.
     * </pre>
     */
    public dev.runsvc.v1.EvaluateVersionResponse evaluateVersion(dev.runsvc.v1.EvaluateVersionRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getEvaluateVersionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetEvaluation returns an evaluation with its report as the replays
     * stand now, or NOT_FOUND / EVALUATION_NOT_FOUND.
     * </pre>
     */
    public dev.runsvc.v1.GetEvaluationResponse getEvaluation(dev.runsvc.v1.GetEvaluationRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetEvaluationMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListEvaluations lists the caller's evaluations, newest first, without
     * their per-Run reports.
     * </pre>
     */
    public dev.runsvc.v1.ListEvaluationsResponse listEvaluations(dev.runsvc.v1.ListEvaluationsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListEvaluationsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * CheckEvaluation is the gate an alias move applies, asked on its own
     * (a CI step before a rollout): it answers when the evaluation evaluated
     * this Version, every replay settled and its score is at least
     * `min_score`, and fails FAILED_PRECONDITION / EVALUATION_GATE_FAILED
     * otherwise, naming in its details the recorded Runs whose replays
     * scored below it (at most 7, so that the status stays small;
     * `moreFailingRuns` counts the rest).
     * </pre>
     */
    public dev.runsvc.v1.CheckEvaluationResponse checkEvaluation(dev.runsvc.v1.CheckEvaluationRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCheckEvaluationMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DeleteEvaluation deletes an evaluation with its replay Runs (an
     * active replay is interrupted first).
     * </pre>
     */
    public dev.runsvc.v1.DeleteEvaluationResponse deleteEvaluation(dev.runsvc.v1.DeleteEvaluationRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDeleteEvaluationMethod(), getCallOptions(), request);
    }
  }

  /**
   * <pre>
   * EvaluationService tests a candidate Spec Version against recorded
   * traffic before it takes any: each recorded, settled Run chosen is
   * replayed on the candidate as a sandboxed Run. The model is called for
   * real; each tool call the candidate makes is answered from the recording
   * when it matches a recorded call (same tool, equal arguments as canonical
   * JSON; each recorded call answers at most one replayed call, the first
   * unused one in recorded order), and is fenced otherwise: never made,
   * answered with a tool error the model sees and counted as a divergence,
   * unless its tool is declared `pure`. A client tool, a question or an
   * approval that the recording cannot answer ends the replay as "needs a
   * person". Replays are ordinary durable Runs (GetRun and WatchRun show
   * them) in the evaluation's namespace: ListRuns never lists them and
   * DeleteEvaluation deletes them.
   * </pre>
   */
  public static final class EvaluationServiceFutureStub extends io.grpc.stub.AbstractFutureStub<EvaluationServiceFutureStub> {
    private EvaluationServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected EvaluationServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new EvaluationServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * EvaluateVersion starts an evaluation: one replay Run per recorded Run
     * selected. A bad request fails INVALID_ARGUMENT / EVALUATION_INVALID.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.EvaluateVersionResponse> evaluateVersion(
        dev.runsvc.v1.EvaluateVersionRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getEvaluateVersionMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetEvaluation returns an evaluation with its report as the replays
     * stand now, or NOT_FOUND / EVALUATION_NOT_FOUND.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.GetEvaluationResponse> getEvaluation(
        dev.runsvc.v1.GetEvaluationRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetEvaluationMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListEvaluations lists the caller's evaluations, newest first, without
     * their per-Run reports.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.ListEvaluationsResponse> listEvaluations(
        dev.runsvc.v1.ListEvaluationsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListEvaluationsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * CheckEvaluation is the gate an alias move applies, asked on its own
     * (a CI step before a rollout): it answers when the evaluation evaluated
     * this Version, every replay settled and its score is at least
     * `min_score`, and fails FAILED_PRECONDITION / EVALUATION_GATE_FAILED
     * otherwise, naming in its details the recorded Runs whose replays
     * scored below it (at most 7, so that the status stays small;
     * `moreFailingRuns` counts the rest).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.CheckEvaluationResponse> checkEvaluation(
        dev.runsvc.v1.CheckEvaluationRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCheckEvaluationMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * DeleteEvaluation deletes an evaluation with its replay Runs (an
     * active replay is interrupted first).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.DeleteEvaluationResponse> deleteEvaluation(
        dev.runsvc.v1.DeleteEvaluationRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDeleteEvaluationMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_EVALUATE_VERSION = 0;
  private static final int METHODID_GET_EVALUATION = 1;
  private static final int METHODID_LIST_EVALUATIONS = 2;
  private static final int METHODID_CHECK_EVALUATION = 3;
  private static final int METHODID_DELETE_EVALUATION = 4;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final EvaluationServiceImplBase serviceImpl;
    private final int methodId;

    MethodHandlers(EvaluationServiceImplBase serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_EVALUATE_VERSION:
          serviceImpl.evaluateVersion((dev.runsvc.v1.EvaluateVersionRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.EvaluateVersionResponse>) responseObserver);
          break;
        case METHODID_GET_EVALUATION:
          serviceImpl.getEvaluation((dev.runsvc.v1.GetEvaluationRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.GetEvaluationResponse>) responseObserver);
          break;
        case METHODID_LIST_EVALUATIONS:
          serviceImpl.listEvaluations((dev.runsvc.v1.ListEvaluationsRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ListEvaluationsResponse>) responseObserver);
          break;
        case METHODID_CHECK_EVALUATION:
          serviceImpl.checkEvaluation((dev.runsvc.v1.CheckEvaluationRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.CheckEvaluationResponse>) responseObserver);
          break;
        case METHODID_DELETE_EVALUATION:
          serviceImpl.deleteEvaluation((dev.runsvc.v1.DeleteEvaluationRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.DeleteEvaluationResponse>) responseObserver);
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

  private static abstract class EvaluationServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    EvaluationServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.runsvc.v1.EvaluationProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("EvaluationService");
    }
  }

  private static final class EvaluationServiceFileDescriptorSupplier
      extends EvaluationServiceBaseDescriptorSupplier {
    EvaluationServiceFileDescriptorSupplier() {}
  }

  private static final class EvaluationServiceMethodDescriptorSupplier
      extends EvaluationServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final String methodName;

    EvaluationServiceMethodDescriptorSupplier(String methodName) {
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
      synchronized (EvaluationServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new EvaluationServiceFileDescriptorSupplier())
              .addMethod(getEvaluateVersionMethod())
              .addMethod(getGetEvaluationMethod())
              .addMethod(getListEvaluationsMethod())
              .addMethod(getCheckEvaluationMethod())
              .addMethod(getDeleteEvaluationMethod())
              .build();
        }
      }
    }
    return result;
  }
}
