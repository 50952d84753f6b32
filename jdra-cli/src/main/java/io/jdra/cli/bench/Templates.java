package io.jdra.cli.bench;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Renders a workload's templates: upstream's files (Go templates, read once) relative to the
 * config's directory; for the built-in catalogue, {@link BuiltinTemplates} where the file is not on
 * this machine. Thread-safe.
 */
final class Templates {
  private final PerfConfig config;
  private final Map<String, GoTemplate> parsed = new ConcurrentHashMap<>();

  Templates(PerfConfig config) {
    this.config = config;
  }

  /** The object {@code path} renders to with these parameters (e.g. {@code Index}). */
  <T> T render(String path, Map<String, Object> params, Class<T> type) {
    Path file = config.baseDir() == null ? null : config.baseDir().resolve(path).normalize();
    if (file != null && Files.isRegularFile(file)) {
      GoTemplate t = parsed.computeIfAbsent(path, p -> parse(file));
      String text = t.execute(params);
      try {
        return Serialization.unmarshal(text, type);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(
            file + ": rendered with " + params + " is not a valid object: " + e.getMessage(), e);
      }
    }
    var builtin = BuiltinTemplates.ALL.get(builtinKey(path));
    if (builtin != null) {
      return Serialization.unmarshal(Serialization.asJson(builtin.apply(params)), type);
    }
    throw new IllegalArgumentException(
        config.source()
            + ": template "
            + path
            + " not found"
            + (config.baseDir() == null ? "" : " under " + config.baseDir()));
  }

  // Upstream's configs name the shared templates as templates/X.yaml or ../templates/X.yaml.
  private static String builtinKey(String path) {
    return "templates/" + Path.of(path).getFileName();
  }

  private static GoTemplate parse(Path file) {
    try {
      return GoTemplate.parse(file.toString(), Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
