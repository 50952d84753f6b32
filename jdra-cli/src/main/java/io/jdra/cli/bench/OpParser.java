package io.jdra.cli.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns one op of a workload template into an {@link Op}: a field {@code x} is given literally or
 * as {@code xParam: $name}, a reference to the workload's params; template parameters may be {@code
 * $name} or {@code $name|default}. Unknown opcodes and fields are errors (upstream reads the file
 * strictly too), naming the workload, the op and the field.
 */
final class OpParser {
  private static final Pattern GO_DURATION =
      Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");
  private static final Map<String, Set<String>> FIELDS =
      Map.ofEntries(
          Map.entry("createNodes", Set.of("count", "nodeTemplatePath")),
          Map.entry("createResourceDriver", Set.of("driverName", "nodes", "maxClaimsPerNode")),
          Map.entry("createAny", Set.of("templatePath", "count", "namespace", "templateParams")),
          Map.entry("allocResourceClaims", Set.of("namespace")),
          Map.entry(
              "createPods",
              Set.of(
                  "count",
                  "namespace",
                  "podTemplatePath",
                  "collectMetrics",
                  "skipWaitToCompletion",
                  "steadyState",
                  "duration")),
          Map.entry("barrier", Set.of("namespaces", "stageRequirement")),
          Map.entry("churn", Set.of("mode", "templatePaths", "intervalMilliseconds", "number")),
          Map.entry("sleep", Set.of("duration")),
          Map.entry("startCollectingMetrics", Set.of("namespaces", "name")),
          Map.entry("stopCollectingMetrics", Set.of()));

  private final String where;
  private final Map<String, Object> raw;
  private final Map<String, Object> params;

  private OpParser(String where, Map<String, Object> raw, Map<String, Object> params) {
    this.where = where;
    this.raw = raw;
    this.params = params;
  }

  static Op parse(String workload, int index, Map<String, Object> raw, Map<String, Object> params) {
    String opcode = String.valueOf(raw.get("opcode"));
    String where = workload + ": op " + index + " (" + opcode + ")";
    Set<String> known = FIELDS.get(opcode);
    if (known == null) {
      throw new IllegalArgumentException(
          where + ": opcode " + opcode + " is not supported; supported: " + FIELDS.keySet());
    }
    for (String k : raw.keySet()) {
      String field = k.endsWith("Param") ? k.substring(0, k.length() - 5) : k;
      if (!k.equals("opcode") && !known.contains(field)) {
        throw new IllegalArgumentException(where + ": unknown field " + k);
      }
    }
    OpParser p = new OpParser(where, raw, params);
    String defaultNs = "namespace-" + index; // upstream's name for a createPods op's namespace
    return switch (opcode) {
      case "createNodes" -> new Op.CreateNodes(p.integer("count", null), p.str("nodeTemplatePath"));
      case "createResourceDriver" ->
          new Op.CreateResourceDriver(
              p.required(p.str("driverName"), "driverName"),
              p.required(p.str("nodes"), "nodes"),
              p.integer("maxClaimsPerNode", null));
      case "createAny" ->
          new Op.CreateAny(
              p.required(p.str("templatePath"), "templatePath"),
              p.has("count") ? p.integer("count", null) : null,
              p.str("namespace"),
              p.templateParams());
      case "allocResourceClaims" ->
          new Op.AllocResourceClaims(p.required(p.str("namespace"), "namespace"));
      case "createPods" ->
          new Op.CreatePods(
              p.str("namespace") == null ? defaultNs : p.str("namespace"),
              p.integer("count", null),
              p.str("podTemplatePath"),
              p.bool("collectMetrics"),
              p.bool("skipWaitToCompletion"),
              p.bool("steadyState"),
              p.has("duration") ? p.duration("duration") : Duration.ZERO);
      case "barrier" ->
          new Op.Barrier(
              p.strings("namespaces"),
              p.str("stageRequirement") == null ? "Scheduled" : p.str("stageRequirement"));
      case "churn" ->
          new Op.Churn(
              p.required(p.str("mode"), "mode"),
              p.strings("templatePaths"),
              Duration.ofMillis(p.integer("intervalMilliseconds", 500)),
              p.integer("number", 0));
      case "sleep" -> new Op.Sleep(p.duration("duration"));
      case "startCollectingMetrics" -> new Op.StartCollectingMetrics(p.strings("namespaces"));
      case "stopCollectingMetrics" -> new Op.StopCollectingMetrics();
      default -> throw new IllegalStateException(opcode);
    };
  }

