package io.jdra.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * A scheduler_perf performance-config in upstream's format: a list of test cases, each with a
 * {@code workloadTemplate} (ops with {@code $name} references) and {@code workloads} (name, labels,
 * threshold, params). {@link #workloads} resolves every workload into its {@link Workload};
 * template paths stay relative to {@code baseDir}, the config file's directory, as upstream reads
 * them.
 *
 * @param source where the config came from (a file, or jdra's built-in catalogue)
 * @param baseDir directory template paths are relative to
 * @param testCases the test cases in file order
 */
record PerfConfig(String source, Path baseDir, List<TestCase> testCases) {

  /** A test case: its ops with references, and its workloads. */
  record TestCase(
      String name,
      Map<String, Object> featureGates,
      List<Map<String, Object>> workloadTemplate,
      List<Entry> workloads) {}

  /** One workload of a test case. */
  record Entry(
      String name,
      List<String> labels,
      Object threshold,
      Map<String, Object> featureGates,
      Map<String, Object> params) {}

  static PerfConfig read(Path file) throws IOException {
    Object doc;
    try {
      doc = YAMLMapper.builder().build().readValue(Files.readString(file), Object.class);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(file + ": not YAML: " + e.getOriginalMessage(), e);
    }
    Path dir = file.toAbsolutePath().getParent();
    return fromYaml(file.toString(), dir, doc);
  }

  /** Builds the config from parsed YAML (a list of test cases), checking its shape. */
  static PerfConfig fromYaml(String source, Path baseDir, Object doc) {
    if (!(doc instanceof List<?> list)) {
      throw new IllegalArgumentException(source + ": expected a list of test cases");
    }
    List<TestCase> cases = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String where = source + ": test case " + i;
      Map<String, Object> tc = map(list.get(i), where);
      String name = string(tc.get("name"), where + ": name");
      where = source + ": test case " + name;
      List<Map<String, Object>> ops = new ArrayList<>();
      for (Object op : listOf(tc.get("workloadTemplate"), where + ": workloadTemplate")) {
        ops.add(map(op, where + ": workloadTemplate"));
      }
      List<Entry> entries = new ArrayList<>();
      for (Object w : listOf(tc.get("workloads"), where + ": workloads")) {
        Map<String, Object> wm = map(w, where + ": workloads");
        String wname = string(wm.get("name"), where + ": workloads: name");
        List<String> labels = new ArrayList<>();
        if (wm.get("labels") instanceof List<?> l) {
          l.forEach(x -> labels.add(String.valueOf(x)));
        }
        Map<String, Object> params =
            wm.get("params") == null
                ? Map.of()
                : map(wm.get("params"), where + "/" + wname + ": params");
        entries.add(
            new Entry(
                wname,
                List.copyOf(labels),
                wm.get("threshold"),
                gates(wm, where + "/" + wname),
                params));
      }
      cases.add(new TestCase(name, gates(tc, where), List.copyOf(ops), List.copyOf(entries)));
    }
    return new PerfConfig(source, baseDir, List.copyOf(cases));
  }

  /** Every workload, resolved, named {@code TestCase/workload}, in file order. */
  Map<String, Workload> workloads() {
    Map<String, Workload> out = new LinkedHashMap<>();
    for (TestCase tc : testCases) {
      for (Entry e : tc.workloads()) {
        String name = tc.name() + "/" + e.name();
        List<Op> ops = new ArrayList<>();
        for (int i = 0; i < tc.workloadTemplate().size(); i++) {
          ops.add(OpParser.parse(name, i, tc.workloadTemplate().get(i), e.params()));
        }
        // The workload's gates override the test case's, as upstream merges them.
        Map<String, Boolean> gates = new LinkedHashMap<>();
        tc.featureGates().forEach((k, v) -> gates.put(k, Boolean.TRUE.equals(v)));
        e.featureGates().forEach((k, v) -> gates.put(k, Boolean.TRUE.equals(v)));
        out.put(
            name,
            new Workload(
                name, List.copyOf(ops), e.labels(), threshold(e.threshold()), gates, this));
      }
    }
    return out;
  }

  // upstream's threshold is a number, or (since 1.36) a map of selectors to numbers; jdra compares
  // against the DRA one.
  private static Double threshold(Object t) {
    if (t instanceof Number n) {
      return n.doubleValue();
    }
    if (t instanceof Map<?, ?> m && !m.isEmpty()) {
      Object v = m.containsKey("dra") ? m.get("dra") : m.values().iterator().next();
      return v instanceof Number n ? n.doubleValue() : null;
    }
    return null;
  }

  private static Map<String, Object> gates(Map<String, Object> m, String where) {
    Object g = m.get("featureGates");
    return g == null ? Map.of() : map(g, where + ": featureGates");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object o, String where) {
    if (!(o instanceof Map<?, ?>)) {
      throw new IllegalArgumentException(where + ": expected a mapping, got " + o);
    }
    return (Map<String, Object>) o;
  }

  static List<?> listOf(Object o, String where) {
    if (!(o instanceof List<?> l)) {
      throw new IllegalArgumentException(where + ": expected a list, got " + o);
    }
    return l;
  }

  static String string(Object o, String where) {
    if (!(o instanceof String s) || s.isEmpty()) {
      throw new IllegalArgumentException(where + ": expected a string, got " + o);
    }
    return s;
  }
}
