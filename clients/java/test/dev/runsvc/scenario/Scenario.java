package dev.runsvc.scenario;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.rpc.RetryInfo;
import dev.runsvc.client.Classification;
import dev.runsvc.client.Reasons;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** One reason, provoked: a scenario of testdata/scenarios.json and what its status must carry. */
final class Scenario {
  final String name;
  final String reason;
  final String code;
  final boolean retryable;
  final List<String> metadataKeys = new ArrayList<>();
  final Map<String, String> metadata = new TreeMap<>();
  final String message;
  final String server;
  final String apiKey;
  final List<JsonObject> steps = new ArrayList<>();

  Scenario(JsonObject o) {
    name = str(o, "name");
    reason = str(o, "reason");
    code = str(o, "code");
    retryable = o.has("retryable") && o.get("retryable").getAsBoolean();
    message = str(o, "message");
    server = str(o, "server");
    apiKey = str(o, "apiKey");
    if (o.has("metadataKeys")) {
      for (JsonElement k : o.getAsJsonArray("metadataKeys")) {
        metadataKeys.add(k.getAsString());
      }
    }
    if (o.has("metadata")) {
      for (Map.Entry<String, JsonElement> e : o.getAsJsonObject("metadata").entrySet()) {
        metadata.put(e.getKey(), e.getValue().getAsString());
      }
    }
    JsonArray s = o.has("steps") ? o.getAsJsonArray("steps") : new JsonArray();
    for (JsonElement e : s) {
      steps.add(e.getAsJsonObject());
    }
  }

  static String str(JsonObject o, String key) {
    JsonElement v = o.get(key);
    return v == null || v.isJsonNull() ? "" : v.getAsString();
  }

  /** The status a scenario produced. */
  static final class Outcome {
    final Classification c;
    final boolean rpc;
    final String wireMessage;

    Outcome(Classification c, boolean rpc, String wireMessage) {
      this.c = c;
      this.rpc = rpc;
      this.wireMessage = wireMessage;
    }
  }

  /** Compares an outcome with what the scenario expects; empty when it holds. */
  List<String> problems(Outcome o) {
    Classification c = o.c;
    List<String> out = new ArrayList<>();
    if (!c.code().name().equals(code)) {
      out.add("code " + c.code() + ", want " + code);
    }
    if (!c.reason().equals(reason)) {
      out.add("reason " + c.reason() + ", want " + reason);
    }
    if (!c.domain().equals(Reasons.DEFAULT_DOMAIN)) {
      out.add("domain " + c.domain() + ", want " + Reasons.DEFAULT_DOMAIN);
    }
    List<String> keys = new ArrayList<>(c.metadata().keySet());
    List<String> want = new ArrayList<>(metadataKeys);
    keys.sort(null);
    want.sort(null);
    if (!keys.equals(want)) {
      out.add("metadata keys " + keys + ", want " + want);
    }
    for (Map.Entry<String, String> e : metadata.entrySet()) {
      if (!e.getValue().equals(c.metadata().get(e.getKey()))) {
        out.add("metadata " + e.getKey() + "=" + c.metadata().get(e.getKey()) + ", want " + e.getValue());
      }
    }
    if (c.retryable() != retryable) {
      out.add("retryable " + c.retryable() + ", want " + retryable);
    }
    if (!message.isEmpty() && !c.message().equals(message)) {
      out.add("message " + c.message() + ", want " + message);
    }
    if (!message.isEmpty() && o.rpc && !message.equals(o.wireMessage)) {
      out.add("grpc-message " + o.wireMessage + ", want " + message);
    }
    if (o.rpc) {
      String wantPushback = c.retryable() ? String.valueOf(delayMillis(c)) : "-1";
      String got = Objects.requireNonNullElse(c.pushback(), "");
      if (!got.equals(wantPushback)) {
        out.add("pushback trailer " + got + ", want " + wantPushback);
      }
    }
    return out;
  }

  /** RetryInfo's delay in whole milliseconds, as the server writes the pushback trailer. */
  static long delayMillis(Classification c) {
    RetryInfo ri = c.detail(RetryInfo.class);
    return ri.getRetryDelay().getSeconds() * 1000 + ri.getRetryDelay().getNanos() / 1_000_000;
  }
}
