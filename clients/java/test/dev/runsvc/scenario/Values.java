package dev.runsvc.scenario;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The scenario language's values: substitution, durations, dotted paths, Go's formatting. */
final class Values {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]+)\\}");
  private static final Pattern LIST = Pattern.compile("\"\\$\\{list:([^}:]*):([0-9]+)\\}\"");
  private static final Pattern DURATION_PART =
      Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|ms|s|m|h)");

  private Values() {}

  /**
   * Fills ${name} from variables and ${repeat:C:N} with C repeated N times; a JSON string that is
   * exactly "${list:C:N}" becomes an array of N strings "C"; unknown names stay as they are.
   */
  static String substitute(String s, Map<String, String> variables) {
    Matcher lm = LIST.matcher(s);
    StringBuilder lists = new StringBuilder();
    while (lm.find()) {
      String item = "\"" + lm.group(1) + "\"";
      String array = "[" + String.join(",", Collections.nCopies(Integer.parseInt(lm.group(2)), item)) + "]";
      lm.appendReplacement(lists, Matcher.quoteReplacement(array));
    }
    lm.appendTail(lists);
    Matcher m = PLACEHOLDER.matcher(lists.toString());
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(fill(m.group(1), variables, m.group(0))));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static String fill(String name, Map<String, String> variables, String whole) {
    if (name.startsWith("repeat:")) {
      String rest = name.substring("repeat:".length());
      int colon = rest.indexOf(':');
      if (colon >= 0) {
        try {
          return rest.substring(0, colon).repeat(Integer.parseInt(rest.substring(colon + 1)));
        } catch (NumberFormatException e) {
          // not a count: fall through
        }
      }
    }
    return variables.getOrDefault(name, whole);
  }

  /** Parses a Go duration ("1.2s", "500ms", "1m30s") into milliseconds. */
  static long durationMillis(String s) {
    String text = s.trim();
    double sign = 1;
    if (!text.isEmpty() && (text.charAt(0) == '-' || text.charAt(0) == '+')) {
      sign = text.charAt(0) == '-' ? -1 : 1;
      text = text.substring(1);
    }
    if (text.equals("0")) {
      return 0;
    }
    Matcher m = DURATION_PART.matcher(text);
    double total = 0;
    int pos = 0;
    while (pos < text.length()) {
      if (!m.find(pos) || m.start() != pos) {
        throw new IllegalArgumentException("invalid duration " + s);
      }
      total += Double.parseDouble(m.group(1)) * unitMillis(m.group(2));
      pos = m.end();
    }
    if (text.isEmpty()) {
      throw new IllegalArgumentException("invalid duration " + s);
    }
    return Math.round(sign * total);
  }

  private static double unitMillis(String unit) {
    switch (unit) {
      case "ns":
        return 1e-6;
      case "us":
      case "µs":
        return 1e-3;
      case "ms":
        return 1;
      case "s":
        return 1e3;
      case "m":
        return 60e3;
      default:
        return 3600e3;
    }
  }

  /** Follows a dotted path through nested objects; null when absent. */
  static JsonElement lookup(JsonElement v, String path) {
    for (String part : path.split("\\.", -1)) {
      if (v == null || !v.isJsonObject()) {
        return null;
      }
      v = v.getAsJsonObject().get(part);
    }
    return v == null || v.isJsonNull() ? null : v;
  }

  /** Formats a JSON value as Go's fmt.Sprint does, for `until`. */
  static String goSprint(JsonElement v) {
    if (v == null || v.isJsonNull()) {
      return "<nil>";
    }
    if (v.isJsonObject()) {
      JsonObject o = v.getAsJsonObject();
      List<String> keys = new ArrayList<>(o.keySet());
      Collections.sort(keys);
      List<String> parts = new ArrayList<>();
      for (String k : keys) {
        parts.add(k + ":" + goSprint(o.get(k)));
      }
      return "map[" + String.join(" ", parts) + "]";
    }
    if (v.isJsonArray()) {
      JsonArray a = v.getAsJsonArray();
      List<String> parts = new ArrayList<>();
      for (JsonElement e : a) {
        parts.add(goSprint(e));
      }
      return "[" + String.join(" ", parts) + "]";
    }
    JsonPrimitive p = v.getAsJsonPrimitive();
    if (p.isNumber()) {
      BigDecimal d = p.getAsBigDecimal();
      if (d.signum() == 0 || d.stripTrailingZeros().scale() <= 0) {
        return d.toBigInteger().toString();
      }
      return Double.toString(d.doubleValue());
    }
    return p.getAsString();
  }
}
