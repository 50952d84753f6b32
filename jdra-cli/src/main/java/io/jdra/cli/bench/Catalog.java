package io.jdra.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The workloads {@code jdra bench scheduler} knows by name: those of upstream's
 * test/integration/scheduler_perf/dra/performance-config.yaml when that file is next to the
 * templates directory (so they are upstream's own shapes), otherwise jdra's built-in description of
 * the same test cases, ops and parameters ({@link BuiltinCases}), whose templates are read from
 * upstream's templates directory where it has them ({@link BuiltinTemplates} otherwise).
 */
public final class Catalog {
  static final String CONFIG_FILE = "performance-config.yaml";

  private final Map<String, Workload> workloads;
  private final String source;

  private Catalog(Map<String, Workload> workloads, String source) {
    this.workloads = workloads;
    this.source = source;
  }

  /**
   * From an explicit config file: only its workloads.
   *
   * @throws IllegalArgumentException when the file is not a valid performance-config
   */
  public static Catalog fromFile(Path config) throws IOException {
    PerfConfig c = PerfConfig.read(config);
    return new Catalog(c.workloads(), config.toString());
  }

  /**
   * The built-in catalogue, with upstream's config (in {@code templates}' parent directory, when
   * there) replacing the workloads it defines.
   *
   * @param templates upstream's dra/templates directory, or null
   */
  public static Catalog builtin(Path templates) throws IOException {
    Path dir = templates == null ? null : templates.toAbsolutePath().getParent();
    Map<String, Workload> all = new LinkedHashMap<>(BuiltinCases.config(dir).workloads());
    String source = "jdra's built-in description of upstream's dra/" + CONFIG_FILE;
    if (dir != null && Files.isRegularFile(dir.resolve(CONFIG_FILE))) {
      all.putAll(PerfConfig.read(dir.resolve(CONFIG_FILE)).workloads());
      source = dir.resolve(CONFIG_FILE) + " (and jdra's built-in cases it lacks)";
    }
    return new Catalog(all, source);
  }

  public String source() {
    return source;
  }

  public List<String> names() {
    return List.copyOf(workloads.keySet());
  }

  /** By full name ({@code Case/workload}) or, when unambiguous, by the part after the slash. */
  public Workload byName(String name) {
    Workload w = workloads.get(name);
    if (w != null) {
      return w;
    }
    List<Workload> matches = new ArrayList<>();
    for (Workload x : workloads.values()) {
      if (x.name().endsWith("/" + name)) {
        matches.add(x);
      }
    }
    if (matches.size() == 1) {
      return matches.get(0);
    }
    if (matches.size() > 1) {
      throw new IllegalArgumentException(
          "workload \""
              + name
              + "\" is in several test cases: "
              + String.join(", ", matches.stream().map(Workload::name).toList())
              + "; give the full name");
    }
    throw new IllegalArgumentException(
        "unknown workload \"" + name + "\"; known: " + String.join(", ", workloads.keySet()));
  }
}
