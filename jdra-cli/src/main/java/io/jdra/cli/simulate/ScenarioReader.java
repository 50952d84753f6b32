package io.jdra.cli.simulate;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.jdra.api.validation.FieldError;
import io.jdra.api.validation.Validation;
import io.jdra.cli.up.DeviceClasses;
import io.jdra.cli.up.DriverFlags;
import io.jdra.exampledriver.Flags;
import io.jdra.exampledriver.profiles.Profiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads and validates a scenario file. Every problem is reported with its field path ({@code
 * workload.pods[0].claims[1].count: must be > 0}); claim specs are defaulted and validated as the
 * API server would, with the API server's messages under the scenario's path.
 */
public final class ScenarioReader {
  private static final ObjectMapper YAML = YAMLMapper.builder().build();
  private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)/(s|m|h)");

  private final DriverFlags.Parser flagParser;
  private final Fields f = new Fields();
  private final ClaimReader claimReader = new ClaimReader(f);

  private ScenarioReader(DriverFlags.Parser flagParser) {
    this.flagParser = flagParser;
  }

  /**
   * Reads {@code file}.
   *
   * @param flagParser parses upstream example-driver flags (as {@code jdra example-driver})
   * @throws ScenarioException listing every problem
   */
  public static Scenario read(Path file, DriverFlags.Parser flagParser) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new ScenarioException(file.toString(), List.of("cannot read: " + e.getMessage()));
    }
    String base = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
    return parse(file.toString(), base, text, flagParser);
  }

  /** Parses scenario text; {@code defaultName} names it when it has no {@code name}. */
  public static Scenario parse(
      String source, String defaultName, String text, DriverFlags.Parser flagParser) {
    JsonNode root;
    try {
      root = YAML.readTree(text);
    } catch (JacksonException e) {
      throw new ScenarioException(source, List.of("not YAML: " + e.getOriginalMessage()));
    }
    ScenarioReader r = new ScenarioReader(flagParser);
    Scenario s = r.scenario(root, defaultName);
    if (!r.f.problems().isEmpty()) {
      throw new ScenarioException(source, r.f.problems());
    }
    return s;
  }

  private Scenario scenario(JsonNode root, String defaultName) {
    if (root == null || !root.isObject()) {
      f.problem("", "must be a mapping with cluster and workload");
      return null;
    }
    f.fields(root, "", "name", "seed", "duration", "sampleInterval", "cluster", "workload");
    String name = f.string(root, "name", "", defaultName);
    long seed = root.has("seed") ? f.integer(root, "seed", "", 1, Long.MIN_VALUE) : 1;
    Duration duration = f.duration(root, "duration", "", null, true);
    Duration sample = f.duration(root, "sampleInterval", "", null, true);
    JsonNode cluster = f.object(root, "cluster", "", true);
    List<Scenario.NodeGroup> nodes = new ArrayList<>();
    List<DeviceClass> classes = new ArrayList<>();
    if (cluster != null) {
      f.fields(cluster, "cluster", "nodes", "deviceClasses");
      JsonNode ns = f.array(cluster, "nodes", "cluster", true);
      for (int i = 0; ns != null && i < ns.size(); i++) {
        nodes.add(nodeGroup(ns.get(i), "cluster.nodes[" + i + "]"));
      }
      if (ns != null && ns.isEmpty()) {
        f.problem("cluster.nodes", "must have at least one node group");
      }
      JsonNode dc = f.array(cluster, "deviceClasses", "cluster", false);
      for (int i = 0; dc != null && i < dc.size(); i++) {
        classes.add(deviceClass(dc.get(i), "cluster.deviceClasses[" + i + "]"));
      }
    }
    Set<String> classNames = classNames(nodes, classes);
    JsonNode workload = f.object(root, "workload", "", true);
    List<Scenario.PodTemplate> pods = new ArrayList<>();
    List<Scenario.Deletion> deletions = new ArrayList<>();
    if (workload != null) {
      f.fields(workload, "workload", "pods", "deletions");
      JsonNode ps = f.array(workload, "pods", "workload", true);
      Set<String> seen = new LinkedHashSet<>();
      for (int i = 0; ps != null && i < ps.size(); i++) {
        String path = "workload.pods[" + i + "]";
        Scenario.PodTemplate t = podTemplate(ps.get(i), path, duration, classNames);
        if (t != null && !seen.add(t.name())) {
          f.problem(path + ".name", "duplicate name \"" + t.name() + "\"");
        }
        pods.add(t);
      }
      if (ps != null && ps.isEmpty()) {
        f.problem("workload.pods", "must have at least one pod template");
      }
      JsonNode ds = f.array(workload, "deletions", "workload", false);
      for (int i = 0; ds != null && i < ds.size(); i++) {
        deletions.add(deletion(ds.get(i), "workload.deletions[" + i + "]", seen));
      }
    }
    if (!f.problems().isEmpty()) {
      return null;
    }
    return new Scenario(name, seed, duration, sample, nodes, classes, pods, deletions);
  }

  private Set<String> classNames(List<Scenario.NodeGroup> nodes, List<DeviceClass> classes) {
    Set<String> names = new LinkedHashSet<>();
    for (Scenario.NodeGroup g : nodes) {
      if (g == null) {
        continue;
      }
      for (Scenario.Driver d : g.drivers()) {
        names.add(DeviceClasses.forProfile(d.profile(), "").getMetadata().getName());
      }
    }
    for (DeviceClass c : classes) {
      if (c != null) {
        names.add(c.getMetadata().getName());
      }
    }
    return names;
  }

  private Scenario.NodeGroup nodeGroup(JsonNode n, String path) {
    if (!f.isObject(n, path)) {
      return null;
    }
    f.fields(n, path, "name", "count", "capacity", "labels", "drivers");
    String name = f.string(n, "name", path, "node");
    f.checkName(name, path + ".name");
    int count = (int) f.integer(n, "count", path, 1, 1);
    Map<String, Quantity> capacity = new LinkedHashMap<>();
    capacity.put("cpu", new Quantity("64"));
    capacity.put("memory", new Quantity("512Gi"));
    capacity.put("pods", new Quantity("110"));
    capacity.putAll(f.quantities(n, "capacity", path));
    Map<String, String> labels = new LinkedHashMap<>();
    JsonNode l = f.object(n, "labels", path, false);
    if (l != null) {
      for (Map.Entry<String, JsonNode> e : l.properties()) {
        labels.put(e.getKey(), e.getValue().asString());
      }
    }
    List<Scenario.Driver> drivers = new ArrayList<>();
    JsonNode ds = f.array(n, "drivers", path, false);
    Set<String> profiles = new LinkedHashSet<>();
    for (int i = 0; ds != null && i < ds.size(); i++) {
      String dp = path + ".drivers[" + i + "]";
      Scenario.Driver d = driver(ds.get(i), dp);
      if (d != null && !profiles.add(d.profile())) {
        f.problem(dp + ".profile", "duplicate profile \"" + d.profile() + "\" on one node");
      }
      if (d != null) {
        drivers.add(d);
      }
    }
    return new Scenario.NodeGroup(name, count, capacity, labels, drivers);
  }

  private Scenario.Driver driver(JsonNode n, String path) {
    if (!f.isObject(n, path)) {
      return null;
    }
    f.fields(n, path, "profile", "numDevices", "flags");
    String profile = f.string(n, "profile", path, null);
    if (profile == null) {
      f.problem(path + ".profile", "required (one of " + Profiles.NAMES + ")");
      return null;
    }
    if (!Profiles.NAMES.contains(profile)) {
      f.problem(path + ".profile", "unknown profile \"" + profile + "\", one of " + Profiles.NAMES);
      return null;
    }
    List<String> flags = new ArrayList<>();
    if (n.has("numDevices")) {
      flags.add("--num-devices=" + f.integer(n, "numDevices", path, 8, 0));
    }
    JsonNode fs = f.array(n, "flags", path, false);
    for (int i = 0; fs != null && i < fs.size(); i++) {
      flags.add(fs.get(i).asString());
    }
    Scenario.Driver d = new Scenario.Driver(profile, flags);
    try {
      driverFlags(flagParser, d, "node-1");
    } catch (IllegalArgumentException e) {
      f.problem(path + ".flags", e.getMessage());
    }
    return d;
  }

  /** The example driver's flags for this driver on {@code node}. */
  static Flags driverFlags(DriverFlags.Parser parser, Scenario.Driver d, String node) {
    List<String> args = new ArrayList<>();
    args.add("--node-name=" + node);
    args.add("--device-profile=" + d.profile());
    for (String f : d.flags()) {
      String flag = f.contains("=") ? f.substring(0, f.indexOf('=')) : f;
      if (flag.equals("--node-name")
          || flag.equals("--device-profile")
          || flag.equals("--driver-name")) {
        throw new IllegalArgumentException(flag + " is set by the simulation; leave it out");
      }
    }
    args.addAll(d.flags());
    return parser.parse(args);
  }

  private DeviceClass deviceClass(JsonNode n, String path) {
    if (!f.isObject(n, path)) {
      return null;
    }
    DeviceClass c;
    try {
      c = Serialization.unmarshal(n.toString(), DeviceClass.class);
    } catch (RuntimeException e) {
      f.problem(path, "not a DeviceClass: " + e.getMessage());
      return null;
    }
    for (FieldError e : Validation.validateDeviceClass(c, ClaimReader.VALIDATION)) {
      f.problem(path + "." + e.field(), ClaimReader.body(e));
    }
    return c;
  }

  private Scenario.PodTemplate podTemplate(
      JsonNode n, String path, Duration end, Set<String> classNames) {
    if (!f.isObject(n, path)) {
      return null;
    }
    f.fields(
        n,
        path,
        "name",
        "count",
        "rate",
        "arrival",
        "start",
        "until",
        "runDuration",
        "deleteAfter",
        "pendingTimeout",
        "priority",
        "requests",
        "claims");
    String name = f.string(n, "name", path, null);
    if (name == null) {
      f.problem(path + ".name", "required");
      name = "pod";
    }
    f.checkName(name, path + ".name");
    int count = n.has("count") ? (int) f.integer(n, "count", path, 0, 1) : 0;
    double rate = rate(n, path);
    String arrival = f.string(n, "arrival", path, "poisson");
    if (!arrival.equals("poisson") && !arrival.equals("uniform")) {
      f.problem(path + ".arrival", "must be poisson or uniform, not \"" + arrival + "\"");
    }
    Duration start = f.duration(n, "start", path, Duration.ZERO, false);
    Duration until = f.duration(n, "until", path, null, true);
    if (!n.has("count") && !n.has("rate")) {
      f.problem(path, "needs count, rate or both");
    }
    if (n.has("rate") && !n.has("count") && until == null && end == null) {
      f.problem(path + ".rate", "without count needs until (or the scenario's duration)");
    }
    if (until != null && start != null && until.compareTo(start) <= 0) {
      f.problem(path + ".until", "must be after start");
    }
    Scenario.Dist run = dist(n.get("runDuration"), path + ".runDuration");
    Duration deleteAfter = f.duration(n, "deleteAfter", path, null, true);
    Duration pendingTimeout = f.duration(n, "pendingTimeout", path, null, true);
    int priority =
        n.has("priority") ? (int) f.integer(n, "priority", path, 0, Integer.MIN_VALUE) : 0;
    Map<String, Quantity> requests = f.quantities(n, "requests", path);
    List<Scenario.Claim> claims = new ArrayList<>();
    JsonNode cs = f.array(n, "claims", path, false);
    Set<String> claimNames = new LinkedHashSet<>();
    for (int i = 0; cs != null && i < cs.size(); i++) {
      String cp = path + ".claims[" + i + "]";
      Scenario.Claim c = claimReader.claim(cs.get(i), cp, name, classNames);
      if (c != null && !claimNames.add(c.name())) {
        f.problem(cp + ".name", "duplicate claim name \"" + c.name() + "\"");
      }
      claims.add(c);
    }
    return new Scenario.PodTemplate(
        name,
        count,
        rate,
        !arrival.equals("uniform"),
        start == null ? Duration.ZERO : start,
        until,
        run,
        deleteAfter,
        pendingTimeout,
        priority,
        requests,
        claims);
  }

  private Scenario.Deletion deletion(JsonNode n, String path, Set<String> templates) {
    if (!f.isObject(n, path)) {
      return null;
    }
    f.fields(n, path, "at", "template", "count", "phase");
    Duration at = f.duration(n, "at", path, null, false);
    if (at == null && !n.has("at")) {
      f.problem(path + ".at", "required");
    }
    String template = f.string(n, "template", path, null);
    if (template == null) {
      f.problem(path + ".template", "required");
    } else if (!templates.contains(template)) {
      f.problem(
          path + ".template", "no pod template \"" + template + "\" (known: " + templates + ")");
    }
    int count = n.has("count") ? (int) f.integer(n, "count", path, 0, 1) : 0;
    String phase = f.string(n, "phase", path, "Any");
    if (!List.of("Pending", "Running", "Any").contains(phase)) {
      f.problem(path + ".phase", "must be Pending, Running or Any, not \"" + phase + "\"");
    }
    return new Scenario.Deletion(at == null ? Duration.ZERO : at, template, count, phase);
  }

  private double rate(JsonNode n, String path) {
    if (!n.has("rate")) {
      return 0;
    }
    String s = n.get("rate").asString();
    Matcher m = RATE.matcher(s);
    if (!m.matches() || Double.parseDouble(m.group(1)) <= 0) {
      f.problem(path + ".rate", "must be like 30/h, 2/m or 0.5/s and > 0, not \"" + s + "\"");
      return 0;
    }
    double per = Map.of("s", 1.0, "m", 60.0, "h", 3600.0).get(m.group(2));
    return Double.parseDouble(m.group(1)) / per;
  }

  private Scenario.Dist dist(JsonNode n, String path) {
    if (n == null || n.isNull()) {
      return null;
    }
    if (n.isString()) {
      Duration d = f.parseDuration(n.asString(), path);
      return d == null ? null : new Scenario.Fixed(d);
    }
    if (n.isObject() && n.size() == 1 && n.has("exponential")) {
      Duration d = f.parseDuration(n.get("exponential").asString(), path + ".exponential");
      return d == null ? null : new Scenario.Exponential(d);
    }
    if (n.isObject() && n.size() == 1 && n.has("uniform")) {
      JsonNode u = n.get("uniform");
      if (!u.isArray() || u.size() != 2) {
        f.problem(path + ".uniform", "must be [MIN, MAX], e.g. [10m, 30m]");
        return null;
      }
      Duration lo = f.parseDuration(u.get(0).asString(), path + ".uniform[0]");
      Duration hi = f.parseDuration(u.get(1).asString(), path + ".uniform[1]");
      if (lo != null && hi != null && hi.compareTo(lo) < 0) {
        f.problem(path + ".uniform", "MAX must not be less than MIN");
        return null;
      }
      return lo == null || hi == null ? null : new Scenario.Uniform(lo, hi);
    }
    f.problem(path, "must be a duration (30m), {exponential: 30m} or {uniform: [10m, 50m]}");
    return null;
  }
}
