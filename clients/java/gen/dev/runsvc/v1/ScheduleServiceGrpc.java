package dev.runsvc.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * ScheduleService starts Runs on a schedule: a cron expression in a time
 * zone, an interval, or one time. Every replica fires due ticks; a tick
 * starts at most one Run however many replicas fire it and however often
 * they restart (the tick is the Run's request id,
 * "schedule/&lt;id&gt;/&lt;tick unix seconds&gt;"), and its outcome is recorded once.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class ScheduleServiceGrpc {

  private ScheduleServiceGrpc() {}

  public static final String SERVICE_NAME = "runsvc.v1.ScheduleService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.CreateScheduleRequest,
      dev.runsvc.v1.CreateScheduleResponse> getCreateScheduleMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CreateSchedule",
      requestType = dev.runsvc.v1.CreateScheduleRequest.class,
      responseType = dev.runsvc.v1.CreateScheduleResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.CreateScheduleRequest,
      dev.runsvc.v1.CreateScheduleResponse> getCreateScheduleMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.CreateScheduleRequest, dev.runsvc.v1.CreateScheduleResponse> getCreateScheduleMethod;
    if ((getCreateScheduleMethod = ScheduleServiceGrpc.getCreateScheduleMethod) == null) {
      synchronized (ScheduleServiceGrpc.class) {
        if ((getCreateScheduleMethod = ScheduleServiceGrpc.getCreateScheduleMethod) == null) {
          ScheduleServiceGrpc.getCreateScheduleMethod = getCreateScheduleMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.CreateScheduleRequest, dev.runsvc.v1.CreateScheduleResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CreateSchedule"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.CreateScheduleRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.CreateScheduleResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ScheduleServiceMethodDescriptorSupplier("CreateSchedule"))
              .build();
        }
      }
    }
    return getCreateScheduleMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.GetScheduleRequest,
      dev.runsvc.v1.GetScheduleResponse> getGetScheduleMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetSchedule",
      requestType = dev.runsvc.v1.GetScheduleRequest.class,
      responseType = dev.runsvc.v1.GetScheduleResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.GetScheduleRequest,
      dev.runsvc.v1.GetScheduleResponse> getGetScheduleMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.GetScheduleRequest, dev.runsvc.v1.GetScheduleResponse> getGetScheduleMethod;
    if ((getGetScheduleMethod = ScheduleServiceGrpc.getGetScheduleMethod) == null) {
      synchronized (ScheduleServiceGrpc.class) {
        if ((getGetScheduleMethod = ScheduleServiceGrpc.getGetScheduleMethod) == null) {
          ScheduleServiceGrpc.getGetScheduleMethod = getGetScheduleMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.GetScheduleRequest, dev.runsvc.v1.GetScheduleResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetSchedule"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetScheduleRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetScheduleResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ScheduleServiceMethodDescriptorSupplier("GetSchedule"))
              .build();
        }
      }
    }
    return getGetScheduleMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ListSchedulesRequest,
      dev.runsvc.v1.ListSchedulesResponse> getListSchedulesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListSchedules",
      requestType = dev.runsvc.v1.ListSchedulesRequest.class,
      responseType = dev.runsvc.v1.ListSchedulesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ListSchedulesRequest,
      dev.runsvc.v1.ListSchedulesResponse> getListSchedulesMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ListSchedulesRequest, dev.runsvc.v1.ListSchedulesResponse> getListSchedulesMethod;
    if ((getListSchedulesMethod = ScheduleServiceGrpc.getListSchedulesMethod) == null) {
      synchronized (ScheduleServiceGrpc.class) {
        if ((getListSchedulesMethod = ScheduleServiceGrpc.getListSchedulesMethod) == null) {
          ScheduleServiceGrpc.getListSchedulesMethod = getListSchedulesMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ListSchedulesRequest, dev.runsvc.v1.ListSchedulesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListSchedules"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListSchedulesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListSchedulesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ScheduleServiceMethodDescriptorSupplier("ListSchedules"))
              .build();
        }
      }
    }
    return getListSchedulesMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.PauseScheduleRequest,
      dev.runsvc.v1.PauseScheduleResponse> getPauseScheduleMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "PauseSchedule",
      requestType = dev.runsvc.v1.PauseScheduleRequest.class,
      responseType = dev.runsvc.v1.PauseScheduleResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.PauseScheduleRequest,
      dev.runsvc.v1.PauseScheduleResponse> getPauseScheduleMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.PauseScheduleRequest, dev.runsvc.v1.PauseScheduleResponse> getPauseScheduleMethod;
    if ((getPauseScheduleMethod = ScheduleServiceGrpc.getPauseScheduleMethod) == null) {
      synchronized (ScheduleServiceGrpc.class) {
        if ((getPauseScheduleMethod = ScheduleServiceGrpc.getPauseScheduleMethod) == null) {
          ScheduleServiceGrpc.getPauseScheduleMethod = getPauseScheduleMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.PauseScheduleRequest, dev.runsvc.v1.PauseScheduleResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "PauseSchedule"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.PauseScheduleRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.PauseScheduleResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ScheduleServiceMethodDescriptorSupplier("PauseSchedule"))
              .build();
        }
      }
    }
    return getPauseScheduleMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ResumeScheduleRequest,
      dev.runsvc.v1.ResumeScheduleResponse> getResumeScheduleMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ResumeSchedule",
      requestType = dev.runsvc.v1.ResumeScheduleRequest.class,
      responseType = dev.runsvc.v1.ResumeScheduleResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ResumeScheduleRequest,
      dev.runsvc.v1.ResumeScheduleResponse> getResumeScheduleMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ResumeScheduleRequest, dev.runsvc.v1.ResumeScheduleResponse> getResumeScheduleMethod;
    if ((getResumeScheduleMethod = ScheduleServiceGrpc.getResumeScheduleMethod) == null) {
      synchronized (ScheduleServiceGrpc.class) {
        if ((getResumeScheduleMethod = ScheduleServiceGrpc.getResumeScheduleMethod) == null) {
          ScheduleServiceGrpc.getResumeScheduleMethod = getResumeScheduleMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ResumeScheduleRequest, dev.runsvc.v1.ResumeScheduleResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ResumeSchedule"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ResumeScheduleRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ResumeScheduleResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ScheduleServiceMethodDescriptorSupplier("ResumeSchedule"))
              .build();
        }
      }
    }
    return getResumeScheduleMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.DeleteScheduleRequest,
      dev.runsvc.v1.DeleteScheduleResponse> getDeleteScheduleMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DeleteSchedule",
      requestType = dev.runsvc.v1.DeleteScheduleRequest.class,
      responseType = dev.runsvc.v1.DeleteScheduleResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.DeleteScheduleRequest,
      dev.runsvc.v1.DeleteScheduleResponse> getDeleteScheduleMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.DeleteScheduleRequest, dev.runsvc.v1.DeleteScheduleResponse> getDeleteScheduleMethod;
    if ((getDeleteScheduleMethod = ScheduleServiceGrpc.getDeleteScheduleMethod) == null) {
      synchronized (ScheduleServiceGrpc.class) {
        if ((getDeleteScheduleMethod = ScheduleServiceGrpc.getDeleteScheduleMethod) == null) {
          ScheduleServiceGrpc.getDeleteScheduleMethod = getDeleteScheduleMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.DeleteScheduleRequest, dev.runsvc.v1.DeleteScheduleResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DeleteSchedule"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.DeleteScheduleRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.DeleteScheduleResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ScheduleServiceMethodDescriptorSupplier("DeleteSchedule"))
              .build();
        }
      }
    }
    return getDeleteScheduleMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.TriggerScheduleRequest,
      dev.runsvc.v1.TriggerScheduleResponse> getTriggerScheduleMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "TriggerSchedule",
      requestType = dev.runsvc.v1.TriggerScheduleRequest.class,
      responseType = dev.runsvc.v1.TriggerScheduleResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.TriggerScheduleRequest,
      dev.runsvc.v1.TriggerScheduleResponse> getTriggerScheduleMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.TriggerScheduleRequest, dev.runsvc.v1.TriggerScheduleResponse> getTriggerScheduleMethod;
    if ((getTriggerScheduleMethod = ScheduleServiceGrpc.getTriggerScheduleMethod) == null) {
      synchronized (ScheduleServiceGrpc.class) {
        if ((getTriggerScheduleMethod = ScheduleServiceGrpc.getTriggerScheduleMethod) == null) {
          ScheduleServiceGrpc.getTriggerScheduleMethod = getTriggerScheduleMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.TriggerScheduleRequest, dev.runsvc.v1.TriggerScheduleResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "TriggerSchedule"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.TriggerScheduleRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.TriggerScheduleResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ScheduleServiceMethodDescriptorSupplier("TriggerSchedule"))
              .build();
        }
      }
    }
    return getTriggerScheduleMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static ScheduleServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ScheduleServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ScheduleServiceStub>() {
        @java.lang.Override
        public ScheduleServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ScheduleServiceStub(channel, callOptions);
        }
      };
    return ScheduleServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static ScheduleServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ScheduleServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ScheduleServiceBlockingStub>() {
        @java.lang.Override
        public ScheduleServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ScheduleServiceBlockingStub(channel, callOptions);
        }
      };
    return ScheduleServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static ScheduleServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ScheduleServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ScheduleServiceFutureStub>() {
        @java.lang.Override
        public ScheduleServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ScheduleServiceFutureStub(channel, callOptions);
        }
      };
    return ScheduleServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * ScheduleService starts Runs on a schedule: a cron expression in a time
   * zone, an interval, or one time. Every replica fires due ticks; a tick
   * starts at most one Run however many replicas fire it and however often
   * they restart (the tick is the Run's request id,
   * "schedule/&lt;id&gt;/&lt;tick unix seconds&gt;"), and its outcome is recorded once.
   * </pre>
   */
  public static abstract class ScheduleServiceImplBase implements io.grpc.BindableService {

    /**
     * <pre>
     * CreateSchedule creates a schedule. A bad definition fails
     * INVALID_ARGUMENT / SCHEDULE_INVALID naming the field; creating one
     * with the id of an existing one returns that one when the definitions
     * are the same (a retry) and fails SCHEDULE_INVALID when they differ.
     * </pre>
     */
    public void createSchedule(dev.runsvc.v1.CreateScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.CreateScheduleResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCreateScheduleMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetSchedule returns a schedule with its next ticks and the latest
     * outcomes, or NOT_FOUND / SCHEDULE_NOT_FOUND.
     * </pre>
     */
    public void getSchedule(dev.runsvc.v1.GetScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetScheduleResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetScheduleMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListSchedules lists the caller's schedules by id.
     * </pre>
     */
    public void listSchedules(dev.runsvc.v1.ListSchedulesRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListSchedulesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListSchedulesMethod(), responseObserver);
    }

    /**
     * <pre>
     * PauseSchedule stops a schedule's ticks: ticks that fall while it is
     * paused are neither run nor recorded.
     * </pre>
     */
    public void pauseSchedule(dev.runsvc.v1.PauseScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.PauseScheduleResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getPauseScheduleMethod(), responseObserver);
    }

    /**
     * <pre>
     * ResumeSchedule restarts a paused schedule from its first tick after
     * now.
     * </pre>
     */
    public void resumeSchedule(dev.runsvc.v1.ResumeScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ResumeScheduleResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getResumeScheduleMethod(), responseObserver);
    }

    /**
     * <pre>
     * DeleteSchedule deletes a schedule and its recorded ticks; the Runs it
     * started stay.
     * </pre>
     */
    public void deleteSchedule(dev.runsvc.v1.DeleteScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.DeleteScheduleResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDeleteScheduleMethod(), responseObserver);
    }

    /**
     * <pre>
     * TriggerSchedule starts one Run of the schedule now, whatever its
     * overlap policy, pause or limits, with its own tick (now) and request
     * id; the tick is recorded TRIGGERED.
     * </pre>
     */
    public void triggerSchedule(dev.runsvc.v1.TriggerScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.TriggerScheduleResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getTriggerScheduleMethod(), responseObserver);
    }

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
          .addMethod(
            getCreateScheduleMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.CreateScheduleRequest,
                dev.runsvc.v1.CreateScheduleResponse>(
                  this, METHODID_CREATE_SCHEDULE)))
          .addMethod(
            getGetScheduleMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.GetScheduleRequest,
                dev.runsvc.v1.GetScheduleResponse>(
                  this, METHODID_GET_SCHEDULE)))
          .addMethod(
            getListSchedulesMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.ListSchedulesRequest,
                dev.runsvc.v1.ListSchedulesResponse>(
                  this, METHODID_LIST_SCHEDULES)))
          .addMethod(
            getPauseScheduleMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.PauseScheduleRequest,
                dev.runsvc.v1.PauseScheduleResponse>(
                  this, METHODID_PAUSE_SCHEDULE)))
          .addMethod(
            getResumeScheduleMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.ResumeScheduleRequest,
                dev.runsvc.v1.ResumeScheduleResponse>(
                  this, METHODID_RESUME_SCHEDULE)))
          .addMethod(
            getDeleteScheduleMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.DeleteScheduleRequest,
                dev.runsvc.v1.DeleteScheduleResponse>(
                  this, METHODID_DELETE_SCHEDULE)))
          .addMethod(
            getTriggerScheduleMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.TriggerScheduleRequest,
                dev.runsvc.v1.TriggerScheduleResponse>(
                  this, METHODID_TRIGGER_SCHEDULE)))
          .build();
    }
  }

  /**
   * <pre>
   * ScheduleService starts Runs on a schedule: a cron expression in a time
   * zone, an interval, or one time. Every replica fires due ticks; a tick
   * starts at most one Run however many replicas fire it and however often
   * they restart (the tick is the Run's request id,
   * "schedule/&lt;id&gt;/&lt;tick unix seconds&gt;"), and its outcome is recorded once.
   * </pre>
   */
  public static final class ScheduleServiceStub extends io.grpc.stub.AbstractAsyncStub<ScheduleServiceStub> {
    private ScheduleServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ScheduleServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ScheduleServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateSchedule creates a schedule. A bad definition fails
     * INVALID_ARGUMENT / SCHEDULE_INVALID naming the field; creating one
     * with the id of an existing one returns that one when the definitions
     * are the same (a retry) and fails SCHEDULE_INVALID when they differ.
     * </pre>
     */
    public void createSchedule(dev.runsvc.v1.CreateScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.CreateScheduleResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCreateScheduleMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetSchedule returns a schedule with its next ticks and the latest
     * outcomes, or NOT_FOUND / SCHEDULE_NOT_FOUND.
     * </pre>
     */
    public void getSchedule(dev.runsvc.v1.GetScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetScheduleResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetScheduleMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListSchedules lists the caller's schedules by id.
     * </pre>
     */
    public void listSchedules(dev.runsvc.v1.ListSchedulesRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListSchedulesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListSchedulesMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * PauseSchedule stops a schedule's ticks: ticks that fall while it is
     * paused are neither run nor recorded.
     * </pre>
     */
    public void pauseSchedule(dev.runsvc.v1.PauseScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.PauseScheduleResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getPauseScheduleMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ResumeSchedule restarts a paused schedule from its first tick after
     * now.
     * </pre>
     */
    public void resumeSchedule(dev.runsvc.v1.ResumeScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ResumeScheduleResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getResumeScheduleMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * DeleteSchedule deletes a schedule and its recorded ticks; the Runs it
     * started stay.
     * </pre>
     */
    public void deleteSchedule(dev.runsvc.v1.DeleteScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.DeleteScheduleResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDeleteScheduleMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * TriggerSchedule starts one Run of the schedule now, whatever its
     * overlap policy, pause or limits, with its own tick (now) and request
     * id; the tick is recorded TRIGGERED.
     * </pre>
     */
    public void triggerSchedule(dev.runsvc.v1.TriggerScheduleRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.TriggerScheduleResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getTriggerScheduleMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * <pre>
   * ScheduleService starts Runs on a schedule: a cron expression in a time
   * zone, an interval, or one time. Every replica fires due ticks; a tick
   * starts at most one Run however many replicas fire it and however often
   * they restart (the tick is the Run's request id,
   * "schedule/&lt;id&gt;/&lt;tick unix seconds&gt;"), and its outcome is recorded once.
   * </pre>
   */
  public static final class ScheduleServiceBlockingStub extends io.grpc.stub.AbstractBlockingStub<ScheduleServiceBlockingStub> {
    private ScheduleServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ScheduleServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ScheduleServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateSchedule creates a schedule. A bad definition fails
     * INVALID_ARGUMENT / SCHEDULE_INVALID naming the field; creating one
     * with the id of an existing one returns that one when the definitions
     * are the same (a retry) and fails SCHEDULE_INVALID when they differ.
     * </pre>
     */
    public dev.runsvc.v1.CreateScheduleResponse createSchedule(dev.runsvc.v1.CreateScheduleRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCreateScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetSchedule returns a schedule with its next ticks and the latest
     * outcomes, or NOT_FOUND / SCHEDULE_NOT_FOUND.
     * </pre>
     */
    public dev.runsvc.v1.GetScheduleResponse getSchedule(dev.runsvc.v1.GetScheduleRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListSchedules lists the caller's schedules by id.
     * </pre>
     */
    public dev.runsvc.v1.ListSchedulesResponse listSchedules(dev.runsvc.v1.ListSchedulesRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListSchedulesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * PauseSchedule stops a schedule's ticks: ticks that fall while it is
     * paused are neither run nor recorded.
     * </pre>
     */
    public dev.runsvc.v1.PauseScheduleResponse pauseSchedule(dev.runsvc.v1.PauseScheduleRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getPauseScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ResumeSchedule restarts a paused schedule from its first tick after
     * now.
     * </pre>
     */
    public dev.runsvc.v1.ResumeScheduleResponse resumeSchedule(dev.runsvc.v1.ResumeScheduleRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getResumeScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DeleteSchedule deletes a schedule and its recorded ticks; the Runs it
     * started stay.
     * </pre>
     */
    public dev.runsvc.v1.DeleteScheduleResponse deleteSchedule(dev.runsvc.v1.DeleteScheduleRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDeleteScheduleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * TriggerSchedule starts one Run of the schedule now, whatever its
     * overlap policy, pause or limits, with its own tick (now) and request
     * id; the tick is recorded TRIGGERED.
     * </pre>
     */
    public dev.runsvc.v1.TriggerScheduleResponse triggerSchedule(dev.runsvc.v1.TriggerScheduleRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getTriggerScheduleMethod(), getCallOptions(), request);
    }
  }

  /**
   * <pre>
   * ScheduleService starts Runs on a schedule: a cron expression in a time
   * zone, an interval, or one time. Every replica fires due ticks; a tick
   * starts at most one Run however many replicas fire it and however often
   * they restart (the tick is the Run's request id,
   * "schedule/&lt;id&gt;/&lt;tick unix seconds&gt;"), and its outcome is recorded once.
   * </pre>
   */
  public static final class ScheduleServiceFutureStub extends io.grpc.stub.AbstractFutureStub<ScheduleServiceFutureStub> {
    private ScheduleServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ScheduleServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ScheduleServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateSchedule creates a schedule. A bad definition fails
     * INVALID_ARGUMENT / SCHEDULE_INVALID naming the field; creating one
     * with the id of an existing one returns that one when the definitions
     * are the same (a retry) and fails SCHEDULE_INVALID when they differ.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.CreateScheduleResponse> createSchedule(
        dev.runsvc.v1.CreateScheduleRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCreateScheduleMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetSchedule returns a schedule with its next ticks and the latest
     * outcomes, or NOT_FOUND / SCHEDULE_NOT_FOUND.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.GetScheduleResponse> getSchedule(
        dev.runsvc.v1.GetScheduleRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetScheduleMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListSchedules lists the caller's schedules by id.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.ListSchedulesResponse> listSchedules(
        dev.runsvc.v1.ListSchedulesRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListSchedulesMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * PauseSchedule stops a schedule's ticks: ticks that fall while it is
     * paused are neither run nor recorded.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.PauseScheduleResponse> pauseSchedule(
        dev.runsvc.v1.PauseScheduleRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getPauseScheduleMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ResumeSchedule restarts a paused schedule from its first tick after
     * now.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.ResumeScheduleResponse> resumeSchedule(
        dev.runsvc.v1.ResumeScheduleRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getResumeScheduleMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * DeleteSchedule deletes a schedule and its recorded ticks; the Runs it
     * started stay.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.DeleteScheduleResponse> deleteSchedule(
        dev.runsvc.v1.DeleteScheduleRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDeleteScheduleMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * TriggerSchedule starts one Run of the schedule now, whatever its
     * overlap policy, pause or limits, with its own tick (now) and request
     * id; the tick is recorded TRIGGERED.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.TriggerScheduleResponse> triggerSchedule(
        dev.runsvc.v1.TriggerScheduleRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getTriggerScheduleMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_CREATE_SCHEDULE = 0;
  private static final int METHODID_GET_SCHEDULE = 1;
  private static final int METHODID_LIST_SCHEDULES = 2;
  private static final int METHODID_PAUSE_SCHEDULE = 3;
  private static final int METHODID_RESUME_SCHEDULE = 4;
  private static final int METHODID_DELETE_SCHEDULE = 5;
  private static final int METHODID_TRIGGER_SCHEDULE = 6;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final ScheduleServiceImplBase serviceImpl;
    private final int methodId;

    MethodHandlers(ScheduleServiceImplBase serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_CREATE_SCHEDULE:
          serviceImpl.createSchedule((dev.runsvc.v1.CreateScheduleRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.CreateScheduleResponse>) responseObserver);
          break;
        case METHODID_GET_SCHEDULE:
          serviceImpl.getSchedule((dev.runsvc.v1.GetScheduleRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.GetScheduleResponse>) responseObserver);
          break;
        case METHODID_LIST_SCHEDULES:
          serviceImpl.listSchedules((dev.runsvc.v1.ListSchedulesRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ListSchedulesResponse>) responseObserver);
          break;
        case METHODID_PAUSE_SCHEDULE:
          serviceImpl.pauseSchedule((dev.runsvc.v1.PauseScheduleRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.PauseScheduleResponse>) responseObserver);
          break;
        case METHODID_RESUME_SCHEDULE:
          serviceImpl.resumeSchedule((dev.runsvc.v1.ResumeScheduleRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ResumeScheduleResponse>) responseObserver);
          break;
        case METHODID_DELETE_SCHEDULE:
          serviceImpl.deleteSchedule((dev.runsvc.v1.DeleteScheduleRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.DeleteScheduleResponse>) responseObserver);
          break;
        case METHODID_TRIGGER_SCHEDULE:
          serviceImpl.triggerSchedule((dev.runsvc.v1.TriggerScheduleRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.TriggerScheduleResponse>) responseObserver);
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

  private static abstract class ScheduleServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    ScheduleServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.runsvc.v1.ScheduleProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("ScheduleService");
    }
  }

  private static final class ScheduleServiceFileDescriptorSupplier
      extends ScheduleServiceBaseDescriptorSupplier {
    ScheduleServiceFileDescriptorSupplier() {}
  }

  private static final class ScheduleServiceMethodDescriptorSupplier
      extends ScheduleServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final String methodName;

    ScheduleServiceMethodDescriptorSupplier(String methodName) {
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
      synchronized (ScheduleServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new ScheduleServiceFileDescriptorSupplier())
              .addMethod(getCreateScheduleMethod())
              .addMethod(getGetScheduleMethod())
              .addMethod(getListSchedulesMethod())
              .addMethod(getPauseScheduleMethod())
              .addMethod(getResumeScheduleMethod())
              .addMethod(getDeleteScheduleMethod())
              .addMethod(getTriggerScheduleMethod())
              .build();
        }
      }
    }
    return result;
  }
}
