package io.jdra.kubelet.sim;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The CDI spec files in one directory, as a container runtime reads them to turn fully qualified
 * CDI device names ({@code vendor/class=name}) into container edits. Only the environment part of
 * the edits matters to a simulated container; device nodes, mounts and hooks are accepted and
 * ignored. Specs are JSON or YAML; parsed files are cached by modification time and size, so a
 * directory with a spec per claim is read once. Thread-safe.
 */
public final class CdiRegistry {
  /** What resolving a container's CDI devices gave: environment entries ({@code K=V}). */
  public record Edits(List<String> env) {}

  /** A device name that no spec in the directory defines, as a runtime reports it. */
  public static final class UnresolvableDevicesException extends Exception {
    public UnresolvableDevicesException(String message) {
      super(message);
    }
  }

  private record Spec(String kind, List<String> commonEnv, Map<String, List<String>> deviceEnv) {}

  private record Cached(long modified, long size, Spec spec) {}

  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  private final Path dir;
  private final Map<Path, Cached> cache = new HashMap<>();

  public CdiRegistry(Path dir) {
    this.dir = dir;
  }

  /**
   * The edits for {@code deviceIds}, in order: for each device, the spec's common edits (once per
   * spec) and the device's own.
   *
   * @throws UnresolvableDevicesException naming the devices not found in any spec
   */
  public synchronized Edits resolve(List<String> deviceIds) throws UnresolvableDevicesException {
    if (deviceIds.isEmpty()) {
      return new Edits(List.of());
    }
    Map<String, Spec> byDevice = index();
    List<String> missing = new ArrayList<>();
    List<String> env = new ArrayList<>();
    Map<Spec, Boolean> commonDone = new LinkedHashMap<>();
    for (String id : deviceIds) {
      Spec spec = byDevice.get(id);
      if (spec == null) {
        missing.add(id);
        continue;
      }
      if (commonDone.putIfAbsent(spec, true) == null) {
        env.addAll(spec.commonEnv());
      }
      env.addAll(spec.deviceEnv().get(id.substring(id.indexOf('=') + 1)));
    }
    if (!missing.isEmpty()) {
      throw new UnresolvableDevicesException(
          "unresolvable CDI devices " + String.join(", ", missing));
    }
    return new Edits(env);
  }

  private Map<String, Spec> index() {
    Map<String, Spec> out = new HashMap<>();
    Map<Path, Cached> seen = new HashMap<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path f : files) {
        String n = f.getFileName().toString();
        if (!(n.endsWith(".json") || n.endsWith(".yaml") || n.endsWith(".yml"))) {
          continue;
        }
        Cached c = load(f);
        if (c == null) {
          continue;
        }
        seen.put(f, c);
        for (String device : c.spec().deviceEnv().keySet()) {
          out.put(c.spec().kind() + "=" + device, c.spec());
        }
      }
    } catch (NoSuchFileException e) {
      // No CDI directory yet: nothing resolves.
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    cache.keySet().retainAll(seen.keySet());
    return out;
  }

  private Cached load(Path f) {
    try {
      BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
      Cached c = cache.get(f);
      if (c != null && c.modified() == a.lastModifiedTime().toMillis() && c.size() == a.size()) {
        return c;
      }
      c = new Cached(a.lastModifiedTime().toMillis(), a.size(), parse(YAML.readTree(f.toFile())));
      cache.put(f, c);
      return c;
    } catch (IOException | JacksonException | IllegalArgumentException e) {
      // A spec being written or broken: a runtime skips it too (and the device stays unresolved).
      return null;
    }
  }

  private static Spec parse(JsonNode root) {
    String kind = root.path("kind").asString("");
    if (!kind.contains("/")) {
      throw new IllegalArgumentException("CDI spec without vendor/class kind");
    }
    Map<String, List<String>> devices = new LinkedHashMap<>();
    for (JsonNode d : root.path("devices")) {
      devices.put(d.path("name").asString(""), env(d.path("containerEdits")));
    }
    return new Spec(kind, env(root.path("containerEdits")), devices);
  }

  private static List<String> env(JsonNode edits) {
    List<String> out = new ArrayList<>();
    edits.path("env").forEach(e -> out.add(e.asString()));
    return out;
  }
}
