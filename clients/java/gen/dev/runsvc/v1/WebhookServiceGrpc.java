package dev.runsvc.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * WebhookService manages a tenant's webhook subscriptions: endpoints that
 * runsvc calls back, signed per the Standard Webhooks spec, when a Run
 * settles or suspends. Events are written to a durable outbox in the
 * transaction of the Record that causes them and delivered at least once,
 * with backoff, for a bounded period; then they are dead-lettered and can
 * be redelivered by hand. Only the admin role may call it.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class WebhookServiceGrpc {

  private WebhookServiceGrpc() {}

  public static final String SERVICE_NAME = "runsvc.v1.WebhookService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.CreateWebhookRequest,
      dev.runsvc.v1.CreateWebhookResponse> getCreateWebhookMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CreateWebhook",
      requestType = dev.runsvc.v1.CreateWebhookRequest.class,
      responseType = dev.runsvc.v1.CreateWebhookResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.CreateWebhookRequest,
      dev.runsvc.v1.CreateWebhookResponse> getCreateWebhookMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.CreateWebhookRequest, dev.runsvc.v1.CreateWebhookResponse> getCreateWebhookMethod;
    if ((getCreateWebhookMethod = WebhookServiceGrpc.getCreateWebhookMethod) == null) {
      synchronized (WebhookServiceGrpc.class) {
        if ((getCreateWebhookMethod = WebhookServiceGrpc.getCreateWebhookMethod) == null) {
          WebhookServiceGrpc.getCreateWebhookMethod = getCreateWebhookMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.CreateWebhookRequest, dev.runsvc.v1.CreateWebhookResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CreateWebhook"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.CreateWebhookRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.CreateWebhookResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WebhookServiceMethodDescriptorSupplier("CreateWebhook"))
              .build();
        }
      }
    }
    return getCreateWebhookMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.GetWebhookRequest,
      dev.runsvc.v1.GetWebhookResponse> getGetWebhookMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetWebhook",
      requestType = dev.runsvc.v1.GetWebhookRequest.class,
      responseType = dev.runsvc.v1.GetWebhookResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.GetWebhookRequest,
      dev.runsvc.v1.GetWebhookResponse> getGetWebhookMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.GetWebhookRequest, dev.runsvc.v1.GetWebhookResponse> getGetWebhookMethod;
    if ((getGetWebhookMethod = WebhookServiceGrpc.getGetWebhookMethod) == null) {
      synchronized (WebhookServiceGrpc.class) {
        if ((getGetWebhookMethod = WebhookServiceGrpc.getGetWebhookMethod) == null) {
          WebhookServiceGrpc.getGetWebhookMethod = getGetWebhookMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.GetWebhookRequest, dev.runsvc.v1.GetWebhookResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetWebhook"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetWebhookRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.GetWebhookResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WebhookServiceMethodDescriptorSupplier("GetWebhook"))
              .build();
        }
      }
    }
    return getGetWebhookMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ListWebhooksRequest,
      dev.runsvc.v1.ListWebhooksResponse> getListWebhooksMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListWebhooks",
      requestType = dev.runsvc.v1.ListWebhooksRequest.class,
      responseType = dev.runsvc.v1.ListWebhooksResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ListWebhooksRequest,
      dev.runsvc.v1.ListWebhooksResponse> getListWebhooksMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ListWebhooksRequest, dev.runsvc.v1.ListWebhooksResponse> getListWebhooksMethod;
    if ((getListWebhooksMethod = WebhookServiceGrpc.getListWebhooksMethod) == null) {
      synchronized (WebhookServiceGrpc.class) {
        if ((getListWebhooksMethod = WebhookServiceGrpc.getListWebhooksMethod) == null) {
          WebhookServiceGrpc.getListWebhooksMethod = getListWebhooksMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ListWebhooksRequest, dev.runsvc.v1.ListWebhooksResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListWebhooks"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListWebhooksRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListWebhooksResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WebhookServiceMethodDescriptorSupplier("ListWebhooks"))
              .build();
        }
      }
    }
    return getListWebhooksMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.UpdateWebhookRequest,
      dev.runsvc.v1.UpdateWebhookResponse> getUpdateWebhookMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "UpdateWebhook",
      requestType = dev.runsvc.v1.UpdateWebhookRequest.class,
      responseType = dev.runsvc.v1.UpdateWebhookResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.UpdateWebhookRequest,
      dev.runsvc.v1.UpdateWebhookResponse> getUpdateWebhookMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.UpdateWebhookRequest, dev.runsvc.v1.UpdateWebhookResponse> getUpdateWebhookMethod;
    if ((getUpdateWebhookMethod = WebhookServiceGrpc.getUpdateWebhookMethod) == null) {
      synchronized (WebhookServiceGrpc.class) {
        if ((getUpdateWebhookMethod = WebhookServiceGrpc.getUpdateWebhookMethod) == null) {
          WebhookServiceGrpc.getUpdateWebhookMethod = getUpdateWebhookMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.UpdateWebhookRequest, dev.runsvc.v1.UpdateWebhookResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "UpdateWebhook"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.UpdateWebhookRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.UpdateWebhookResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WebhookServiceMethodDescriptorSupplier("UpdateWebhook"))
              .build();
        }
      }
    }
    return getUpdateWebhookMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.DeleteWebhookRequest,
      dev.runsvc.v1.DeleteWebhookResponse> getDeleteWebhookMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DeleteWebhook",
      requestType = dev.runsvc.v1.DeleteWebhookRequest.class,
      responseType = dev.runsvc.v1.DeleteWebhookResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.DeleteWebhookRequest,
      dev.runsvc.v1.DeleteWebhookResponse> getDeleteWebhookMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.DeleteWebhookRequest, dev.runsvc.v1.DeleteWebhookResponse> getDeleteWebhookMethod;
    if ((getDeleteWebhookMethod = WebhookServiceGrpc.getDeleteWebhookMethod) == null) {
      synchronized (WebhookServiceGrpc.class) {
        if ((getDeleteWebhookMethod = WebhookServiceGrpc.getDeleteWebhookMethod) == null) {
          WebhookServiceGrpc.getDeleteWebhookMethod = getDeleteWebhookMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.DeleteWebhookRequest, dev.runsvc.v1.DeleteWebhookResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DeleteWebhook"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.DeleteWebhookRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.DeleteWebhookResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WebhookServiceMethodDescriptorSupplier("DeleteWebhook"))
              .build();
        }
      }
    }
    return getDeleteWebhookMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.RotateWebhookSecretRequest,
      dev.runsvc.v1.RotateWebhookSecretResponse> getRotateWebhookSecretMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "RotateWebhookSecret",
      requestType = dev.runsvc.v1.RotateWebhookSecretRequest.class,
      responseType = dev.runsvc.v1.RotateWebhookSecretResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.RotateWebhookSecretRequest,
      dev.runsvc.v1.RotateWebhookSecretResponse> getRotateWebhookSecretMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.RotateWebhookSecretRequest, dev.runsvc.v1.RotateWebhookSecretResponse> getRotateWebhookSecretMethod;
    if ((getRotateWebhookSecretMethod = WebhookServiceGrpc.getRotateWebhookSecretMethod) == null) {
      synchronized (WebhookServiceGrpc.class) {
        if ((getRotateWebhookSecretMethod = WebhookServiceGrpc.getRotateWebhookSecretMethod) == null) {
          WebhookServiceGrpc.getRotateWebhookSecretMethod = getRotateWebhookSecretMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.RotateWebhookSecretRequest, dev.runsvc.v1.RotateWebhookSecretResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "RotateWebhookSecret"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.RotateWebhookSecretRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.RotateWebhookSecretResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WebhookServiceMethodDescriptorSupplier("RotateWebhookSecret"))
              .build();
        }
      }
    }
    return getRotateWebhookSecretMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ListWebhookDeliveriesRequest,
      dev.runsvc.v1.ListWebhookDeliveriesResponse> getListWebhookDeliveriesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListWebhookDeliveries",
      requestType = dev.runsvc.v1.ListWebhookDeliveriesRequest.class,
      responseType = dev.runsvc.v1.ListWebhookDeliveriesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ListWebhookDeliveriesRequest,
      dev.runsvc.v1.ListWebhookDeliveriesResponse> getListWebhookDeliveriesMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ListWebhookDeliveriesRequest, dev.runsvc.v1.ListWebhookDeliveriesResponse> getListWebhookDeliveriesMethod;
    if ((getListWebhookDeliveriesMethod = WebhookServiceGrpc.getListWebhookDeliveriesMethod) == null) {
      synchronized (WebhookServiceGrpc.class) {
        if ((getListWebhookDeliveriesMethod = WebhookServiceGrpc.getListWebhookDeliveriesMethod) == null) {
          WebhookServiceGrpc.getListWebhookDeliveriesMethod = getListWebhookDeliveriesMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ListWebhookDeliveriesRequest, dev.runsvc.v1.ListWebhookDeliveriesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListWebhookDeliveries"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListWebhookDeliveriesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListWebhookDeliveriesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WebhookServiceMethodDescriptorSupplier("ListWebhookDeliveries"))
              .build();
        }
      }
    }
    return getListWebhookDeliveriesMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.ListWebhookAttemptsRequest,
      dev.runsvc.v1.ListWebhookAttemptsResponse> getListWebhookAttemptsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListWebhookAttempts",
      requestType = dev.runsvc.v1.ListWebhookAttemptsRequest.class,
      responseType = dev.runsvc.v1.ListWebhookAttemptsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.ListWebhookAttemptsRequest,
      dev.runsvc.v1.ListWebhookAttemptsResponse> getListWebhookAttemptsMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.ListWebhookAttemptsRequest, dev.runsvc.v1.ListWebhookAttemptsResponse> getListWebhookAttemptsMethod;
    if ((getListWebhookAttemptsMethod = WebhookServiceGrpc.getListWebhookAttemptsMethod) == null) {
      synchronized (WebhookServiceGrpc.class) {
        if ((getListWebhookAttemptsMethod = WebhookServiceGrpc.getListWebhookAttemptsMethod) == null) {
          WebhookServiceGrpc.getListWebhookAttemptsMethod = getListWebhookAttemptsMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.ListWebhookAttemptsRequest, dev.runsvc.v1.ListWebhookAttemptsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListWebhookAttempts"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListWebhookAttemptsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.ListWebhookAttemptsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WebhookServiceMethodDescriptorSupplier("ListWebhookAttempts"))
              .build();
        }
      }
    }
    return getListWebhookAttemptsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.runsvc.v1.RedeliverWebhookRequest,
      dev.runsvc.v1.RedeliverWebhookResponse> getRedeliverWebhookMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "RedeliverWebhook",
      requestType = dev.runsvc.v1.RedeliverWebhookRequest.class,
      responseType = dev.runsvc.v1.RedeliverWebhookResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.runsvc.v1.RedeliverWebhookRequest,
      dev.runsvc.v1.RedeliverWebhookResponse> getRedeliverWebhookMethod() {
    io.grpc.MethodDescriptor<dev.runsvc.v1.RedeliverWebhookRequest, dev.runsvc.v1.RedeliverWebhookResponse> getRedeliverWebhookMethod;
    if ((getRedeliverWebhookMethod = WebhookServiceGrpc.getRedeliverWebhookMethod) == null) {
      synchronized (WebhookServiceGrpc.class) {
        if ((getRedeliverWebhookMethod = WebhookServiceGrpc.getRedeliverWebhookMethod) == null) {
          WebhookServiceGrpc.getRedeliverWebhookMethod = getRedeliverWebhookMethod =
              io.grpc.MethodDescriptor.<dev.runsvc.v1.RedeliverWebhookRequest, dev.runsvc.v1.RedeliverWebhookResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "RedeliverWebhook"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.RedeliverWebhookRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.runsvc.v1.RedeliverWebhookResponse.getDefaultInstance()))
              .setSchemaDescriptor(new WebhookServiceMethodDescriptorSupplier("RedeliverWebhook"))
              .build();
        }
      }
    }
    return getRedeliverWebhookMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static WebhookServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<WebhookServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<WebhookServiceStub>() {
        @java.lang.Override
        public WebhookServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new WebhookServiceStub(channel, callOptions);
        }
      };
    return WebhookServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static WebhookServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<WebhookServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<WebhookServiceBlockingStub>() {
        @java.lang.Override
        public WebhookServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new WebhookServiceBlockingStub(channel, callOptions);
        }
      };
    return WebhookServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static WebhookServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<WebhookServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<WebhookServiceFutureStub>() {
        @java.lang.Override
        public WebhookServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new WebhookServiceFutureStub(channel, callOptions);
        }
      };
    return WebhookServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * WebhookService manages a tenant's webhook subscriptions: endpoints that
   * runsvc calls back, signed per the Standard Webhooks spec, when a Run
   * settles or suspends. Events are written to a durable outbox in the
   * transaction of the Record that causes them and delivered at least once,
   * with backoff, for a bounded period; then they are dead-lettered and can
   * be redelivered by hand. Only the admin role may call it.
   * </pre>
   */
  public static abstract class WebhookServiceImplBase implements io.grpc.BindableService {

    /**
     * <pre>
     * CreateWebhook creates a subscription and returns its signing secret,
     * shown this once. A URL that is not https (http only to networks
     * --allow-network lists), whose address the outbound network policy
     * refuses (169.254.169.254), or an unknown event type fails
     * INVALID_ARGUMENT / WEBHOOK_INVALID with a BadRequest.
     * </pre>
     */
    public void createWebhook(dev.runsvc.v1.CreateWebhookRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.CreateWebhookResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCreateWebhookMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetWebhook returns a subscription (never its secret), or NOT_FOUND /
     * WEBHOOK_NOT_FOUND.
     * </pre>
     */
    public void getWebhook(dev.runsvc.v1.GetWebhookRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetWebhookResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetWebhookMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListWebhooks lists the tenant's subscriptions, oldest first.
     * </pre>
     */
    public void listWebhooks(dev.runsvc.v1.ListWebhooksRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListWebhooksResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListWebhooksMethod(), responseObserver);
    }

    /**
     * <pre>
     * UpdateWebhook changes the fields update_mask names (url, event_types,
     * spec_filter, enabled); enabling a subscription clears why it was
     * disabled.
     * </pre>
     */
    public void updateWebhook(dev.runsvc.v1.UpdateWebhookRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.UpdateWebhookResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getUpdateWebhookMethod(), responseObserver);
    }

    /**
     * <pre>
     * DeleteWebhook deletes a subscription with its pending deliveries and
     * its delivery log.
     * </pre>
     */
    public void deleteWebhook(dev.runsvc.v1.DeleteWebhookRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.DeleteWebhookResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDeleteWebhookMethod(), responseObserver);
    }

    /**
     * <pre>
     * RotateWebhookSecret gives the subscription a new secret, returned this
     * once. The previous one stays active until previous_secret_ttl has
     * passed: until then every delivery carries both signatures.
     * </pre>
     */
    public void rotateWebhookSecret(dev.runsvc.v1.RotateWebhookSecretRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.RotateWebhookSecretResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getRotateWebhookSecretMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListWebhookDeliveries lists a subscription's deliveries (newest
     * first), or only its dead-lettered ones.
     * </pre>
     */
    public void listWebhookDeliveries(dev.runsvc.v1.ListWebhookDeliveriesRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListWebhookDeliveriesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListWebhookDeliveriesMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListWebhookAttempts is a subscription's delivery log, newest first:
     * every attempt with its HTTP status, latency and error.
     * </pre>
     */
    public void listWebhookAttempts(dev.runsvc.v1.ListWebhookAttemptsRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListWebhookAttemptsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListWebhookAttemptsMethod(), responseObserver);
    }

    /**
     * <pre>
     * RedeliverWebhook makes dead-lettered deliveries pending again, with a
     * new retry period: the one named, or every dead one when delivery_id is
     * empty.
     * </pre>
     */
    public void redeliverWebhook(dev.runsvc.v1.RedeliverWebhookRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.RedeliverWebhookResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getRedeliverWebhookMethod(), responseObserver);
    }

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
          .addMethod(
            getCreateWebhookMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.CreateWebhookRequest,
                dev.runsvc.v1.CreateWebhookResponse>(
                  this, METHODID_CREATE_WEBHOOK)))
          .addMethod(
            getGetWebhookMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.GetWebhookRequest,
                dev.runsvc.v1.GetWebhookResponse>(
                  this, METHODID_GET_WEBHOOK)))
          .addMethod(
            getListWebhooksMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.ListWebhooksRequest,
                dev.runsvc.v1.ListWebhooksResponse>(
                  this, METHODID_LIST_WEBHOOKS)))
          .addMethod(
            getUpdateWebhookMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.UpdateWebhookRequest,
                dev.runsvc.v1.UpdateWebhookResponse>(
                  this, METHODID_UPDATE_WEBHOOK)))
          .addMethod(
            getDeleteWebhookMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.DeleteWebhookRequest,
                dev.runsvc.v1.DeleteWebhookResponse>(
                  this, METHODID_DELETE_WEBHOOK)))
          .addMethod(
            getRotateWebhookSecretMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.RotateWebhookSecretRequest,
                dev.runsvc.v1.RotateWebhookSecretResponse>(
                  this, METHODID_ROTATE_WEBHOOK_SECRET)))
          .addMethod(
            getListWebhookDeliveriesMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.ListWebhookDeliveriesRequest,
                dev.runsvc.v1.ListWebhookDeliveriesResponse>(
                  this, METHODID_LIST_WEBHOOK_DELIVERIES)))
          .addMethod(
            getListWebhookAttemptsMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.ListWebhookAttemptsRequest,
                dev.runsvc.v1.ListWebhookAttemptsResponse>(
                  this, METHODID_LIST_WEBHOOK_ATTEMPTS)))
          .addMethod(
            getRedeliverWebhookMethod(),
            io.grpc.stub.ServerCalls.asyncUnaryCall(
              new MethodHandlers<
                dev.runsvc.v1.RedeliverWebhookRequest,
                dev.runsvc.v1.RedeliverWebhookResponse>(
                  this, METHODID_REDELIVER_WEBHOOK)))
          .build();
    }
  }

  /**
   * <pre>
   * WebhookService manages a tenant's webhook subscriptions: endpoints that
   * runsvc calls back, signed per the Standard Webhooks spec, when a Run
   * settles or suspends. Events are written to a durable outbox in the
   * transaction of the Record that causes them and delivered at least once,
   * with backoff, for a bounded period; then they are dead-lettered and can
   * be redelivered by hand. Only the admin role may call it.
   * </pre>
   */
  public static final class WebhookServiceStub extends io.grpc.stub.AbstractAsyncStub<WebhookServiceStub> {
    private WebhookServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected WebhookServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new WebhookServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateWebhook creates a subscription and returns its signing secret,
     * shown this once. A URL that is not https (http only to networks
     * --allow-network lists), whose address the outbound network policy
     * refuses (169.254.169.254), or an unknown event type fails
     * INVALID_ARGUMENT / WEBHOOK_INVALID with a BadRequest.
     * </pre>
     */
    public void createWebhook(dev.runsvc.v1.CreateWebhookRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.CreateWebhookResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCreateWebhookMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetWebhook returns a subscription (never its secret), or NOT_FOUND /
     * WEBHOOK_NOT_FOUND.
     * </pre>
     */
    public void getWebhook(dev.runsvc.v1.GetWebhookRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.GetWebhookResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetWebhookMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListWebhooks lists the tenant's subscriptions, oldest first.
     * </pre>
     */
    public void listWebhooks(dev.runsvc.v1.ListWebhooksRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListWebhooksResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListWebhooksMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * UpdateWebhook changes the fields update_mask names (url, event_types,
     * spec_filter, enabled); enabling a subscription clears why it was
     * disabled.
     * </pre>
     */
    public void updateWebhook(dev.runsvc.v1.UpdateWebhookRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.UpdateWebhookResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getUpdateWebhookMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * DeleteWebhook deletes a subscription with its pending deliveries and
     * its delivery log.
     * </pre>
     */
    public void deleteWebhook(dev.runsvc.v1.DeleteWebhookRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.DeleteWebhookResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDeleteWebhookMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * RotateWebhookSecret gives the subscription a new secret, returned this
     * once. The previous one stays active until previous_secret_ttl has
     * passed: until then every delivery carries both signatures.
     * </pre>
     */
    public void rotateWebhookSecret(dev.runsvc.v1.RotateWebhookSecretRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.RotateWebhookSecretResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getRotateWebhookSecretMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListWebhookDeliveries lists a subscription's deliveries (newest
     * first), or only its dead-lettered ones.
     * </pre>
     */
    public void listWebhookDeliveries(dev.runsvc.v1.ListWebhookDeliveriesRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListWebhookDeliveriesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListWebhookDeliveriesMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListWebhookAttempts is a subscription's delivery log, newest first:
     * every attempt with its HTTP status, latency and error.
     * </pre>
     */
    public void listWebhookAttempts(dev.runsvc.v1.ListWebhookAttemptsRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.ListWebhookAttemptsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListWebhookAttemptsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * RedeliverWebhook makes dead-lettered deliveries pending again, with a
     * new retry period: the one named, or every dead one when delivery_id is
     * empty.
     * </pre>
     */
    public void redeliverWebhook(dev.runsvc.v1.RedeliverWebhookRequest request,
        io.grpc.stub.StreamObserver<dev.runsvc.v1.RedeliverWebhookResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getRedeliverWebhookMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * <pre>
   * WebhookService manages a tenant's webhook subscriptions: endpoints that
   * runsvc calls back, signed per the Standard Webhooks spec, when a Run
   * settles or suspends. Events are written to a durable outbox in the
   * transaction of the Record that causes them and delivered at least once,
   * with backoff, for a bounded period; then they are dead-lettered and can
   * be redelivered by hand. Only the admin role may call it.
   * </pre>
   */
  public static final class WebhookServiceBlockingStub extends io.grpc.stub.AbstractBlockingStub<WebhookServiceBlockingStub> {
    private WebhookServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected WebhookServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new WebhookServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateWebhook creates a subscription and returns its signing secret,
     * shown this once. A URL that is not https (http only to networks
     * --allow-network lists), whose address the outbound network policy
     * refuses (169.254.169.254), or an unknown event type fails
     * INVALID_ARGUMENT / WEBHOOK_INVALID with a BadRequest.
     * </pre>
     */
    public dev.runsvc.v1.CreateWebhookResponse createWebhook(dev.runsvc.v1.CreateWebhookRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCreateWebhookMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetWebhook returns a subscription (never its secret), or NOT_FOUND /
     * WEBHOOK_NOT_FOUND.
     * </pre>
     */
    public dev.runsvc.v1.GetWebhookResponse getWebhook(dev.runsvc.v1.GetWebhookRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetWebhookMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListWebhooks lists the tenant's subscriptions, oldest first.
     * </pre>
     */
    public dev.runsvc.v1.ListWebhooksResponse listWebhooks(dev.runsvc.v1.ListWebhooksRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListWebhooksMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * UpdateWebhook changes the fields update_mask names (url, event_types,
     * spec_filter, enabled); enabling a subscription clears why it was
     * disabled.
     * </pre>
     */
    public dev.runsvc.v1.UpdateWebhookResponse updateWebhook(dev.runsvc.v1.UpdateWebhookRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getUpdateWebhookMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DeleteWebhook deletes a subscription with its pending deliveries and
     * its delivery log.
     * </pre>
     */
    public dev.runsvc.v1.DeleteWebhookResponse deleteWebhook(dev.runsvc.v1.DeleteWebhookRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDeleteWebhookMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * RotateWebhookSecret gives the subscription a new secret, returned this
     * once. The previous one stays active until previous_secret_ttl has
     * passed: until then every delivery carries both signatures.
     * </pre>
     */
    public dev.runsvc.v1.RotateWebhookSecretResponse rotateWebhookSecret(dev.runsvc.v1.RotateWebhookSecretRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getRotateWebhookSecretMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListWebhookDeliveries lists a subscription's deliveries (newest
     * first), or only its dead-lettered ones.
     * </pre>
     */
    public dev.runsvc.v1.ListWebhookDeliveriesResponse listWebhookDeliveries(dev.runsvc.v1.ListWebhookDeliveriesRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListWebhookDeliveriesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListWebhookAttempts is a subscription's delivery log, newest first:
     * every attempt with its HTTP status, latency and error.
     * </pre>
     */
    public dev.runsvc.v1.ListWebhookAttemptsResponse listWebhookAttempts(dev.runsvc.v1.ListWebhookAttemptsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListWebhookAttemptsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * RedeliverWebhook makes dead-lettered deliveries pending again, with a
     * new retry period: the one named, or every dead one when delivery_id is
     * empty.
     * </pre>
     */
    public dev.runsvc.v1.RedeliverWebhookResponse redeliverWebhook(dev.runsvc.v1.RedeliverWebhookRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getRedeliverWebhookMethod(), getCallOptions(), request);
    }
  }

  /**
   * <pre>
   * WebhookService manages a tenant's webhook subscriptions: endpoints that
   * runsvc calls back, signed per the Standard Webhooks spec, when a Run
   * settles or suspends. Events are written to a durable outbox in the
   * transaction of the Record that causes them and delivered at least once,
   * with backoff, for a bounded period; then they are dead-lettered and can
   * be redelivered by hand. Only the admin role may call it.
   * </pre>
   */
  public static final class WebhookServiceFutureStub extends io.grpc.stub.AbstractFutureStub<WebhookServiceFutureStub> {
    private WebhookServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected WebhookServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new WebhookServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateWebhook creates a subscription and returns its signing secret,
     * shown this once. A URL that is not https (http only to networks
     * --allow-network lists), whose address the outbound network policy
     * refuses (169.254.169.254), or an unknown event type fails
     * INVALID_ARGUMENT / WEBHOOK_INVALID with a BadRequest.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.CreateWebhookResponse> createWebhook(
        dev.runsvc.v1.CreateWebhookRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCreateWebhookMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetWebhook returns a subscription (never its secret), or NOT_FOUND /
     * WEBHOOK_NOT_FOUND.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.GetWebhookResponse> getWebhook(
        dev.runsvc.v1.GetWebhookRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetWebhookMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListWebhooks lists the tenant's subscriptions, oldest first.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.ListWebhooksResponse> listWebhooks(
        dev.runsvc.v1.ListWebhooksRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListWebhooksMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * UpdateWebhook changes the fields update_mask names (url, event_types,
     * spec_filter, enabled); enabling a subscription clears why it was
     * disabled.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.UpdateWebhookResponse> updateWebhook(
        dev.runsvc.v1.UpdateWebhookRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getUpdateWebhookMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * DeleteWebhook deletes a subscription with its pending deliveries and
     * its delivery log.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.DeleteWebhookResponse> deleteWebhook(
        dev.runsvc.v1.DeleteWebhookRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDeleteWebhookMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * RotateWebhookSecret gives the subscription a new secret, returned this
     * once. The previous one stays active until previous_secret_ttl has
     * passed: until then every delivery carries both signatures.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.RotateWebhookSecretResponse> rotateWebhookSecret(
        dev.runsvc.v1.RotateWebhookSecretRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getRotateWebhookSecretMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListWebhookDeliveries lists a subscription's deliveries (newest
     * first), or only its dead-lettered ones.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.ListWebhookDeliveriesResponse> listWebhookDeliveries(
        dev.runsvc.v1.ListWebhookDeliveriesRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListWebhookDeliveriesMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListWebhookAttempts is a subscription's delivery log, newest first:
     * every attempt with its HTTP status, latency and error.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.ListWebhookAttemptsResponse> listWebhookAttempts(
        dev.runsvc.v1.ListWebhookAttemptsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListWebhookAttemptsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * RedeliverWebhook makes dead-lettered deliveries pending again, with a
     * new retry period: the one named, or every dead one when delivery_id is
     * empty.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.runsvc.v1.RedeliverWebhookResponse> redeliverWebhook(
        dev.runsvc.v1.RedeliverWebhookRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getRedeliverWebhookMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_CREATE_WEBHOOK = 0;
  private static final int METHODID_GET_WEBHOOK = 1;
  private static final int METHODID_LIST_WEBHOOKS = 2;
  private static final int METHODID_UPDATE_WEBHOOK = 3;
  private static final int METHODID_DELETE_WEBHOOK = 4;
  private static final int METHODID_ROTATE_WEBHOOK_SECRET = 5;
  private static final int METHODID_LIST_WEBHOOK_DELIVERIES = 6;
  private static final int METHODID_LIST_WEBHOOK_ATTEMPTS = 7;
  private static final int METHODID_REDELIVER_WEBHOOK = 8;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final WebhookServiceImplBase serviceImpl;
    private final int methodId;

    MethodHandlers(WebhookServiceImplBase serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_CREATE_WEBHOOK:
          serviceImpl.createWebhook((dev.runsvc.v1.CreateWebhookRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.CreateWebhookResponse>) responseObserver);
          break;
        case METHODID_GET_WEBHOOK:
          serviceImpl.getWebhook((dev.runsvc.v1.GetWebhookRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.GetWebhookResponse>) responseObserver);
          break;
        case METHODID_LIST_WEBHOOKS:
          serviceImpl.listWebhooks((dev.runsvc.v1.ListWebhooksRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ListWebhooksResponse>) responseObserver);
          break;
        case METHODID_UPDATE_WEBHOOK:
          serviceImpl.updateWebhook((dev.runsvc.v1.UpdateWebhookRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.UpdateWebhookResponse>) responseObserver);
          break;
        case METHODID_DELETE_WEBHOOK:
          serviceImpl.deleteWebhook((dev.runsvc.v1.DeleteWebhookRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.DeleteWebhookResponse>) responseObserver);
          break;
        case METHODID_ROTATE_WEBHOOK_SECRET:
          serviceImpl.rotateWebhookSecret((dev.runsvc.v1.RotateWebhookSecretRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.RotateWebhookSecretResponse>) responseObserver);
          break;
        case METHODID_LIST_WEBHOOK_DELIVERIES:
          serviceImpl.listWebhookDeliveries((dev.runsvc.v1.ListWebhookDeliveriesRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ListWebhookDeliveriesResponse>) responseObserver);
          break;
        case METHODID_LIST_WEBHOOK_ATTEMPTS:
          serviceImpl.listWebhookAttempts((dev.runsvc.v1.ListWebhookAttemptsRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.ListWebhookAttemptsResponse>) responseObserver);
          break;
        case METHODID_REDELIVER_WEBHOOK:
          serviceImpl.redeliverWebhook((dev.runsvc.v1.RedeliverWebhookRequest) request,
              (io.grpc.stub.StreamObserver<dev.runsvc.v1.RedeliverWebhookResponse>) responseObserver);
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

  private static abstract class WebhookServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    WebhookServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.runsvc.v1.WebhookProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("WebhookService");
    }
  }

  private static final class WebhookServiceFileDescriptorSupplier
      extends WebhookServiceBaseDescriptorSupplier {
    WebhookServiceFileDescriptorSupplier() {}
  }

  private static final class WebhookServiceMethodDescriptorSupplier
      extends WebhookServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final String methodName;

    WebhookServiceMethodDescriptorSupplier(String methodName) {
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
      synchronized (WebhookServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new WebhookServiceFileDescriptorSupplier())
              .addMethod(getCreateWebhookMethod())
              .addMethod(getGetWebhookMethod())
              .addMethod(getListWebhooksMethod())
              .addMethod(getUpdateWebhookMethod())
              .addMethod(getDeleteWebhookMethod())
              .addMethod(getRotateWebhookSecretMethod())
              .addMethod(getListWebhookDeliveriesMethod())
              .addMethod(getListWebhookAttemptsMethod())
              .addMethod(getRedeliverWebhookMethod())
              .build();
        }
      }
    }
    return result;
  }
}
