package io.jdra.apiserver;

import io.jdra.apiserver.meta.Json;
import io.jdra.testing.objects.UpstreamExamples;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Kubernetes objects of the upstream example manifests ({@link UpstreamExamples}) as the API
 * server's trees, for tests that run server code over every one of them. A test is skipped (not
 * passed) where the manifests are not beside the checkout.
 */
public final class ExampleManifests {
  private ExampleManifests() {}

  /** The examples directory; skips the calling test when it is absent. */
  public static Path dir() {
    var dir = UpstreamExamples.dir();
    Assumptions.assumeTrue(
        dir.isPresent(), "upstream example manifests (../shared/upstream-dra/examples) not found");
    return dir.get();
  }

  /** The YAML files of the examples, in path order. */
  public static List<Path> files() {
    try (Stream<Path> files = Files.walk(dir())) {
      return files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every object of every file, in order; skips the calling test when there is none. */
  public static List<ObjectNode> all() {
    List<ObjectNode> out = new ArrayList<>();
    for (Path f : files()) {
      out.addAll(documents(f));
    }
    Assumptions.assumeFalse(out.isEmpty(), "no Kubernetes objects in the examples");
    return out;
  }

  /**
   * The documents of one file that are Kubernetes objects (apiVersion, kind, metadata); none for a
   * file that is not plain YAML (Helm templates).
   */
  public static List<ObjectNode> documents(Path file) {
    List<ObjectNode> out = new ArrayList<>();
    try (MappingIterator<JsonNode> it =
        Json.YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
      while (it.hasNextValue()) {
        if (it.nextValue() instanceof ObjectNode o
            && o.path("apiVersion").isString()
            && o.path("kind").isString()
            && o.path("metadata").isObject()) {
          out.add(o);
        }
      }
    } catch (JacksonException e) {
      return List.of();
    }
    return out;
  }
}
