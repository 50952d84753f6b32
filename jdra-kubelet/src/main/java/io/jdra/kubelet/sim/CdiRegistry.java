package io.jdra.kubelet.sim;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The CDI spec files in one directory, as a container runtime reads them to turn fully qualified
 * CDI device names ({@code vendor/class=name}) into container edits. Only the environment part of
 * the edits matters to a simulated container; device nodes, mounts and hooks are accepted and
 * ignored. Specs are JSON or YAML. Thread-safe.
 *
 * <p>Resolving costs a stat per spec file involved, not a read of the directory: an index from
 * device name to spec file is kept, and the directory is read again only when a device is not in it
 * or a file it points to has changed (other modification time, size or file, as a driver's
 * write-and-rename makes). With a spec file per claim, as drivers write them, a node with many
 * claims would otherwise list and stat every file for every container it starts.
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

  /** A parsed file and what it looked like on disk when it was read. */
  private record Cached(Path file, Object fileKey, long modified, long size, Spec spec) {
    boolean matches(BasicFileAttributes a) {
      return modified == a.lastModifiedTime().toMillis()
          && size == a.size()
          && Objects.equals(fileKey, a.fileKey());
    }
  }

  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  private final Path dir;
  private final Map<Path, Cached> files = new HashMap<>();

  /** Fully qualified device name to the file defining it. */
  private Map<String, Cached> index = Map.of();

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
    if (!current(deviceIds)) {
      rescan();
    }
    List<String> missing = new ArrayList<>();
    List<String> env = new ArrayList<>();
    Set<Path> commonDone = new HashSet<>();
    for (String id : deviceIds) {
      Cached c = index.get(id);
      if (c == null) {
        missing.add(id);
        continue;
      }
      if (commonDone.add(c.file())) {
        env.addAll(c.spec().commonEnv());
      }
      env.addAll(c.spec().deviceEnv().get(id.substring(id.indexOf('=') + 1)));
    }
    if (!missing.isEmpty()) {
      throw new UnresolvableDevicesException(
          "unresolvable CDI devices " + String.join(", ", missing));
    }
    return new Edits(env);
  }

  /** Whether every device is indexed and every file they come from is unchanged. */
  private boolean current(List<String> deviceIds) {
    Set<Path> checked = new HashSet<>();
    for (String id : deviceIds) {
      Cached c = index.get(id);
      if (c == null) {
        return false;
      }
      if (checked.add(c.file())) {
        try {
          if (!c.matches(Files.readAttributes(c.file(), BasicFileAttributes.class))) {
            return false;
          }
        } catch (IOException e) {
          return false;
        }
      }
    }
    return true;
  }

  private void rescan() {
    Map<String, Cached> out = new HashMap<>();
    Map<Path, Cached> seen = new HashMap<>();
    try (DirectoryStream<Path> dirFiles = Files.newDirectoryStream(dir)) {
      for (Path f : dirFiles) {
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
          out.put(c.spec().kind() + "=" + device, c);
        }
      }
    } catch (NoSuchFileException e) {
      // No CDI directory yet: nothing resolves.
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    files.keySet().retainAll(seen.keySet());
    index = out;
  }

  private Cached load(Path f) {
    try {
      BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
      Cached c = files.get(f);
      if (c != null && c.matches(a)) {
        return c;
      }
      Spec spec = parse(YAML.readTree(f.toFile()));
      c = new Cached(f, a.fileKey(), a.lastModifiedTime().toMillis(), a.size(), spec);
      files.put(f, c);
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
