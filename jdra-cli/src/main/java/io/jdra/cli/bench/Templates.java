package io.jdra.cli.bench;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Renders a workload's templates: upstream's files (Go templates, read once) relative to the
 * config's directory; for the built-in catalogue, {@link BuiltinTemplates} where the file is not on
 * this machine. Thread-safe.
 */
final class Templates {
  private final PerfConfig config;
  private final Map<String, GoTemplate> parsed = new ConcurrentHashMap<>();
  private final Map<String, String> json = new ConcurrentHashMap<>();
  private final Map<String, Optional<Path>> files = new ConcurrentHashMap<>();

  Templates(PerfConfig config) {
    this.config = config;
  }

  /** The object {@code path} renders to with these parameters (e.g. {@code Index}). */
  <T> T render(String path, Map<String, Object> params, Class<T> type) {
    Path file = file(path);
    if (file != null) {
      return decode(file, params, renderText(path, file, params), type);
    }
    return Serialization.unmarshal(Serialization.asJson(builtin(path).apply(params)), type);
  }

  /**
   * The JSON of the object {@code path} renders to, in {@code namespace}, as {@link #render} and
   * {@code setNamespace} would make it. Equal renderings share one JSON string: upstream's pod
   * templates do not use {@code .Index}, and parsing YAML and writing the model for every pod was a
   * tenth of a measured burst's CPU, bench work that is not the scheduler's.
   */
  String renderJson(
      String path,
      Map<String, Object> params,
      Class<? extends HasMetadata> type,
      String namespace) {
    Path file = file(path);
    String key =
        namespace + "\u0000" + (file != null ? renderText(path, file, params) : path + params);
    String cached = json.get(key);
    if (cached != null) {
      return cached;
    }
    HasMetadata o = render(path, params, type);
    o.getMetadata().setNamespace(namespace);
    String out = Serialization.asJson(o);
    if (json.size() < MAX_CACHED_JSON) {
      json.put(key, out);
    }
    return out;
  }

  /** Renderings kept: templates that use {@code .Index} render differently for every object. */
  private static final int MAX_CACHED_JSON = 256;

  /**
   * The file of {@code path}, looked up once per path as the template is read once: a look-up per
   * rendering was a file-system call for every pod created.
   */
  private Path file(String path) {
    return files.computeIfAbsent(path, this::lookUp).orElse(null);
  }

  private Optional<Path> lookUp(String path) {
    Path file = config.baseDir() == null ? null : config.baseDir().resolve(path).normalize();
    return Optional.ofNullable(file != null && Files.isRegularFile(file) ? file : null);
  }

  private String renderText(String path, Path file, Map<String, Object> params) {
    return parsed.computeIfAbsent(path, p -> parse(file)).execute(params);
  }

  private static <T> T decode(Path file, Map<String, Object> params, String text, Class<T> type) {
    try {
      return Serialization.unmarshal(text, type);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          file + ": rendered with " + params + " is not a valid object: " + e.getMessage(), e);
    }
  }

  private java.util.function.Function<Map<String, Object>, Map<String, Object>> builtin(
      String path) {
    var builtin = BuiltinTemplates.ALL.get(builtinKey(path));
    if (builtin != null) {
      return builtin;
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
