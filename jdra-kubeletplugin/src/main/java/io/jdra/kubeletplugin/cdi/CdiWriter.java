package io.jdra.kubeletplugin.cdi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes and removes CDI spec files in one directory (a driver's {@code --cdi-root}).
 *
 * <p>A file is written to a temporary file in the same directory and renamed over the target, so a
 * container runtime that scans the directory at any moment sees either the old or the new spec,
 * never half of one. Not synced to disk: the CDI library's {@code WriteSpec}, which upstream
 * drivers use, does not sync either (and many nodes keep {@code /var/run/cdi} on tmpfs). A driver
 * that finds a prepared claim's spec missing writes it again (the example driver does). The content
 * is validated before anything touches the disk. Keys come out sorted in sigs.k8s.io/yaml's layout
 * (see {@link CdiYaml}), as CDI library versions before 1.0 wrote YAML; from 1.0
 * (dra-example-driver uses 1.1) the library writes struct field order after a {@code ---} line
 * instead. Runtimes parse the content, so the two layouts are the same spec to them.
 *
 * <p>Thread-safe: writes of different names do not interfere; writes of one name race only in which
 * complete file wins.
 */
public final class CdiWriter {
  /** File format, chosen by the spec name's extension; names without one get YAML. */
  public enum Format {
    YAML,
    JSON
  }

  private static final Set<StandardOpenOption> CREATE_NEW_WRITE =
      Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
  private static final AtomicLong TEMP_NAMES = new AtomicLong();
  private static final ObjectMapper JSON = JsonMapper.builder().build();

  private final Path dir;

  public CdiWriter(Path dir) {
    this.dir = dir;
  }

  public Path dir() {
    return dir;
  }

  /**
   * Validates {@code spec} and writes it as {@code <dir>/<name>} (adding {@code .yaml} unless the
   * name ends in {@code .yaml} or {@code .json}), creating the directory if needed. Returns the
   * file written.
   *
   * @throws IllegalArgumentException the spec or name is invalid (nothing written)
   * @throws UncheckedIOException the directory is not writable (nothing left behind)
   */
  public Path writeSpec(CdiSpec spec, String name) {
    validate(spec);
    Path target = path(name);
    byte[] bytes =
        render(spec, target.getFileName().toString().endsWith(".json") ? Format.JSON : Format.YAML);
    Path tmp = null;
    try {
      tmp = writeTemp(target, bytes);
      try {
        Files.move(
            tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
      tmp = null;
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException("write CDI spec " + target + ": " + e.getMessage(), e);
    } finally {
      deleteQuietly(tmp);
    }
  }

  /**
   * A new hidden file next to {@code target} with {@code bytes}. Named from a counter rather than
   * random bytes (cheaper than {@link Files#createTempFile}); {@code CREATE_NEW} and the next
   * number take care of a name that another writer (a second driver instance) has in use. The
   * directory is created when missing.
   */
  private Path writeTemp(Path target, byte[] bytes) throws IOException {
    String prefix = ".tmp-" + target.getFileName() + "-" + ProcessHandle.current().pid() + "-";
    for (int attempt = 0; ; attempt++) {
      Path tmp = dir.resolve(prefix + TEMP_NAMES.incrementAndGet());
      try (FileChannel ch = FileChannel.open(tmp, CREATE_NEW_WRITE)) {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        return tmp;
      } catch (FileAlreadyExistsException e) {
        if (attempt >= 100) {
          throw e;
        }
      } catch (NoSuchFileException e) {
        if (attempt > 0 || Files.isDirectory(dir)) {
          throw e;
        }
        Files.createDirectories(dir);
      }
    }
  }

  /**
   * Removes the spec file {@code name}, a name without extension meaning {@code .yaml} as in {@link
   * #writeSpec} (the CDI library's {@code RemoveSpec} does the same); absent is fine.
   */
  public void removeSpec(String name) {
    try {
      Files.deleteIfExists(path(name));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "remove CDI spec " + name + " in " + dir + ": " + e.getMessage(), e);
    }
  }

  /** The bytes {@link #writeSpec} writes, for tests and for callers that embed specs. */
  public static byte[] render(CdiSpec spec, Format format) {
    Map<String, Object> tree = tree(spec);
    String text = format == Format.JSON ? JSON.writeValueAsString(tree) : CdiYaml.render(tree);
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private Path path(String name) {
    if (name.isEmpty() || name.contains("/") || name.startsWith(".")) {
      throw new IllegalArgumentException(
          "CDI spec name " + CdiNames.quote(name) + ": not a file name");
    }
    return dir.resolve(hasExtension(name) ? name : name + ".yaml");
  }

  private static boolean hasExtension(String name) {
    return name.endsWith(".yaml") || name.endsWith(".json");
  }

  private static void validate(CdiSpec spec) {
    CdiNames.splitKind(spec.kind());
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (CdiSpec.Device d : spec.devices()) {
      CdiNames.validateDeviceName(d.name());
      if (!seen.add(d.name())) {
        throw new IllegalArgumentException(
            "CDI spec " + spec.kind() + ": device " + CdiNames.quote(d.name()) + " listed twice");
      }
      for (String env : d.containerEdits().env()) {
        if (env.indexOf('=') <= 0) {
          throw new IllegalArgumentException(
              "CDI device "
                  + d.name()
                  + ": env entry "
                  + CdiNames.quote(env)
                  + " is not KEY=value");
        }
      }
    }
  }

  // JSON field names of the CDI spec (specs-go), in sorted maps like the Go encoder's output.
  private static Map<String, Object> tree(CdiSpec spec) {
    Map<String, Object> m = new TreeMap<>();
    m.put("cdiVersion", spec.cdiVersion());
    m.put("kind", spec.kind());
    List<Object> devices = new ArrayList<>();
    for (CdiSpec.Device d : spec.devices()) {
      Map<String, Object> dm = new TreeMap<>();
      dm.put("name", d.name());
      dm.put("containerEdits", edits(d.containerEdits()));
      devices.add(dm);
    }
    m.put("devices", devices);
    m.put("containerEdits", edits(spec.containerEdits()));
    return m;
  }

  private static Map<String, Object> edits(CdiSpec.ContainerEdits e) {
    Map<String, Object> m = new TreeMap<>();
    if (!e.env().isEmpty()) {
      m.put("env", e.env());
    }
    if (!e.deviceNodes().isEmpty()) {
      List<Object> nodes = new ArrayList<>();
      for (CdiSpec.DeviceNode n : e.deviceNodes()) {
        Map<String, Object> nm = new LinkedHashMap<>();
        if (n.hostPath() != null && !n.hostPath().isEmpty()) {
          nm.put("hostPath", n.hostPath());
        }
        nm.put("path", n.path());
        nodes.add(nm);
      }
      m.put("deviceNodes", nodes);
    }
    if (!e.mounts().isEmpty()) {
      List<Object> mounts = new ArrayList<>();
      for (CdiSpec.Mount mo : e.mounts()) {
        Map<String, Object> mm = new TreeMap<>();
        mm.put("containerPath", mo.containerPath());
        mm.put("hostPath", mo.hostPath());
        if (!mo.options().isEmpty()) {
          mm.put("options", mo.options());
        }
        if (mo.type() != null && !mo.type().isEmpty()) {
          mm.put("type", mo.type());
        }
        mounts.add(mm);
      }
      m.put("mounts", mounts);
    }
    return m;
  }

  private static void deleteQuietly(Path p) {
    if (p != null) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException ignored) {
        // Best effort: a leftover temp file starts with a dot; runtimes only read *.yaml/*.json.
      }
    }
  }
}
