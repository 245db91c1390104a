package dev.runsvc.scenario;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs testdata/scenarios.json through the Java client, in one JVM: every scenario at once, each
 * on the default server (its address is the second argument) or on the server its setting names
 * in RUNSVC_SCENARIO_SERVERS. Prints one JSON line per scenario, {"name", "verdict": "pass",
 * "fail" or "skip", "problems", "got"}; java_test.go turns them into subtests.
 *
 * <p>Usage: java -cp runsvc-client.jar:classes dev.runsvc.scenario.Main scenarios.json host:port
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    JsonObject file = JsonParser.parseString(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8)).getAsJsonObject();
    String suite = "java-" + UUID.randomUUID().toString().substring(0, 12);
    List<ManagedChannel> channels = new ArrayList<>();
    Map<String, Runner> runners = new HashMap<>();
    runners.put("", new Runner(open(args[1], channels), suite, Map.of()));
    String env = System.getenv("RUNSVC_SCENARIO_SERVERS");
    if (env != null && !env.isEmpty()) {
      for (Map.Entry<String, JsonElement> e : JsonParser.parseString(env).getAsJsonObject().entrySet()) {
        JsonObject started = e.getValue().getAsJsonObject();
        Map<String, String> vars = new HashMap<>();
        if (started.has("vars")) {
          for (Map.Entry<String, JsonElement> v : started.getAsJsonObject("vars").entrySet()) {
            vars.put(v.getKey(), v.getValue().getAsString());
          }
        }
        runners.put(e.getKey(), new Runner(open(started.get("addr").getAsString(), channels), suite, vars));
      }
    }
    List<JsonElement> specs = new ArrayList<>();
    file.getAsJsonArray("specs").forEach(specs::add);
    runners.get("").setup(specs);
    List<Scenario> scenarios = new ArrayList<>();
    for (JsonElement e : file.getAsJsonArray("scenarios")) {
      scenarios.add(new Scenario(e.getAsJsonObject()));
    }
    report(scenarios, runners);
    for (ManagedChannel ch : channels) {
      ch.shutdownNow();
    }
    System.exit(0);
  }

  private static ManagedChannel open(String addr, List<ManagedChannel> channels) {
    ManagedChannel ch = Grpc.newChannelBuilder(addr, InsecureChannelCredentials.create()).build();
    channels.add(ch);
    return ch;
  }

  /** Runs every scenario at once, then prints each one's verdict in the file's order. */
  private static void report(List<Scenario> scenarios, Map<String, Runner> runners) throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, scenarios.size()));
    List<Future<Map<String, Object>>> results = new ArrayList<>();
    for (Scenario s : scenarios) {
      results.add(pool.submit(() -> verdict(s, runners.get(s.server))));
    }
    Gson gson = new Gson();
    for (Future<Map<String, Object>> f : results) {
      try {
        System.out.println(gson.toJson(f.get()));
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException(e.getCause());
      }
    }
    System.out.flush();
    pool.shutdownNow();
  }

  private static Map<String, Object> verdict(Scenario s, Runner runner) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", s.name);
    List<String> problems = new ArrayList<>();
    String got = "";
    if (runner == null) {
      out.put("verdict", "skip");
      problems.add("server setting " + s.server + " has no server: RUNSVC_SCENARIO_SERVERS does not name it");
    } else {
      try {
        Scenario.Outcome o = new Steps(runner, s).run();
        for (String p : s.problems(o)) {
          problems.add(s.reason + ": " + p);
        }
        got = o.c + " pushback=" + o.c.pushback();
      } catch (Runner.ScenarioError | RuntimeException e) {
        problems.add("could not run: " + e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        problems.add("interrupted");
      }
      out.put("verdict", problems.isEmpty() ? "pass" : "fail");
    }
    out.put("problems", problems);
    out.put("got", got);
    return out;
  }
}
