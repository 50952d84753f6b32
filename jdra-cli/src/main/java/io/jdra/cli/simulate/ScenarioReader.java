package io.jdra.cli.simulate;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CELDeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.jdra.api.defaulting.Defaults;
import io.jdra.api.features.FeatureGates;
import io.jdra.api.validation.FieldError;
import io.jdra.api.validation.Validation;
import io.jdra.api.validation.ValidationOptions;
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
  private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

  private static final ValidationOptions VALIDATION =
      ValidationOptions.defaults().withSelectorCompiler(new CelCheck(FeatureGates.defaults()));

  private final String source;
  private final DriverFlags.Parser flagParser;
  private final List<String> problems = new ArrayList<>();

  private ScenarioReader(String source, DriverFlags.Parser flagParser) {
    this.source = source;
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
    ScenarioReader r = new ScenarioReader(source, flagParser);
    Scenario s = r.scenario(root, defaultName);
    if (!r.problems.isEmpty()) {
      throw new ScenarioException(source, r.problems);
    }
    return s;
  }

  private Scenario scenario(JsonNode root, String defaultName) {
    if (root == null || !root.isObject()) {
      problem("", "must be a mapping with cluster and workload");
      return null;
    }
    fields(root, "", "name", "seed", "duration", "sampleInterval", "cluster", "workload");
    String name = string(root, "name", "", defaultName);
    long seed = root.has("seed") ? integer(root, "seed", "", 1, Long.MIN_VALUE) : 1;
    Duration duration = duration(root, "duration", "", null, true);
    Duration sample = duration(root, "sampleInterval", "", null, true);
    JsonNode cluster = object(root, "cluster", "", true);
    List<Scenario.NodeGroup> nodes = new ArrayList<>();
    List<DeviceClass> classes = new ArrayList<>();
    if (cluster != null) {
      fields(cluster, "cluster", "nodes", "deviceClasses");
      JsonNode ns = array(cluster, "nodes", "cluster", true);
      for (int i = 0; ns != null && i < ns.size(); i++) {
        nodes.add(nodeGroup(ns.get(i), "cluster.nodes[" + i + "]"));
      }
      if (ns != null && ns.isEmpty()) {
        problem("cluster.nodes", "must have at least one node group");
      }
      JsonNode dc = array(cluster, "deviceClasses", "cluster", false);
      for (int i = 0; dc != null && i < dc.size(); i++) {
        classes.add(deviceClass(dc.get(i), "cluster.deviceClasses[" + i + "]"));
      }
    }
    Set<String> classNames = classNames(nodes, classes);
    JsonNode workload = object(root, "workload", "", true);
    List<Scenario.PodTemplate> pods = new ArrayList<>();
    if (workload != null) {
      fields(workload, "workload", "pods");
      JsonNode ps = array(workload, "pods", "workload", true);
      Set<String> seen = new LinkedHashSet<>();
      for (int i = 0; ps != null && i < ps.size(); i++) {
        String path = "workload.pods[" + i + "]";
        Scenario.PodTemplate t = podTemplate(ps.get(i), path, duration, classNames);
        if (t != null && !seen.add(t.name())) {
          problem(path + ".name", "duplicate name \"" + t.name() + "\"");
        }
        pods.add(t);
      }
      if (ps != null && ps.isEmpty()) {
        problem("workload.pods", "must have at least one pod template");
      }
    }
    if (!problems.isEmpty()) {
      return null;
    }
    return new Scenario(name, seed, duration, sample, nodes, classes, pods);
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
    if (!isObject(n, path)) {
      return null;
    }
    fields(n, path, "name", "count", "capacity", "labels", "drivers");
    String name = string(n, "name", path, "node");
    checkName(name, path + ".name");
    int count = (int) integer(n, "count", path, 1, 1);
    Map<String, Quantity> capacity = new LinkedHashMap<>();
    capacity.put("cpu", new Quantity("64"));
    capacity.put("memory", new Quantity("512Gi"));
    capacity.put("pods", new Quantity("110"));
    capacity.putAll(quantities(n, "capacity", path));
    Map<String, String> labels = new LinkedHashMap<>();
    JsonNode l = object(n, "labels", path, false);
    if (l != null) {
      for (Map.Entry<String, JsonNode> e : l.properties()) {
        labels.put(e.getKey(), e.getValue().asString());
      }
    }
    List<Scenario.Driver> drivers = new ArrayList<>();
    JsonNode ds = array(n, "drivers", path, false);
    Set<String> profiles = new LinkedHashSet<>();
    for (int i = 0; ds != null && i < ds.size(); i++) {
      String dp = path + ".drivers[" + i + "]";
      Scenario.Driver d = driver(ds.get(i), dp);
      if (d != null && !profiles.add(d.profile())) {
        problem(dp + ".profile", "duplicate profile \"" + d.profile() + "\" on one node");
      }
      if (d != null) {
        drivers.add(d);
      }
    }
    return new Scenario.NodeGroup(name, count, capacity, labels, drivers);
  }

  private Scenario.Driver driver(JsonNode n, String path) {
    if (!isObject(n, path)) {
      return null;
    }
    fields(n, path, "profile", "numDevices", "flags");
    String profile = string(n, "profile", path, null);
    if (profile == null) {
      problem(path + ".profile", "required (one of " + Profiles.NAMES + ")");
      return null;
    }
    if (!Profiles.NAMES.contains(profile)) {
      problem(path + ".profile", "unknown profile \"" + profile + "\", one of " + Profiles.NAMES);
      return null;
    }
    List<String> flags = new ArrayList<>();
    if (n.has("numDevices")) {
      flags.add("--num-devices=" + integer(n, "numDevices", path, 8, 0));
    }
    JsonNode fs = array(n, "flags", path, false);
    for (int i = 0; fs != null && i < fs.size(); i++) {
      flags.add(fs.get(i).asString());
    }
    Scenario.Driver d = new Scenario.Driver(profile, flags);
    try {
      driverFlags(flagParser, d, "node-1");
    } catch (IllegalArgumentException e) {
      problem(path + ".flags", e.getMessage());
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
    if (!isObject(n, path)) {
      return null;
    }
    DeviceClass c;
    try {
      c = Serialization.unmarshal(n.toString(), DeviceClass.class);
    } catch (RuntimeException e) {
      problem(path, "not a DeviceClass: " + e.getMessage());
      return null;
    }
    for (FieldError e : Validation.validateDeviceClass(c, VALIDATION)) {
      problem(path + "." + e.field(), body(e));
    }
    return c;
  }

  private Scenario.PodTemplate podTemplate(
      JsonNode n, String path, Duration end, Set<String> classNames) {
    if (!isObject(n, path)) {
      return null;
    }
    fields(
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
        "priority",
        "requests",
        "claims");
    String name = string(n, "name", path, null);
    if (name == null) {
      problem(path + ".name", "required");
      name = "pod";
    }
    checkName(name, path + ".name");
    int count = n.has("count") ? (int) integer(n, "count", path, 0, 1) : 0;
    double rate = rate(n, path);
    String arrival = string(n, "arrival", path, "poisson");
    if (!arrival.equals("poisson") && !arrival.equals("uniform")) {
      problem(path + ".arrival", "must be poisson or uniform, not \"" + arrival + "\"");
    }
    Duration start = duration(n, "start", path, Duration.ZERO, false);
    Duration until = duration(n, "until", path, null, true);
    if (!n.has("count") && !n.has("rate")) {
      problem(path, "needs count, rate or both");
    }
    if (n.has("rate") && !n.has("count") && until == null && end == null) {
      problem(path + ".rate", "without count needs until (or the scenario's duration)");
    }
    if (until != null && start != null && until.compareTo(start) <= 0) {
      problem(path + ".until", "must be after start");
    }
    Scenario.Dist run = dist(n.get("runDuration"), path + ".runDuration");
    Duration deleteAfter = duration(n, "deleteAfter", path, null, true);
    int priority = n.has("priority") ? (int) integer(n, "priority", path, 0, Integer.MIN_VALUE) : 0;
    Map<String, Quantity> requests = quantities(n, "requests", path);
    List<Scenario.Claim> claims = new ArrayList<>();
    JsonNode cs = array(n, "claims", path, false);
    Set<String> claimNames = new LinkedHashSet<>();
    for (int i = 0; cs != null && i < cs.size(); i++) {
      String cp = path + ".claims[" + i + "]";
      Scenario.Claim c = claim(cs.get(i), cp, name, classNames);
      if (c != null && !claimNames.add(c.name())) {
        problem(cp + ".name", "duplicate claim name \"" + c.name() + "\"");
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
        priority,
        requests,
        claims);
  }

  private double rate(JsonNode n, String path) {
    if (!n.has("rate")) {
      return 0;
    }
    String s = n.get("rate").asString();
    Matcher m = RATE.matcher(s);
    if (!m.matches() || Double.parseDouble(m.group(1)) <= 0) {
      problem(path + ".rate", "must be like 30/h, 2/m or 0.5/s and > 0, not \"" + s + "\"");
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
      Duration d = parseDuration(n.asString(), path);
      return d == null ? null : new Scenario.Fixed(d);
    }
    if (n.isObject() && n.size() == 1 && n.has("exponential")) {
      Duration d = parseDuration(n.get("exponential").asString(), path + ".exponential");
      return d == null ? null : new Scenario.Exponential(d);
    }
    if (n.isObject() && n.size() == 1 && n.has("uniform")) {
      JsonNode u = n.get("uniform");
      if (!u.isArray() || u.size() != 2) {
        problem(path + ".uniform", "must be [MIN, MAX], e.g. [10m, 30m]");
        return null;
      }
      Duration lo = parseDuration(u.get(0).asString(), path + ".uniform[0]");
      Duration hi = parseDuration(u.get(1).asString(), path + ".uniform[1]");
      if (lo != null && hi != null && hi.compareTo(lo) < 0) {
        problem(path + ".uniform", "MAX must not be less than MIN");
        return null;
      }
      return lo == null || hi == null ? null : new Scenario.Uniform(lo, hi);
    }
    problem(path, "must be a duration (30m), {exponential: 30m} or {uniform: [10m, 50m]}");
    return null;
  }

  private Scenario.Claim claim(JsonNode n, String path, String pod, Set<String> classNames) {
    if (!isObject(n, path)) {
      return null;
    }
    fields(n, path, "name", "deviceClassName", "count", "allocationMode", "selectors", "spec");
    String name = string(n, "name", path, null);
    if (name == null) {
      problem(path + ".name", "required");
      return null;
    }
    checkName(name, path + ".name");
    ResourceClaimSpec spec;
    boolean shortForm = !n.has("spec");
    if (shortForm) {
      spec = shortSpec(n, path, name, classNames);
    } else {
      for (String f : List.of("deviceClassName", "count", "allocationMode", "selectors")) {
        if (n.has(f)) {
          problem(path + "." + f, "not allowed together with spec");
        }
      }
      try {
        spec = Serialization.unmarshal(n.get("spec").toString(), ResourceClaimSpec.class);
      } catch (RuntimeException e) {
        problem(path + ".spec", "not a ResourceClaimSpec: " + e.getMessage());
        return null;
      }
    }
    if (spec == null) {
      return null;
    }
    ResourceClaim claim =
        Defaults.resourceClaim(
            new ResourceClaimBuilder()
                .withNewMetadata()
                .withName(pod + "-" + name)
                .withNamespace("default")
                .endMetadata()
                .withSpec(spec)
                .build());
    for (FieldError e : Validation.validateResourceClaim(claim, VALIDATION)) {
      problem(path + "." + (shortForm ? shortPath(e.field()) : e.field()), body(e));
    }
    if (claim.getSpec().getDevices() != null) {
      for (DeviceRequest r : claim.getSpec().getDevices().getRequests()) {
        checkClass(r, path, shortForm, classNames);
      }
    }
    return new Scenario.Claim(name, claim.getSpec());
  }

  private void checkClass(DeviceRequest r, String path, boolean shortForm, Set<String> known) {
    List<String> used = new ArrayList<>();
    if (r.getExactly() != null) {
      used.add(r.getExactly().getDeviceClassName());
    }
    if (r.getFirstAvailable() != null) {
      r.getFirstAvailable().forEach(s -> used.add(s.getDeviceClassName()));
    }
    for (String c : used) {
      if (c != null && !c.isEmpty() && !known.contains(c)) {
        problem(
            path + (shortForm ? ".deviceClassName" : ".spec"),
            "DeviceClass \"" + c + "\" is not in the cluster (known: " + known + ")");
      }
    }
  }

  private ResourceClaimSpec shortSpec(
      JsonNode n, String path, String name, Set<String> classNames) {
    String cls = string(n, "deviceClassName", path, null);
    if (cls == null) {
      problem(path + ".deviceClassName", "required (or give a full spec)");
      return null;
    }
    ExactDeviceRequest ex = new ExactDeviceRequest();
    ex.setDeviceClassName(cls);
    String mode = string(n, "allocationMode", path, "ExactCount");
    ex.setAllocationMode(mode);
    if (n.has("count")) {
      if (mode.equals("All")) {
        problem(path + ".count", "not allowed with allocationMode All");
      }
      ex.setCount(integer(n, "count", path, 1, 1));
    }
    JsonNode sel = array(n, "selectors", path, false);
    List<DeviceSelector> selectors = new ArrayList<>();
    for (int i = 0; sel != null && i < sel.size(); i++) {
      DeviceSelector s = new DeviceSelector();
      s.setCel(new CELDeviceSelector(sel.get(i).asString()));
      selectors.add(s);
    }
    ex.setSelectors(selectors);
    DeviceRequest r = new DeviceRequest();
    r.setName(name);
    r.setExactly(ex);
    ResourceClaimSpec spec = new ResourceClaimSpec();
    spec.setDevices(new io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim());
    spec.getDevices().setRequests(List.of(r));
    return spec;
  }

  /** The API server's path of a short-form claim's field, as the scenario names it. */
  static String shortPath(String apiPath) {
    return apiPath
        .replaceFirst("^spec\\.devices\\.requests\\[0\\]\\.exactly\\.", "")
        .replaceFirst("^spec\\.devices\\.requests\\[0\\]\\.name", "name")
        .replaceFirst("^(selectors\\[\\d+\\])\\.cel\\.expression", "$1");
  }

  /** The error without its field: {@code Invalid value: 0: must be greater than zero}. */
  private static String body(FieldError e) {
    String s = e.toString();
    return s.startsWith(e.field() + ": ") ? s.substring(e.field().length() + 2) : s;
  }

  // ---- small typed readers, each records a problem and returns a fallback ----------------------

  private void problem(String path, String message) {
    problems.add((path.isEmpty() ? "" : path + ": ") + message);
  }

  private boolean isObject(JsonNode n, String path) {
    if (n == null || !n.isObject()) {
      problem(path, "must be a mapping");
      return false;
    }
    return true;
  }

  private void fields(JsonNode n, String path, String... allowed) {
    List<String> ok = List.of(allowed);
    for (String f : n.propertyNames()) {
      if (!ok.contains(f)) {
        problem(
            path.isEmpty() ? f : path + "." + f,
            "unknown field (known: " + String.join(", ", ok) + ")");
      }
    }
  }

  private void checkName(String name, String path) {
    if (name != null && (!NAME.matcher(name).matches() || name.length() > 40)) {
      problem(
          path,
          "\""
              + name
              + "\" must be lower case letters, digits and '-', start and end with a letter or"
              + " digit, at most 40 characters");
    }
  }

  private String string(JsonNode n, String field, String path, String dflt) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return dflt;
    }
    if (!v.isString()) {
      problem(join(path, field), "must be a string");
      return dflt;
    }
    return v.asString();
  }

  private long integer(JsonNode n, String field, String path, long dflt, long min) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return dflt;
    }
    if (!v.isIntegralNumber()) {
      problem(join(path, field), "must be an integer");
      return dflt;
    }
    long x = v.asLong();
    if (x < min) {
      problem(join(path, field), "must be " + (min == 1 ? "> 0" : ">= " + min));
      return dflt;
    }
    return x;
  }

  private Duration duration(
      JsonNode n, String field, String path, Duration dflt, boolean positive) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return dflt;
    }
    Duration d = parseDuration(v.asString(), join(path, field));
    if (d != null && positive && d.isZero()) {
      problem(join(path, field), "must be > 0");
      return dflt;
    }
    return d == null ? dflt : d;
  }

  private Duration parseDuration(String s, String path) {
    try {
      return Durations.parse(s);
    } catch (IllegalArgumentException e) {
      problem(path, e.getMessage());
      return null;
    }
  }

  private Map<String, Quantity> quantities(JsonNode n, String field, String path) {
    Map<String, Quantity> out = new LinkedHashMap<>();
    JsonNode m = object(n, field, path, false);
    if (m == null) {
      return out;
    }
    for (Map.Entry<String, JsonNode> e : m.properties()) {
      String p = join(path, field) + "." + e.getKey();
      try {
        out.put(
            e.getKey(), io.jdra.api.quantity.Quantity.parse(e.getValue().asString()).toFabric8());
      } catch (RuntimeException ex) {
        problem(p, "not a quantity: \"" + e.getValue().asString() + "\"");
      }
    }
    return out;
  }

  private JsonNode object(JsonNode n, String field, String path, boolean required) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        problem(join(path, field), "required");
      }
      return null;
    }
    if (!v.isObject()) {
      problem(join(path, field), "must be a mapping");
      return null;
    }
    return v;
  }

  private JsonNode array(JsonNode n, String field, String path, boolean required) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        problem(join(path, field), "required");
      }
      return null;
    }
    if (!v.isArray()) {
      problem(join(path, field), "must be a list");
      return null;
    }
    return v;
  }

  private static String join(String path, String field) {
    return path.isEmpty() ? field : path + "." + field;
  }

  String source() {
    return source;
  }
}
