package dev.runsvc.client;

import dev.runsvc.v1.BusServiceGrpc;
import dev.runsvc.v1.DelegationServiceGrpc;
import dev.runsvc.v1.MemoryServiceGrpc;
import dev.runsvc.v1.RunServiceGrpc;
import dev.runsvc.v1.ScheduleServiceGrpc;
import dev.runsvc.v1.SpecServiceGrpc;
import dev.runsvc.v1.ToolServiceGrpc;
import dev.runsvc.v1.WebhookServiceGrpc;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ChannelCredentials;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.ForwardingClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.TlsChannelCredentials;
import java.io.File;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A channel to runsvc and its services' blocking stubs.
 *
 * <pre>{@code
 * try (RunsvcClient c = RunsvcClient.builder("127.0.0.1:50051").build()) {
 *   Run run = c.runs().startRun(StartRunRequest.newBuilder().setSpec("weather").build()).getRun();
 * }
 * }</pre>
 *
 * <p>The channel is plaintext when given no TLS setting and no API key (a loopback runsvc without a
 * keys file), otherwise TLS against the system's roots unless {@link Builder#plaintext} says so.
 * An API key ({@link Builder#apiKey}, else the {@code RUNSVC_TOKEN} environment variable) goes as
 * {@code authorization: Bearer <key>} on every call. TLS on Debian's jars needs netty-tcnative
 * ({@code libnetty-tcnative-java}, {@code libnetty-tcnative-jni}): grpc-netty negotiates HTTP/2
 * with ALPN, which Debian's netty offers only through OpenSSL.
 */
public final class RunsvcClient implements AutoCloseable {
  /** The address {@code runsvc serve} listens on by default. */
  public static final String DEFAULT_TARGET = "127.0.0.1:50051";

  private final ManagedChannel managed;
  private final Channel channel;

  private RunsvcClient(ManagedChannel managed, String apiKey) {
    this.managed = managed;
    this.channel =
        apiKey == null || apiKey.isEmpty()
            ? managed
            : ClientInterceptors.intercept(managed, bearer(apiKey));
  }

  /** Starts configuring a client of runsvc at {@code target} (host:port). */
  public static Builder builder(String target) {
    return new Builder(target);
  }

  /** The channel, with the API key on every call: for stubs of any service. */
  public Channel channel() {
    return channel;
  }

  /** A stub of any service, e.g. {@code stub(RunServiceGrpc::newStub)} for streams. */
  public <S> S stub(Function<Channel, S> factory) {
    return factory.apply(channel);
  }

  /** The RunService's blocking stub. */
  public RunServiceGrpc.RunServiceBlockingStub runs() {
    return RunServiceGrpc.newBlockingStub(channel);
  }

  /** The SpecService's blocking stub. */
  public SpecServiceGrpc.SpecServiceBlockingStub specs() {
    return SpecServiceGrpc.newBlockingStub(channel);
  }

  /** The ToolService's blocking stub (its ServeTools stream is on the async stub). */
  public ToolServiceGrpc.ToolServiceBlockingStub tools() {
    return ToolServiceGrpc.newBlockingStub(channel);
  }

  /** The MemoryService's blocking stub. */
  public MemoryServiceGrpc.MemoryServiceBlockingStub memory() {
    return MemoryServiceGrpc.newBlockingStub(channel);
  }

  /** The BusService's blocking stub. */
  public BusServiceGrpc.BusServiceBlockingStub bus() {
    return BusServiceGrpc.newBlockingStub(channel);
  }

  /** The DelegationService's blocking stub. */
  public DelegationServiceGrpc.DelegationServiceBlockingStub delegation() {
    return DelegationServiceGrpc.newBlockingStub(channel);
  }

  /** The ScheduleService's blocking stub. */
  public ScheduleServiceGrpc.ScheduleServiceBlockingStub schedules() {
    return ScheduleServiceGrpc.newBlockingStub(channel);
  }

  /** The WebhookService's blocking stub. */
  public WebhookServiceGrpc.WebhookServiceBlockingStub webhooks() {
    return WebhookServiceGrpc.newBlockingStub(channel);
  }

  /** Closes the channel, waiting up to 5 seconds for calls in flight. */
  @Override
  public void close() {
    managed.shutdown();
    try {
      if (!managed.awaitTermination(5, TimeUnit.SECONDS)) {
        managed.shutdownNow();
      }
    } catch (InterruptedException e) {
      managed.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  /** An interceptor that sends {@code authorization: Bearer <key>} on every call. */
  public static ClientInterceptor bearer(String apiKey) {
    Metadata.Key<String> auth = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    String value = "Bearer " + apiKey;
    return new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(
          MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        return new ForwardingClientCall.SimpleForwardingClientCall<Q, R>(
            next.newCall(method, options)) {
          @Override
          public void start(Listener<R> listener, Metadata headers) {
            headers.put(auth, value);
            super.start(listener, headers);
          }
        };
      }
    };
  }

  /** Configures a {@link RunsvcClient}. */
  public static final class Builder {
    private final String target;
    private String apiKey = System.getenv("RUNSVC_TOKEN");
    private Boolean tls;
    private File ca;
    private File cert;
    private File key;

    private Builder(String target) {
      this.target = target;
    }

    /** Sends {@code authorization: Bearer <key>} on every call (default: $RUNSVC_TOKEN). */
    public Builder apiKey(String key) {
      this.apiKey = key;
      return this;
    }

    /** Plaintext HTTP/2, even with an API key: for a runsvc on loopback. */
    public Builder plaintext() {
      this.tls = false;
      return this;
    }

    /** TLS, verifying the server against the system's roots. */
    public Builder tls() {
      this.tls = true;
      return this;
    }

    /** TLS, verifying the server against the CA certificates of a PEM file. */
    public Builder tls(File caPem) {
      this.tls = true;
      this.ca = caPem;
      return this;
    }

    /** Mutual TLS: also presents a certificate chain and its PKCS#8 key (PEM files). */
    public Builder clientCertificate(File certPem, File keyPem) {
      this.tls = true;
      this.cert = certPem;
      this.key = keyPem;
      return this;
    }

    /** Opens the channel (lazily: the first call connects). */
    public RunsvcClient build() throws IOException {
      boolean secure = tls != null ? tls : apiKey != null && !apiKey.isEmpty();
      ChannelCredentials creds = InsecureChannelCredentials.create();
      if (secure) {
        DebianTcnative.load();
        TlsChannelCredentials.Builder b = TlsChannelCredentials.newBuilder();
        if (ca != null) {
          b.trustManager(ca);
        }
        if (cert != null) {
          b.keyManager(cert, key);
        }
        creds = b.build();
      }
      return new RunsvcClient(Grpc.newChannelBuilder(target, creds).build(), apiKey);
    }
  }
}
