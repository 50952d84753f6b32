package io.jdra.testing.objects;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The upstream example manifests that tests read where the project's checkout keeps them beside
 * itself ({@code ../shared/upstream-dra/examples}); never copied into the project.
 */
public final class UpstreamExamples {
  private UpstreamExamples() {}

  /** The examples directory, looked up from the working directory upwards, if present. */
  public static Optional<Path> dir() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      Path c = p.resolve("../shared/upstream-dra/examples").normalize();
      if (Files.isDirectory(c)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }
}
