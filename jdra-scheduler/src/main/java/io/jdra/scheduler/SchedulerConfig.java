package io.jdra.scheduler;

import io.jdra.scheduler.plugins.dynamicresources.DynamicResourcesArgs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The parts of a {@code KubeSchedulerConfiguration} ({@code kubescheduler.config.k8s.io/v1}) jdra
 * honours: {@code percentageOfNodesToScore}, {@code parallelism}, {@code
 * leaderElection.leaderElect}, the first profile's {@code schedulerName}, and {@code
 * DynamicResourcesArgs} ({@code filterTimeout}, {@code bindingTimeout}) in its {@code
 * pluginConfig}. Other fields are accepted and ignored, as they configure plugins jdra does not
 * have; unknown top-level fields and wrong types are errors naming the field.
 *
 * @param leaderElect null when the file does not say
 */
public record SchedulerConfig(
    String schedulerName,
    Integer percentageOfNodesToScore,
    Integer parallelism,
    Boolean leaderElect,
    DynamicResourcesArgs dynamicResources) {

  private static final ObjectMapper YAML = YAMLMapper.builder().build();
  private static final java.util.Set<String> TOP_LEVEL =
      java.util.Set.of(
          "apiVersion",
          "kind",
          "percentageOfNodesToScore",
          "parallelism",
          "leaderElection",
          "profiles",
          "clientConnection",
          "podInitialBackoffSeconds",
          "podMaxBackoffSeconds",
          "extenders",
          "delayCacheUntilActive",
          "enableProfiling",
          "enableContentionProfiling",
          "debuggingConfiguration");

  /** Reads and checks a file; the message of the exception says what and where. */
  public static SchedulerConfig read(Path file) {
    try {
      return parse(Files.readString(file));
    } catch (IOException e) {
      throw new IllegalArgumentException("read " + file + ": " + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  public static SchedulerConfig parse(String yaml) {
    JsonNode root;
    try {
      root = YAML.readTree(yaml);
    } catch (JacksonException e) {
      throw new IllegalArgumentException("not YAML: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("expected a KubeSchedulerConfiguration object");
    }
    String apiVersion = text(root, "apiVersion");
    if (!"kubescheduler.config.k8s.io/v1".equals(apiVersion)) {
      throw new IllegalArgumentException(
          "apiVersion: Unsupported value: \""
              + apiVersion
              + "\": supported values: \"kubescheduler.config.k8s.io/v1\"");
    }
    if (!"KubeSchedulerConfiguration".equals(text(root, "kind"))) {
      throw new IllegalArgumentException("kind: must be KubeSchedulerConfiguration");
    }
    for (Iterator<String> it = root.propertyNames().iterator(); it.hasNext(); ) {
      String f = it.next();
      if (!TOP_LEVEL.contains(f)) {
        throw new IllegalArgumentException("unknown field \"" + f + "\"");
      }
    }
    Integer pct = integer(root, "percentageOfNodesToScore");
    if (pct != null && (pct < 0 || pct > 100)) {
      throw new IllegalArgumentException(
          "percentageOfNodesToScore: Invalid value: " + pct + ": not in valid range [0-100]");
    }
    Integer par = integer(root, "parallelism");
    if (par != null && par <= 0) {
      throw new IllegalArgumentException(
          "parallelism: Invalid value: " + par + ": should be an integer value greater than zero");
    }
    Boolean leader = null;
    JsonNode le = root.get("leaderElection");
    if (le != null && le.has("leaderElect")) {
      if (!le.get("leaderElect").isBoolean()) {
        throw new IllegalArgumentException("leaderElection.leaderElect: must be a boolean");
      }
      leader = le.get("leaderElect").asBoolean();
    }
    String name = null;
    DynamicResourcesArgs dra = null;
    JsonNode profiles = root.get("profiles");
    if (profiles != null) {
      if (!profiles.isArray()) {
        throw new IllegalArgumentException("profiles: must be a list");
      }
      if (profiles.size() > 1) {
        throw new IllegalArgumentException(
            "profiles: jdra runs one profile, got " + profiles.size());
      }
      if (profiles.size() == 1) {
        JsonNode p = profiles.get(0);
        name = text(p, "schedulerName");
        dra = pluginArgs(p.get("pluginConfig"));
      }
    }
    return new SchedulerConfig(name, pct, par, leader, dra);
  }

  private static DynamicResourcesArgs pluginArgs(JsonNode pluginConfig) {
    if (pluginConfig == null) {
      return null;
    }
    for (int i = 0; i < pluginConfig.size(); i++) {
      JsonNode pc = pluginConfig.get(i);
      if (!"DynamicResources".equals(text(pc, "name"))) {
        continue;
      }
      String path = "profiles[0].pluginConfig[" + i + "].args";
      JsonNode args = pc.get("args");
      Duration filter = DynamicResourcesArgs.DEFAULT_FILTER_TIMEOUT;
      Duration binding = DynamicResourcesArgs.DEFAULT_BINDING_TIMEOUT;
      if (args != null) {
        if (args.has("filterTimeout")) {
          filter = goDuration(args.get("filterTimeout").asString(), path + ".filterTimeout");
        }
        if (args.has("bindingTimeout")) {
          binding = goDuration(args.get("bindingTimeout").asString(), path + ".bindingTimeout");
        }
      }
      try {
        return new DynamicResourcesArgs(filter, binding);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(path + ": " + e.getMessage());
      }
    }
    return null;
  }

  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");

  /** A Go duration string ("10s", "1m30s", "500ms", "0"). */
  static Duration goDuration(String s, String path) {
    if (s == null || s.isEmpty()) {
      throw new IllegalArgumentException(path + ": Invalid value: \"\": not a duration");
    }
    if (s.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = PART.matcher(s);
    int pos = 0;
    double nanos = 0;
    while (m.find() && m.start() == pos) {
      double v = Double.parseDouble(m.group(1));
      nanos +=
          v
              * Map.of("ns", 1d, "us", 1e3, "µs", 1e3, "ms", 1e6, "s", 1e9, "m", 60e9, "h", 3600e9)
                  .get(m.group(2));
      pos = m.end();
    }
    if (pos != s.length()) {
      throw new IllegalArgumentException(
          path + ": Invalid value: \"" + s + "\": time: invalid duration \"" + s + "\"");
    }
    return Duration.ofNanos((long) nanos);
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asString();
  }

  private static Integer integer(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isIntegralNumber()) {
      throw new IllegalArgumentException(field + ": must be an integer, got " + v);
    }
    return v.asInt();
  }

  /** These settings applied to options (the file wins where it says something). */
  public SchedulerOptions applyTo(SchedulerOptions o) {
    SchedulerOptions r = o;
    if (schedulerName != null) {
      r = r.withSchedulerName(schedulerName);
    }
    if (percentageOfNodesToScore != null) {
      r = r.withPercentageOfNodesToScore(percentageOfNodesToScore);
    }
    if (parallelism != null) {
      r = r.withParallelism(parallelism);
    }
    if (dynamicResources != null) {
      r = r.withDynamicResources(dynamicResources);
    }
    return r;
  }
}
