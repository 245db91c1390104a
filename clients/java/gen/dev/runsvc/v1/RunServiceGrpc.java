package dev.runsvc.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * RunService starts Runs of published Specs and follows, steers and answers
 * them. A Run's truth is its append-only log of Records.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class RunServiceGrpc {

  private RunServiceGrpc() {}

  public static final String SERVICE_NAME = "runsvc.v1.RunService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.StartRunRequest,
      dev.runsvc.v1.StartRunResponse> getStartRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "StartRun",
      requestType = dev.runsvc.v1.StartRunRequest.class,
      responseType = dev.runsvc.v1.StartRunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.StartRunRequest,
      dev.runsvc.v1.StartRunResponse> getStartRunMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.StartRunRequest, dev.runsvc.v1.StartRunResponse> getStartRunMethod;
    if ((getStartRunMethod = RunServiceGrpc.getStartRunMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getStartRunMethod = RunServiceGrpc.getStartRunMethod) == null) {
          RunServiceGrpc.getStartRunMethod = getStartRunMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.StartRunRequest, dev.runsvc.v1.StartRunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "StartRun"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.StartRunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.StartRunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("StartRun"))
              .build();
        }
      }
    }
    return getStartRunMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.GetRunRequest,
      dev.runsvc.v1.GetRunResponse> getGetRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetRun",
      requestType = dev.runsvc.v1.GetRunRequest.class,
      responseType = dev.runsvc.v1.GetRunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.GetRunRequest,
      dev.runsvc.v1.GetRunResponse> getGetRunMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.GetRunRequest, dev.runsvc.v1.GetRunResponse> getGetRunMethod;
    if ((getGetRunMethod = RunServiceGrpc.getGetRunMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getGetRunMethod = RunServiceGrpc.getGetRunMethod) == null) {
          RunServiceGrpc.getGetRunMethod = getGetRunMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.GetRunRequest, dev.runsvc.v1.GetRunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetRun"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetRunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetRunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("GetRun"))
              .build();
        }
      }
    }
    return getGetRunMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ListRunsRequest,
      dev.runsvc.v1.ListRunsResponse> getListRunsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListRuns",
      requestType = dev.runsvc.v1.ListRunsRequest.class,
      responseType = dev.runsvc.v1.ListRunsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ListRunsRequest,
      dev.runsvc.v1.ListRunsResponse> getListRunsMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ListRunsRequest, dev.runsvc.v1.ListRunsResponse> getListRunsMethod;
    if ((getListRunsMethod = RunServiceGrpc.getListRunsMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getListRunsMethod = RunServiceGrpc.getListRunsMethod) == null) {
          RunServiceGrpc.getListRunsMethod = getListRunsMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ListRunsRequest, dev.runsvc.v1.ListRunsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListRuns"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListRunsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListRunsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("ListRuns"))
              .build();
        }
      }
    }
    return getListRunsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.WatchRunRequest,
      dev.runsvc.v1.WatchRunResponse> getWatchRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "WatchRun",
      requestType = dev.runsvc.v1.WatchRunRequest.class,
      responseType = dev.runsvc.v1.WatchRunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.WatchRunRequest,
      dev.runsvc.v1.WatchRunResponse> getWatchRunMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.WatchRunRequest, dev.runsvc.v1.WatchRunResponse> getWatchRunMethod;
    if ((getWatchRunMethod = RunServiceGrpc.getWatchRunMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getWatchRunMethod = RunServiceGrpc.getWatchRunMethod) == null) {
          RunServiceGrpc.getWatchRunMethod = getWatchRunMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.WatchRunRequest, dev.runsvc.v1.WatchRunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "WatchRun"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.WatchRunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.WatchRunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("WatchRun"))
              .build();
        }
      }
    }
    return getWatchRunMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.StreamTextRequest,
      dev.runsvc.v1.StreamTextResponse> getStreamTextMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "StreamText",
      requestType = dev.runsvc.v1.StreamTextRequest.class,
      responseType = dev.runsvc.v1.StreamTextResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.StreamTextRequest,
      dev.runsvc.v1.StreamTextResponse> getStreamTextMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.StreamTextRequest, dev.runsvc.v1.StreamTextResponse> getStreamTextMethod;
    if ((getStreamTextMethod = RunServiceGrpc.getStreamTextMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getStreamTextMethod = RunServiceGrpc.getStreamTextMethod) == null) {
          RunServiceGrpc.getStreamTextMethod = getStreamTextMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.StreamTextRequest, dev.runsvc.v1.StreamTextResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "StreamText"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.StreamTextRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.StreamTextResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("StreamText"))
              .build();
        }
      }
    }
    return getStreamTextMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.WaitRunRequest,
      dev.runsvc.v1.WaitRunResponse> getWaitRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "WaitRun",
      requestType = dev.runsvc.v1.WaitRunRequest.class,
      responseType = dev.runsvc.v1.WaitRunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.WaitRunRequest,
      dev.runsvc.v1.WaitRunResponse> getWaitRunMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.WaitRunRequest, dev.runsvc.v1.WaitRunResponse> getWaitRunMethod;
    if ((getWaitRunMethod = RunServiceGrpc.getWaitRunMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getWaitRunMethod = RunServiceGrpc.getWaitRunMethod) == null) {
          RunServiceGrpc.getWaitRunMethod = getWaitRunMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.WaitRunRequest, dev.runsvc.v1.WaitRunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "WaitRun"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.WaitRunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.WaitRunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("WaitRun"))
              .build();
        }
      }
    }
    return getWaitRunMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.SendMessageRequest,
      dev.runsvc.v1.SendMessageResponse> getSendMessageMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "SendMessage",
      requestType = dev.runsvc.v1.SendMessageRequest.class,
      responseType = dev.runsvc.v1.SendMessageResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.SendMessageRequest,
      dev.runsvc.v1.SendMessageResponse> getSendMessageMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.SendMessageRequest, dev.runsvc.v1.SendMessageResponse> getSendMessageMethod;
    if ((getSendMessageMethod = RunServiceGrpc.getSendMessageMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getSendMessageMethod = RunServiceGrpc.getSendMessageMethod) == null) {
          RunServiceGrpc.getSendMessageMethod = getSendMessageMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.SendMessageRequest, dev.runsvc.v1.SendMessageResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "SendMessage"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.SendMessageRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.SendMessageResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("SendMessage"))
              .build();
        }
      }
    }
    return getSendMessageMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ResumeRunRequest,
      dev.runsvc.v1.ResumeRunResponse> getResumeRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ResumeRun",
      requestType = dev.runsvc.v1.ResumeRunRequest.class,
      responseType = dev.runsvc.v1.ResumeRunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ResumeRunRequest,
      dev.runsvc.v1.ResumeRunResponse> getResumeRunMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ResumeRunRequest, dev.runsvc.v1.ResumeRunResponse> getResumeRunMethod;
    if ((getResumeRunMethod = RunServiceGrpc.getResumeRunMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getResumeRunMethod = RunServiceGrpc.getResumeRunMethod) == null) {
          RunServiceGrpc.getResumeRunMethod = getResumeRunMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ResumeRunRequest, dev.runsvc.v1.ResumeRunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ResumeRun"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ResumeRunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ResumeRunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("ResumeRun"))
              .build();
        }
      }
    }
    return getResumeRunMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.InterruptRunRequest,
      dev.runsvc.v1.InterruptRunResponse> getInterruptRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "InterruptRun",
      requestType = dev.runsvc.v1.InterruptRunRequest.class,
      responseType = dev.runsvc.v1.InterruptRunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.InterruptRunRequest,
      dev.runsvc.v1.InterruptRunResponse> getInterruptRunMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.InterruptRunRequest, dev.runsvc.v1.InterruptRunResponse> getInterruptRunMethod;
    if ((getInterruptRunMethod = RunServiceGrpc.getInterruptRunMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getInterruptRunMethod = RunServiceGrpc.getInterruptRunMethod) == null) {
          RunServiceGrpc.getInterruptRunMethod = getInterruptRunMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.InterruptRunRequest, dev.runsvc.v1.InterruptRunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "InterruptRun"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.InterruptRunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.InterruptRunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("InterruptRun"))
              .build();
        }
      }
    }
    return getInterruptRunMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.GetReportRequest,
      dev.runsvc.v1.GetReportResponse> getGetReportMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetReport",
      requestType = dev.runsvc.v1.GetReportRequest.class,
      responseType = dev.runsvc.v1.GetReportResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.GetReportRequest,
      dev.runsvc.v1.GetReportResponse> getGetReportMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.GetReportRequest, dev.runsvc.v1.GetReportResponse> getGetReportMethod;
    if ((getGetReportMethod = RunServiceGrpc.getGetReportMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getGetReportMethod = RunServiceGrpc.getGetReportMethod) == null) {
          RunServiceGrpc.getGetReportMethod = getGetReportMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.GetReportRequest, dev.runsvc.v1.GetReportResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetReport"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetReportRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetReportResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("GetReport"))
              .build();
        }
      }
    }
    return getGetReportMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.DeleteRunRequest,
      dev.runsvc.v1.DeleteRunResponse> getDeleteRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DeleteRun",
      requestType = dev.runsvc.v1.DeleteRunRequest.class,
      responseType = dev.runsvc.v1.DeleteRunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.DeleteRunRequest,
      dev.runsvc.v1.DeleteRunResponse> getDeleteRunMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.DeleteRunRequest, dev.runsvc.v1.DeleteRunResponse> getDeleteRunMethod;
    if ((getDeleteRunMethod = RunServiceGrpc.getDeleteRunMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getDeleteRunMethod = RunServiceGrpc.getDeleteRunMethod) == null) {
          RunServiceGrpc.getDeleteRunMethod = getDeleteRunMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.DeleteRunRequest, dev.runsvc.v1.DeleteRunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DeleteRun"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.DeleteRunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.DeleteRunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("DeleteRun"))
              .build();
        }
      }
    }
    return getDeleteRunMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ExportRunRequest,
      dev.runsvc.v1.ExportRunResponse> getExportRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ExportRun",
      requestType = dev.runsvc.v1.ExportRunRequest.class,
      responseType = dev.runsvc.v1.ExportRunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ExportRunRequest,
      dev.runsvc.v1.ExportRunResponse> getExportRunMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ExportRunRequest, dev.runsvc.v1.ExportRunResponse> getExportRunMethod;
    if ((getExportRunMethod = RunServiceGrpc.getExportRunMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getExportRunMethod = RunServiceGrpc.getExportRunMethod) == null) {
          RunServiceGrpc.getExportRunMethod = getExportRunMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ExportRunRequest, dev.runsvc.v1.ExportRunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ExportRun"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ExportRunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ExportRunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("ExportRun"))
              .build();
        }
      }
    }
    return getExportRunMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ImportRunRequest,
      dev.runsvc.v1.ImportRunResponse> getImportRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ImportRun",
      requestType = dev.runsvc.v1.ImportRunRequest.class,
      responseType = dev.runsvc.v1.ImportRunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.CLIENT_STREAMING)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ImportRunRequest,
      dev.runsvc.v1.ImportRunResponse> getImportRunMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ImportRunRequest, dev.runsvc.v1.ImportRunResponse> getImportRunMethod;
    if ((getImportRunMethod = RunServiceGrpc.getImportRunMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getImportRunMethod = RunServiceGrpc.getImportRunMethod) == null) {
          RunServiceGrpc.getImportRunMethod = getImportRunMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ImportRunRequest, dev.runsvc.v1.ImportRunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.CLIENT_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ImportRun"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ImportRunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ImportRunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("ImportRun"))
              .build();
        }
      }
    }
    return getImportRunMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.GetThreadRequest,
      dev.runsvc.v1.GetThreadResponse> getGetThreadMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetThread",
      requestType = dev.runsvc.v1.GetThreadRequest.class,
      responseType = dev.runsvc.v1.GetThreadResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.GetThreadRequest,
      dev.runsvc.v1.GetThreadResponse> getGetThreadMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.GetThreadRequest, dev.runsvc.v1.GetThreadResponse> getGetThreadMethod;
    if ((getGetThreadMethod = RunServiceGrpc.getGetThreadMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getGetThreadMethod = RunServiceGrpc.getGetThreadMethod) == null) {
          RunServiceGrpc.getGetThreadMethod = getGetThreadMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.GetThreadRequest, dev.runsvc.v1.GetThreadResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetThread"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetThreadRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetThreadResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("GetThread"))
              .build();
        }
      }
    }
    return getGetThreadMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ListThreadsRequest,
      dev.runsvc.v1.ListThreadsResponse> getListThreadsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListThreads",
      requestType = dev.runsvc.v1.ListThreadsRequest.class,
      responseType = dev.runsvc.v1.ListThreadsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ListThreadsRequest,
      dev.runsvc.v1.ListThreadsResponse> getListThreadsMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ListThreadsRequest, dev.runsvc.v1.ListThreadsResponse> getListThreadsMethod;
    if ((getListThreadsMethod = RunServiceGrpc.getListThreadsMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getListThreadsMethod = RunServiceGrpc.getListThreadsMethod) == null) {
          RunServiceGrpc.getListThreadsMethod = getListThreadsMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ListThreadsRequest, dev.runsvc.v1.ListThreadsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListThreads"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListThreadsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListThreadsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("ListThreads"))
              .build();
        }
      }
    }
    return getListThreadsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ForkRunRequest,
      dev.runsvc.v1.ForkRunResponse> getForkRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ForkRun",
      requestType = dev.runsvc.v1.ForkRunRequest.class,
      responseType = dev.runsvc.v1.ForkRunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ForkRunRequest,
      dev.runsvc.v1.ForkRunResponse> getForkRunMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ForkRunRequest, dev.runsvc.v1.ForkRunResponse> getForkRunMethod;
    if ((getForkRunMethod = RunServiceGrpc.getForkRunMethod) == null) {
      synchronized (RunServiceGrpc.class) {
        if ((getForkRunMethod = RunServiceGrpc.getForkRunMethod) == null) {
          RunServiceGrpc.getForkRunMethod = getForkRunMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ForkRunRequest, dev.runsvc.v1.ForkRunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ForkRun"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ForkRunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ForkRunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunServiceMethodDescriptorSupplier("ForkRun"))
              .build();
        }
      }
    }
    return getForkRunMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static RunServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RunServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RunServiceStub>() {
        @java.lang.Override
        public RunServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RunServiceStub(channel, callOptions);
        }
      };
    return RunServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static RunServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RunServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RunServiceBlockingStub>() {
        @java.lang.Override
        public RunServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RunServiceBlockingStub(channel, callOptions);
        }
      };
    return RunServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static RunServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RunServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RunServiceFutureStub>() {
        @java.lang.Override
        public RunServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RunServiceFutureStub(channel, callOptions);
        }
      };
    return RunServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * RunService starts Runs of published Specs and follows, steers and answers
   * them. A Run's truth is its append-only log of Records.
   * </pre>
   */
  public static abstract class RunServiceImplBase implements io.grpc.BindableService {

    /**
     * <pre>
     * StartRun admits a Run of a Spec. With a `request_id`, repeating the same
     * request returns the same Run; reusing the id with another body fails
     * ALREADY_EXISTS / REQUEST_ID_REUSED.
     * </pre>
     */
    public void startRun(dev.runsvc.v1.StartRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.StartRunResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getStartRunMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetRun returns a Run's current state. Fails NOT_FOUND / RUN_NOT_FOUND.
     * </pre>
     */
    public void getRun(dev.runsvc.v1.GetRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetRunResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetRunMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListRuns lists Runs, newest first, filtered by state, Spec or parent.
     * </pre>
     */
    public void listRuns(dev.runsvc.v1.ListRunsRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListRunsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListRunsMethod(), responseObserver);
    }

    /**
     * <pre>
     * WatchRun streams a Run's Records from `from_seq`, then live as they are
     * appended, and ends OK after the Record that settles the Run.
     * </pre>
     */
    public void watchRun(dev.runsvc.v1.WatchRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.WatchRunResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getWatchRunMethod(), responseObserver);
    }

    /**
     * <pre>
     * StreamText streams the assistant's text as the Run records it and ends
     * OK when the Run completes. A Run that ends without an answer ends the
     * stream with FAILED_PRECONDITION: RUN_FAILED, RUN_ABORTED or
     * RUN_ENDED_WITHOUT_ANSWER.
     * </pre>
     */
    public void streamText(dev.runsvc.v1.StreamTextRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.StreamTextResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getStreamTextMethod(), responseObserver);
    }

    /**
     * <pre>
     * WaitRun returns when the Run settles or suspends, or when `wait`
     * elapses, OK either way: read the returned Run's state.
     * </pre>
     */
    public void waitRun(dev.runsvc.v1.WaitRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.WaitRunResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getWaitRunMethod(), responseObserver);
    }

    /**
     * <pre>
     * SendMessage queues a user message for a Run: a steer is given to the
     * model at its next call, a follow-up after its current answer. Fails
     * RUN_ALREADY_SETTLED on a settled Run.
     * </pre>
     */
    public void sendMessage(dev.runsvc.v1.SendMessageRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.SendMessageResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getSendMessageMethod(), responseObserver);
    }

    /**
     * <pre>
     * ResumeRun answers a suspended Run: tool results, an answer to a question
     * or an approval. Fails RUN_NOT_SUSPENDED when it waits for nothing, and
     * SUSPENSION_EXPIRED (settling the Run ABANDONED) after the expiry.
     * </pre>
     */
    public void resumeRun(dev.runsvc.v1.ResumeRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ResumeRunResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getResumeRunMethod(), responseObserver);
    }

    /**
     * <pre>
     * InterruptRun stops a Run: it settles ABORTED with cause INTERRUPTED, and
     * its delegated children are interrupted too. A no-op on a settled Run.
     * </pre>
     */
    public void interruptRun(dev.runsvc.v1.InterruptRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.InterruptRunResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getInterruptRunMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetReport returns a Run with its usage, its ending and its failure as
     * data, and optionally its children's reports.
     * </pre>
     */
    public void getReport(dev.runsvc.v1.GetReportRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetReportResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetReportMethod(), responseObserver);
    }

    /**
     * <pre>
     * DeleteRun deletes a settled Run for good, with its log, the request id
     * that started it, its worker tool calls and, when its Spec's retention
     * says `delete_memory`, the family memory it roots; its children stay, no
     * longer linked to it. Afterwards every read of the Run is NOT_FOUND. An
     * active Run fails FAILED_PRECONDITION / RUN_NOT_SETTLED and nothing
     * changes, unless `interrupt` is set: then it is interrupted, and deleted
     * once it settled. With `spec` instead of `run_id`, every settled Run of
     * that Spec is deleted the same way. Needs the admin role.
     * </pre>
     */
    public void deleteRun(dev.runsvc.v1.DeleteRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.DeleteRunResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDeleteRunMethod(), responseObserver);
    }

    /**
     * <pre>
     * ExportRun streams a settled or active Run's whole log with its Spec
     * Version as JSON Lines, one line per response (docs/export.md).
     * </pre>
     */
    public void exportRun(dev.runsvc.v1.ExportRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ExportRunResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getExportRunMethod(), responseObserver);
    }

    /**
     * <pre>
     * ImportRun reads an export, line by line, into this server as a settled,
     * read-only Run with the same id, log and Spec Version. Importing the same
     * export again returns the Run with `created` false; an export whose Run id
     * exists here with another log, or whose Run has not settled, fails
     * INVALID_ARGUMENT / INVALID_REQUEST. Needs the admin role.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<dev.runsvc.v1.ImportRunRequest> importRun(
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ImportRunResponse> responseObserver) {
      return io.grpc.stub.ServerCalls.asyncUnimplementedStreamingCall(getImportRunMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetThread returns a thread: its active Run, its last settled Run and how
     * many Runs were started on it. A thread exists once a StartRun named it.
     * Fails NOT_FOUND / THREAD_NOT_FOUND for a thread no Run used.
     * </pre>
     */
    public void getThread(dev.runsvc.v1.GetThreadRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetThreadResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetThreadMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListThreads lists the caller's threads, newest first.
     * </pre>
     */
    public void listThreads(dev.runsvc.v1.ListThreadsRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListThreadsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListThreadsMethod(), responseObserver);
    }

    /**
     * <pre>
     * ForkRun starts a new Run from another Run's state at a turn boundary
     * (time travel): the fork holds everything the source's earlier turns
     * did, tool results included, so none of those calls is made again, and
     * makes the chosen turn and what follows itself. The source is only
     * read. The fork runs the source's Spec Version or a newer one of the
     * same Spec, optionally with a new user message. With a `request_id`,
     * repeating the same request returns the same fork. Fails RUN_NOT_FOUND
     * for an unknown source and INVALID_REQUEST for a point that is not a
     * turn boundary (the violation names the boundaries there are).
     * </pre>
     */
    public void forkRun(dev.runsvc.v1.ForkRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ForkRunResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getForkRunMethod(), responseObserver);
    }

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
          .addMethod(
            getStartRunMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.StartRunRequest,
                dev.runsvc.v1.StartRunResponse>(
                  this, METHODID_START_RUN)))
          .addMethod(
            getGetRunMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.GetRunRequest,
                dev.runsvc.v1.GetRunResponse>(
                  this, METHODID_GET_RUN)))
          .addMethod(
            getListRunsMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.ListRunsRequest,
                dev.runsvc.v1.ListRunsResponse>(
                  this, METHODID_LIST_RUNS)))
          .addMethod(
            getWatchRunMethod(),
            io.grpc.stub.ServerCalls.asyncServerStreamingCall(
              new MethodHandlers<
                dev.runsvc.v1.WatchRunRequest,
                dev.runsvc.v1.WatchRunResponse>(
                  this, METHODID_WATCH_RUN)))
          .addMethod(
            getStreamTextMethod(),
            io.grpc.stub.ServerCalls.asyncServerStreamingCall(
              new MethodHandlers<
                dev.runsvc.v1.StreamTextRequest,
                dev.runsvc.v1.StreamTextResponse>(
                  this, METHODID_STREAM_TEXT)))
          .addMethod(
            getWaitRunMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.WaitRunRequest,
                dev.runsvc.v1.WaitRunResponse>(
                  this, METHODID_WAIT_RUN)))
          .addMethod(
            getSendMessageMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.SendMessageRequest,
                dev.runsvc.v1.SendMessageResponse>(
                  this, METHODID_SEND_MESSAGE)))
          .addMethod(
            getResumeRunMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.ResumeRunRequest,
                dev.runsvc.v1.ResumeRunResponse>(
                  this, METHODID_RESUME_RUN)))
          .addMethod(
            getInterruptRunMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.InterruptRunRequest,
                dev.runsvc.v1.InterruptRunResponse>(
                  this, METHODID_INTERRUPT_RUN)))
          .addMethod(
            getGetReportMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.GetReportRequest,
                dev.runsvc.v1.GetReportResponse>(
                  this, METHODID_GET_REPORT)))
          .addMethod(
            getDeleteRunMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.DeleteRunRequest,
                dev.runsvc.v1.DeleteRunResponse>(
                  this, METHODID_DELETE_RUN)))
          .addMethod(
            getExportRunMethod(),
            io.grpc.stub.ServerCalls.asyncServerStreamingCall(
              new MethodHandlers<
                dev.runsvc.v1.ExportRunRequest,
                dev.runsvc.v1.ExportRunResponse>(
                  this, METHODID_EXPORT_RUN)))
          .addMethod(
            getImportRunMethod(),
            io.grpc.stub.ServerCalls.asyncClientStreamingCall(
              new MethodHandlers<
                dev.runsvc.v1.ImportRunRequest,
                dev.runsvc.v1.ImportRunResponse>(
                  this, METHODID_IMPORT_RUN)))
          .addMethod(
            getGetThreadMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.GetThreadRequest,
                dev.runsvc.v1.GetThreadResponse>(
                  this, METHODID_GET_THREAD)))
          .addMethod(
            getListThreadsMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.ListThreadsRequest,
                dev.runsvc.v1.ListThreadsResponse>(
                  this, METHODID_LIST_THREADS)))
          .addMethod(
            getForkRunMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.ForkRunRequest,
                dev.runsvc.v1.ForkRunResponse>(
                  this, METHODID_FORK_RUN)))
          .build();
    }
  }

  /**
   * <pre>
   * RunService starts Runs of published Specs and follows, steers and answers
   * them. A Run's truth is its append-only log of Records.
   * </pre>
   */
  public static final class RunServiceStub extends io.grpc.stub.AbstractAsyncStub<RunServiceStub> {
    private RunServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RunServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RunServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * StartRun admits a Run of a Spec. With a `request_id`, repeating the same
     * request returns the same Run; reusing the id with another body fails
     * ALREADY_EXISTS / REQUEST_ID_REUSED.
     * </pre>
     */
    public void startRun(dev.runsvc.v1.StartRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.StartRunResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getStartRunMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetRun returns a Run's current state. Fails NOT_FOUND / RUN_NOT_FOUND.
     * </pre>
     */
    public void getRun(dev.runsvc.v1.GetRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetRunResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetRunMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListRuns lists Runs, newest first, filtered by state, Spec or parent.
     * </pre>
     */
    public void listRuns(dev.runsvc.v1.ListRunsRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListRunsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListRunsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * WatchRun streams a Run's Records from `from_seq`, then live as they are
     * appended, and ends OK after the Record that settles the Run.
     * </pre>
     */
    public void watchRun(dev.runsvc.v1.WatchRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.WatchRunResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(getWatchRunMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * StreamText streams the assistant's text as the Run records it and ends
     * OK when the Run completes. A Run that ends without an answer ends the
     * stream with FAILED_PRECONDITION: RUN_FAILED, RUN_ABORTED or
     * RUN_ENDED_WITHOUT_ANSWER.
     * </pre>
     */
    public void streamText(dev.runsvc.v1.StreamTextRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.StreamTextResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(getStreamTextMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * WaitRun returns when the Run settles or suspends, or when `wait`
     * elapses, OK either way: read the returned Run's state.
     * </pre>
     */
    public void waitRun(dev.runsvc.v1.WaitRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.WaitRunResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getWaitRunMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * SendMessage queues a user message for a Run: a steer is given to the
     * model at its next call, a follow-up after its current answer. Fails
     * RUN_ALREADY_SETTLED on a settled Run.
     * </pre>
     */
    public void sendMessage(dev.runsvc.v1.SendMessageRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.SendMessageResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getSendMessageMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ResumeRun answers a suspended Run: tool results, an answer to a question
     * or an approval. Fails RUN_NOT_SUSPENDED when it waits for nothing, and
     * SUSPENSION_EXPIRED (settling the Run ABANDONED) after the expiry.
     * </pre>
     */
    public void resumeRun(dev.runsvc.v1.ResumeRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ResumeRunResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getResumeRunMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * InterruptRun stops a Run: it settles ABORTED with cause INTERRUPTED, and
     * its delegated children are interrupted too. A no-op on a settled Run.
     * </pre>
     */
    public void interruptRun(dev.runsvc.v1.InterruptRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.InterruptRunResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getInterruptRunMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetReport returns a Run with its usage, its ending and its failure as
     * data, and optionally its children's reports.
     * </pre>
     */
    public void getReport(dev.runsvc.v1.GetReportRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetReportResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetReportMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * DeleteRun deletes a settled Run for good, with its log, the request id
     * that started it, its worker tool calls and, when its Spec's retention
     * says `delete_memory`, the family memory it roots; its children stay, no
     * longer linked to it. Afterwards every read of the Run is NOT_FOUND. An
     * active Run fails FAILED_PRECONDITION / RUN_NOT_SETTLED and nothing
     * changes, unless `interrupt` is set: then it is interrupted, and deleted
     * once it settled. With `spec` instead of `run_id`, every settled Run of
     * that Spec is deleted the same way. Needs the admin role.
     * </pre>
     */
    public void deleteRun(dev.runsvc.v1.DeleteRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.DeleteRunResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDeleteRunMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ExportRun streams a settled or active Run's whole log with its Spec
     * Version as JSON Lines, one line per response (docs/export.md).
     * </pre>
     */
    public void exportRun(dev.runsvc.v1.ExportRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ExportRunResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(getExportRunMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ImportRun reads an export, line by line, into this server as a settled,
     * read-only Run with the same id, log and Spec Version. Importing the same
     * export again returns the Run with `created` false; an export whose Run id
     * exists here with another log, or whose Run has not settled, fails
     * INVALID_ARGUMENT / INVALID_REQUEST. Needs the admin role.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<dev.runsvc.v1.ImportRunRequest> importRun(
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ImportRunResponse> responseObserver) {
      return io.grpc.stub.ClientCalls.asyncClientStreamingCall(
          getChannel().newCall(getImportRunMethod(), getCallOptions()), responseObserver);
    }

    /**
     * <pre>
     * GetThread returns a thread: its active Run, its last settled Run and how
     * many Runs were started on it. A thread exists once a StartRun named it.
     * Fails NOT_FOUND / THREAD_NOT_FOUND for a thread no Run used.
     * </pre>
     */
    public void getThread(dev.runsvc.v1.GetThreadRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetThreadResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetThreadMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListThreads lists the caller's threads, newest first.
     * </pre>
     */
    public void listThreads(dev.runsvc.v1.ListThreadsRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListThreadsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListThreadsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ForkRun starts a new Run from another Run's state at a turn boundary
     * (time travel): the fork holds everything the source's earlier turns
     * did, tool results included, so none of those calls is made again, and
     * makes the chosen turn and what follows itself. The source is only
     * read. The fork runs the source's Spec Version or a newer one of the
     * same Spec, optionally with a new user message. With a `request_id`,
     * repeating the same request returns the same fork. Fails RUN_NOT_FOUND
     * for an unknown source and INVALID_REQUEST for a point that is not a
     * turn boundary (the violation names the boundaries there are).
     * </pre>
     */
    public void forkRun(dev.runsvc.v1.ForkRunRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ForkRunResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getForkRunMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * <pre>
   * RunService starts Runs of published Specs and follows, steers and answers
   * them. A Run's truth is its append-only log of Records.
   * </pre>
   */
  public static final class RunServiceBlockingStub extends io.grpc.stub.AbstractBlockingStub<RunServiceBlockingStub> {
    private RunServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RunServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RunServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * StartRun admits a Run of a Spec. With a `request_id`, repeating the same
     * request returns the same Run; reusing the id with another body fails
     * ALREADY_EXISTS / REQUEST_ID_REUSED.
     * </pre>
     */
    public dev.runsvc.v1.StartRunResponse startRun(dev.runsvc.v1.StartRunRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getStartRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetRun returns a Run's current state. Fails NOT_FOUND / RUN_NOT_FOUND.
     * </pre>
     */
    public dev.runsvc.v1.GetRunResponse getRun(dev.runsvc.v1.GetRunRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListRuns lists Runs, newest first, filtered by state, Spec or parent.
     * </pre>
     */
    public dev.runsvc.v1.ListRunsResponse listRuns(dev.runsvc.v1.ListRunsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListRunsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * WatchRun streams a Run's Records from `from_seq`, then live as they are
     * appended, and ends OK after the Record that settles the Run.
     * </pre>
     */
    public java.util.Iterator<dev.runsvc.v1.WatchRunResponse> watchRun(
        dev.runsvc.v1.WatchRunRequest request) {
      return io.grpc.stub.ClientCalls.blockingServerStreamingCall(
          getChannel(), getWatchRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * StreamText streams the assistant's text as the Run records it and ends
     * OK when the Run completes. A Run that ends without an answer ends the
     * stream with FAILED_PRECONDITION: RUN_FAILED, RUN_ABORTED or
     * RUN_ENDED_WITHOUT_ANSWER.
     * </pre>
     */
    public java.util.Iterator<dev.runsvc.v1.StreamTextResponse> streamText(
        dev.runsvc.v1.StreamTextRequest request) {
      return io.grpc.stub.ClientCalls.blockingServerStreamingCall(
          getChannel(), getStreamTextMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * WaitRun returns when the Run settles or suspends, or when `wait`
     * elapses, OK either way: read the returned Run's state.
     * </pre>
     */
    public dev.runsvc.v1.WaitRunResponse waitRun(dev.runsvc.v1.WaitRunRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getWaitRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * SendMessage queues a user message for a Run: a steer is given to the
     * model at its next call, a follow-up after its current answer. Fails
     * RUN_ALREADY_SETTLED on a settled Run.
     * </pre>
     */
    public dev.runsvc.v1.SendMessageResponse sendMessage(dev.runsvc.v1.SendMessageRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getSendMessageMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ResumeRun answers a suspended Run: tool results, an answer to a question
     * or an approval. Fails RUN_NOT_SUSPENDED when it waits for nothing, and
     * SUSPENSION_EXPIRED (settling the Run ABANDONED) after the expiry.
     * </pre>
     */
    public dev.runsvc.v1.ResumeRunResponse resumeRun(dev.runsvc.v1.ResumeRunRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getResumeRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * InterruptRun stops a Run: it settles ABORTED with cause INTERRUPTED, and
     * its delegated children are interrupted too. A no-op on a settled Run.
     * </pre>
     */
    public dev.runsvc.v1.InterruptRunResponse interruptRun(dev.runsvc.v1.InterruptRunRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getInterruptRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetReport returns a Run with its usage, its ending and its failure as
     * data, and optionally its children's reports.
     * </pre>
     */
    public dev.runsvc.v1.GetReportResponse getReport(dev.runsvc.v1.GetReportRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetReportMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DeleteRun deletes a settled Run for good, with its log, the request id
     * that started it, its worker tool calls and, when its Spec's retention
     * says `delete_memory`, the family memory it roots; its children stay, no
     * longer linked to it. Afterwards every read of the Run is NOT_FOUND. An
     * active Run fails FAILED_PRECONDITION / RUN_NOT_SETTLED and nothing
     * changes, unless `interrupt` is set: then it is interrupted, and deleted
     * once it settled. With `spec` instead of `run_id`, every settled Run of
     * that Spec is deleted the same way. Needs the admin role.
     * </pre>
     */
    public dev.runsvc.v1.DeleteRunResponse deleteRun(dev.runsvc.v1.DeleteRunRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDeleteRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ExportRun streams a settled or active Run's whole log with its Spec
     * Version as JSON Lines, one line per response (docs/export.md).
     * </pre>
     */
    public java.util.Iterator<dev.runsvc.v1.ExportRunResponse> exportRun(
        dev.runsvc.v1.ExportRunRequest request) {
      return io.grpc.stub.ClientCalls.blockingServerStreamingCall(
          getChannel(), getExportRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetThread returns a thread: its active Run, its last settled Run and how
     * many Runs were started on it. A thread exists once a StartRun named it.
     * Fails NOT_FOUND / THREAD_NOT_FOUND for a thread no Run used.
     * </pre>
     */
    public dev.runsvc.v1.GetThreadResponse getThread(dev.runsvc.v1.GetThreadRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetThreadMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListThreads lists the caller's threads, newest first.
     * </pre>
     */
    public dev.runsvc.v1.ListThreadsResponse listThreads(dev.runsvc.v1.ListThreadsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListThreadsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ForkRun starts a new Run from another Run's state at a turn boundary
     * (time travel): the fork holds everything the source's earlier turns
     * did, tool results included, so none of those calls is made again, and
     * makes the chosen turn and what follows itself. The source is only
     * read. The fork runs the source's Spec Version or a newer one of the
     * same Spec, optionally with a new user message. With a `request_id`,
     * repeating the same request returns the same fork. Fails RUN_NOT_FOUND
     * for an unknown source and INVALID_REQUEST for a point that is not a
     * turn boundary (the violation names the boundaries there are).
     * </pre>
     */
    public dev.runsvc.v1.ForkRunResponse forkRun(dev.runsvc.v1.ForkRunRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getForkRunMethod(), getCallOptions(), request);
    }
  }

  /**
   * <pre>
   * RunService starts Runs of published Specs and follows, steers and answers
   * them. A Run's truth is its append-only log of Records.
   * </pre>
   */
  public static final class RunServiceFutureStub extends io.grpc.stub.AbstractFutureStub<RunServiceFutureStub> {
    private RunServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RunServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RunServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * StartRun admits a Run of a Spec. With a `request_id`, repeating the same
     * request returns the same Run; reusing the id with another body fails
     * ALREADY_EXISTS / REQUEST_ID_REUSED.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.StartRunResponse> startRun(
        dev.runsvc.v1.StartRunRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getStartRunMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetRun returns a Run's current state. Fails NOT_FOUND / RUN_NOT_FOUND.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.GetRunResponse> getRun(
        dev.runsvc.v1.GetRunRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetRunMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListRuns lists Runs, newest first, filtered by state, Spec or parent.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.ListRunsResponse> listRuns(
        dev.runsvc.v1.ListRunsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListRunsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * WaitRun returns when the Run settles or suspends, or when `wait`
     * elapses, OK either way: read the returned Run's state.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.WaitRunResponse> waitRun(
        dev.runsvc.v1.WaitRunRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getWaitRunMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * SendMessage queues a user message for a Run: a steer is given to the
     * model at its next call, a follow-up after its current answer. Fails
     * RUN_ALREADY_SETTLED on a settled Run.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.SendMessageResponse> sendMessage(
        dev.runsvc.v1.SendMessageRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getSendMessageMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ResumeRun answers a suspended Run: tool results, an answer to a question
     * or an approval. Fails RUN_NOT_SUSPENDED when it waits for nothing, and
     * SUSPENSION_EXPIRED (settling the Run ABANDONED) after the expiry.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.ResumeRunResponse> resumeRun(
        dev.runsvc.v1.ResumeRunRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getResumeRunMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * InterruptRun stops a Run: it settles ABORTED with cause INTERRUPTED, and
     * its delegated children are interrupted too. A no-op on a settled Run.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.InterruptRunResponse> interruptRun(
        dev.runsvc.v1.InterruptRunRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getInterruptRunMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetReport returns a Run with its usage, its ending and its failure as
     * data, and optionally its children's reports.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.GetReportResponse> getReport(
        dev.runsvc.v1.GetReportRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetReportMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * DeleteRun deletes a settled Run for good, with its log, the request id
     * that started it, its worker tool calls and, when its Spec's retention
     * says `delete_memory`, the family memory it roots; its children stay, no
     * longer linked to it. Afterwards every read of the Run is NOT_FOUND. An
     * active Run fails FAILED_PRECONDITION / RUN_NOT_SETTLED and nothing
     * changes, unless `interrupt` is set: then it is interrupted, and deleted
     * once it settled. With `spec` instead of `run_id`, every settled Run of
     * that Spec is deleted the same way. Needs the admin role.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.DeleteRunResponse> deleteRun(
        dev.runsvc.v1.DeleteRunRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDeleteRunMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetThread returns a thread: its active Run, its last settled Run and how
     * many Runs were started on it. A thread exists once a StartRun named it.
     * Fails NOT_FOUND / THREAD_NOT_FOUND for a thread no Run used.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.GetThreadResponse> getThread(
        dev.runsvc.v1.GetThreadRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetThreadMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListThreads lists the caller's threads, newest first.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.ListThreadsResponse> listThreads(
        dev.runsvc.v1.ListThreadsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListThreadsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ForkRun starts a new Run from another Run's state at a turn boundary
     * (time travel): the fork holds everything the source's earlier turns
     * did, tool results included, so none of those calls is made again, and
     * makes the chosen turn and what follows itself. The source is only
     * read. The fork runs the source's Spec Version or a newer one of the
     * same Spec, optionally with a new user message. With a `request_id`,
     * repeating the same request returns the same fork. Fails RUN_NOT_FOUND
     * for an unknown source and INVALID_REQUEST for a point that is not a
     * turn boundary (the violation names the boundaries there are).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.ForkRunResponse> forkRun(
        dev.runsvc.v1.ForkRunRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getForkRunMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_START_RUN = 0;
  private static final int METHODID_GET_RUN = 1;
  private static final int METHODID_LIST_RUNS = 2;
  private static final int METHODID_WATCH_RUN = 3;
  private static final int METHODID_STREAM_TEXT = 4;
  private static final int METHODID_WAIT_RUN = 5;
  private static final int METHODID_SEND_MESSAGE = 6;
  private static final int METHODID_RESUME_RUN = 7;
  private static final int METHODID_INTERRUPT_RUN = 8;
  private static final int METHODID_GET_REPORT = 9;
  private static final int METHODID_DELETE_RUN = 10;
  private static final int METHODID_EXPORT_RUN = 11;
  private static final int METHODID_GET_THREAD = 12;
  private static final int METHODID_LIST_THREADS = 13;
  private static final int METHODID_FORK_RUN = 14;
  private static final int METHODID_IMPORT_RUN = 15;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final RunServiceImplBase serviceImpl;
    private final int methodId;

    MethodHandlers(RunServiceImplBase serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_START_RUN:
          serviceImpl.startRun((dev.runsvc.v1.StartRunRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.StartRunResponse>) responseObserver);
          break;
        case METHODID_GET_RUN:
          serviceImpl.getRun((dev.runsvc.v1.GetRunRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.GetRunResponse>) responseObserver);
          break;
        case METHODID_LIST_RUNS:
          serviceImpl.listRuns((dev.runsvc.v1.ListRunsRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ListRunsResponse>) responseObserver);
          break;
        case METHODID_WATCH_RUN:
          serviceImpl.watchRun((dev.runsvc.v1.WatchRunRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.WatchRunResponse>) responseObserver);
          break;
        case METHODID_STREAM_TEXT:
          serviceImpl.streamText((dev.runsvc.v1.StreamTextRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.StreamTextResponse>) responseObserver);
          break;
        case METHODID_WAIT_RUN:
          serviceImpl.waitRun((dev.runsvc.v1.WaitRunRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.WaitRunResponse>) responseObserver);
          break;
        case METHODID_SEND_MESSAGE:
          serviceImpl.sendMessage((dev.runsvc.v1.SendMessageRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.SendMessageResponse>) responseObserver);
          break;
        case METHODID_RESUME_RUN:
          serviceImpl.resumeRun((dev.runsvc.v1.ResumeRunRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ResumeRunResponse>) responseObserver);
          break;
        case METHODID_INTERRUPT_RUN:
          serviceImpl.interruptRun((dev.runsvc.v1.InterruptRunRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.InterruptRunResponse>) responseObserver);
          break;
        case METHODID_GET_REPORT:
          serviceImpl.getReport((dev.runsvc.v1.GetReportRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.GetReportResponse>) responseObserver);
          break;
        case METHODID_DELETE_RUN:
          serviceImpl.deleteRun((dev.runsvc.v1.DeleteRunRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.DeleteRunResponse>) responseObserver);
          break;
        case METHODID_EXPORT_RUN:
          serviceImpl.exportRun((dev.runsvc.v1.ExportRunRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ExportRunResponse>) responseObserver);
          break;
        case METHODID_GET_THREAD:
          serviceImpl.getThread((dev.runsvc.v1.GetThreadRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.GetThreadResponse>) responseObserver);
          break;
        case METHODID_LIST_THREADS:
          serviceImpl.listThreads((dev.runsvc.v1.ListThreadsRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ListThreadsResponse>) responseObserver);
          break;
        case METHODID_FORK_RUN:
          serviceImpl.forkRun((dev.runsvc.v1.ForkRunRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ForkRunResponse>) responseObserver);
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
        case METHODID_IMPORT_RUN:
          return (io.grpc.stub.StreamObserver<Req>) serviceImpl.importRun(
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ImportRunResponse>) responseObserver);
        default:
          throw new AssertionError();
      }
    }
  }

  private static abstract class RunServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    RunServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.runsvc.v1.RunProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("RunService");
    }
  }

  private static final class RunServiceFileDescriptorSupplier
      extends RunServiceBaseDescriptorSupplier {
    RunServiceFileDescriptorSupplier() {}
  }

  private static final class RunServiceMethodDescriptorSupplier
      extends RunServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final String methodName;

    RunServiceMethodDescriptorSupplier(String methodName) {
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
      synchronized (RunServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new RunServiceFileDescriptorSupplier())
              .addMethod(getStartRunMethod())
              .addMethod(getGetRunMethod())
              .addMethod(getListRunsMethod())
              .addMethod(getWatchRunMethod())
              .addMethod(getStreamTextMethod())
              .addMethod(getWaitRunMethod())
              .addMethod(getSendMessageMethod())
              .addMethod(getResumeRunMethod())
              .addMethod(getInterruptRunMethod())
              .addMethod(getGetReportMethod())
              .addMethod(getDeleteRunMethod())
              .addMethod(getExportRunMethod())
              .addMethod(getImportRunMethod())
              .addMethod(getGetThreadMethod())
              .addMethod(getListThreadsMethod())
              .addMethod(getForkRunMethod())
              .build();
        }
      }
    }
    return result;
  }
}
