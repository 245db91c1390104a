// RunsvcClient over TLS, compiled against nothing but runsvc-client.jar
// (java_test.go): with the server's CA and an API key a call reaches
// runsvc (GetRun of a missing Run is RUN_NOT_FOUND, not an auth error);
// without the key it is UNAUTHENTICATED; against another CA the handshake
// fails (UNAVAILABLE, no ErrorInfo).
//
// Usage: java -cp runsvc-client.jar:. Tls <host:port> <ca.pem> <other-ca.pem> <api key>
import dev.runsvc.client.Classification;
import dev.runsvc.client.Reasons;
import dev.runsvc.client.RunsvcClient;
import dev.runsvc.client.RunsvcErrors;
import dev.runsvc.v1.GetRunRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.File;
import java.util.concurrent.TimeUnit;

public class Tls {
  public static void main(String[] args) throws Exception {
    Classification ok = getRun(RunsvcClient.builder(args[0]).tls(new File(args[1])).apiKey(args[3]));
    System.out.println("with the key: " + ok);
    check(ok.reason().equals(Reasons.RUN_NOT_FOUND), "with the CA and the key, GetRun reaches runsvc");

    Classification noKey = getRun(RunsvcClient.builder(args[0]).tls(new File(args[1])).apiKey(""));
    System.out.println("without a key: " + noKey);
    check(noKey.code() == Status.Code.UNAUTHENTICATED, "without a key, UNAUTHENTICATED");

    Classification wrongCa = getRun(RunsvcClient.builder(args[0]).tls(new File(args[2])).apiKey(args[3]));
    System.out.println("another CA: " + wrongCa);
    check(wrongCa.code() == Status.Code.UNAVAILABLE && wrongCa.reason().isEmpty(), "another CA fails the handshake");
    System.out.println("OK");
  }

  static Classification getRun(RunsvcClient.Builder b) throws Exception {
    try (RunsvcClient client = b.build()) {
      client.runs().withDeadlineAfter(30, TimeUnit.SECONDS)
          .getRun(GetRunRequest.newBuilder().setRunId("run_missing").build());
    } catch (StatusRuntimeException e) {
      return RunsvcErrors.classify(e);
    }
    throw new IllegalStateException("GetRun of a missing Run succeeded");
  }

  static void check(boolean ok, String what) {
    if (!ok) {
      System.out.println("FAIL: " + what);
      System.exit(1);
    }
  }
}