  private boolean has(String field) {
    return raw.containsKey(field) || raw.containsKey(field + "Param");
  }

  /** The field's value, given literally or through {@code fieldParam: $name}. */
  private Object value(String field) {
    if (raw.containsKey(field)) {
      return raw.get(field);
    }
    Object ref = raw.get(field + "Param");
    if (ref == null) {
      return null;
    }
    return reference(String.valueOf(ref), field + "Param");
  }

  private Object reference(String ref, String field) {
    if (!ref.startsWith("$")) {
      throw new IllegalArgumentException(where + ": " + field + ": expected $name, got " + ref);
    }
    int bar = ref.indexOf('|');
    String name = ref.substring(1, bar < 0 ? ref.length() : bar);
    if (params.containsKey(name)) {
      return params.get(name);
    }
    if (bar >= 0) {
      return scalar(ref.substring(bar + 1));
    }
    throw new IllegalArgumentException(
        where + ": " + field + ": parameter " + name + " is not set by the workload");
  }

  private static Object scalar(String s) {
    if (s.isEmpty()) {
      return null;
    }
    if (s.matches("-?\\d+")) {
      return Long.parseLong(s);
    }
    return s.equals("true") || s.equals("false") ? Boolean.parseBoolean(s) : s;
  }

  private int integer(String field, Integer dflt) {
    Object v = value(field);
    if (v == null) {
      if (dflt == null) {
        throw new IllegalArgumentException(where + ": " + field + " is required");
      }
      return dflt;
    }
    if (v instanceof Number n) {
      return n.intValue();
    }
    throw new IllegalArgumentException(where + ": " + field + ": expected an integer, got " + v);
  }

  private String str(String field) {
    Object v = value(field);
    return v == null ? null : String.valueOf(v);
  }

  private <T> T required(T v, String field) {
    if (v == null) {
      throw new IllegalArgumentException(where + ": " + field + " is required");
    }
    return v;
  }

  private boolean bool(String field) {
    Object v = value(field);
    if (v == null || v instanceof Boolean) {
      return Boolean.TRUE.equals(v);
    }
    throw new IllegalArgumentException(where + ": " + field + ": expected true or false, got " + v);
  }

  private List<String> strings(String field) {
    Object v = value(field);
    if (v == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    PerfConfig.listOf(v, where + ": " + field).forEach(x -> out.add(String.valueOf(x)));
    return List.copyOf(out);
  }

  private Duration duration(String field) {
    Object v = value(field);
    if (v == null) {
      throw new IllegalArgumentException(where + ": " + field + " is required");
    }
    return goDuration(String.valueOf(v), where + ": " + field);
  }

  private Map<String, Object> templateParams() {
    Object v = raw.get("templateParams");
    if (v == null) {
      return Map.of();
    }
    Map<String, Object> out = new LinkedHashMap<>();
    PerfConfig.map(v, where + ": templateParams")
        .forEach((k, x) ->
            out.put(
                k,
                x instanceof String s && s.startsWith("$")
                    ? reference(s, "templateParams." + k)
                    : x));
    return java.util.Collections.unmodifiableMap(new HashMap<>(out));
  }

  /** A Go duration such as {@code 10s}, {@code 1m30s} or {@code 500ms}. */
  static Duration goDuration(String s, String where) {
    if (s.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = GO_DURATION.matcher(s);
    long nanos = 0;
    int pos = 0;
    while (m.find() && m.start() == pos) {
      double n = Double.parseDouble(m.group(1));
      double unit =
          switch (m.group(2)) {
            case "ns" -> 1;
            case "us", "µs" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "m" -> 60e9;
            default -> 3600e9;
          };
      nanos += (long) (n * unit);
      pos = m.end();
    }
    if (pos == 0 || pos != s.length()) {
      throw new IllegalArgumentException(where + ": not a duration (like 10s or 1m30s): " + s);
    }
    return Duration.ofNanos(nanos);
  }
}
