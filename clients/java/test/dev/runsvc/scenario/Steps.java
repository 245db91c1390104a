package dev.runsvc.scenario;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.runsvc.client.RunsvcErrors;
import dev.runsvc.scenario.Runner.Result;
import dev.runsvc.scenario.Runner.ScenarioError;
import io.grpc.Channel;
import io.grpc.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a scenario's steps: {@code call} (with {@code save}, {@code until} and {@code check}),
 * {@code sleep}, {@code hold}, and a bare {@code check} of the last response.
 */
final class Steps {
  private final Runner runner;
  private final Scenario s;
  private final Channel ch;
  private final Map<String, String> variables;
  private final List<Context.CancellableContext> held = new ArrayList<>();
  private JsonElement last;

  Steps(Runner runner, Scenario s) {
    this.runner = runner;
    this.s = s;
    this.ch = runner.withKey(s.apiKey);
    this.variables = runner.startVariables();
  }

  /** Runs the steps to the check and returns its status; streams held end with it. */
  Scenario.Outcome run() throws ScenarioError, InterruptedException {
    try {
      for (int i = 0; i < s.steps.size(); i++) {
        Scenario.Outcome o = step(i, s.steps.get(i));
        if (o != null) {
          return o;
        }
      }
      throw new ScenarioError("the scenario has no check step");
    } finally {
      for (Context.CancellableContext c : held) {
        c.cancel(null);
      }
    }
  }

  /** Runs one step; the outcome when it is the check, else null. */
  private Scenario.Outcome step(int i, JsonObject step) throws ScenarioError, InterruptedException {
    String sleep = Scenario.str(step, "sleep");
    if (!sleep.isEmpty()) {
      Thread.sleep(Values.durationMillis(sleep));
      return null;
    }
    String call = Scenario.str(step, "call");
    String check = Scenario.str(step, "check");
    if (call.isEmpty()) {
      return statusAt(check);
    }
    JsonElement request = step.has("request") ? step.get("request") : new JsonObject();
    String req = Values.substitute(request.toString(), variables);
    if (step.has("hold") && step.get("hold").getAsBoolean()) {
      try {
        held.add(Runner.hold(ch, call, req));
      } catch (io.grpc.StatusRuntimeException e) {
        throw new ScenarioError("step " + i + " (holding " + call + "): " + e.getStatus());
      }
      return null;
    }
    if (check.equals("error")) {
      Result r = Runner.call(ch, call, req);
      if (r.error == null) {
        throw new ScenarioError("step " + i + " (" + call + ") succeeded; the scenario expects an error");
      }
      return new Scenario.Outcome(RunsvcErrors.classify(r.error), true, Runner.wireMessage(r.error));
    }
    callUntil(i, step, call, req);
    save(i, step);
    return check.isEmpty() ? null : statusAt(check);
  }

  /** Calls until the step's `until` paths hold (at once without any), up to 30 s. */
  private void callUntil(int i, JsonObject step, String call, String req) throws ScenarioError, InterruptedException {
    long deadline = System.nanoTime() + Runner.UNTIL_TIMEOUT_MS * 1_000_000;
    while (true) {
      Result r = Runner.call(ch, call, req);
      if (r.error != null) {
        throw new ScenarioError("step " + i + " (" + call + " " + abbreviate(req) + "): " + r.error.getStatus());
      }
      last = r.response;
      if (matches(step.has("until") ? step.getAsJsonObject("until") : null)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new ScenarioError("step " + i + " (" + call + "): " + step.get("until") + " never held; last response " + last);
      }
      Thread.sleep(Runner.POLL_INTERVAL_MS);
    }
  }

  private boolean matches(JsonObject until) {
    if (until == null) {
      return true;
    }
    for (Map.Entry<String, JsonElement> e : until.entrySet()) {
      if (!Values.goSprint(Values.lookup(last, e.getKey())).equals(e.getValue().getAsString())) {
        return false;
      }
    }
    return true;
  }

  private void save(int i, JsonObject step) throws ScenarioError {
    if (!step.has("save")) {
      return;
    }
    for (Map.Entry<String, JsonElement> e : step.getAsJsonObject("save").entrySet()) {
      String path = e.getValue().getAsString();
      JsonElement v = Values.lookup(last, path);
      if (v == null || !v.isJsonPrimitive() || !v.getAsJsonPrimitive().isString()) {
        throw new ScenarioError("step " + i + ": no string at " + path + " in " + last);
      }
      variables.put(e.getKey(), v.getAsString());
    }
  }

  private Scenario.Outcome statusAt(String path) throws ScenarioError {
    JsonElement v = last == null ? null : Values.lookup(last, path);
    if (v == null) {
      throw new ScenarioError("no status at " + path + " in " + last);
    }
    return new Scenario.Outcome(RunsvcErrors.classify(Runner.status(v, path)), false, "");
  }

  private static String abbreviate(String s) {
    return s.length() <= 200 ? s : s.substring(0, 200);
  }
}
