package io.jdra.e2e;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the things an end-to-end test runs are: the CLI jar, a JDK, kubectl, the demos. */
final class Paths {
  private Paths() {}

  /** The packaged CLI (built by jdra-cli's package phase before this module's tests). */
  static Path cliJar() {
    Path jar = repoRoot().resolve("jdra-cli/target/jdra-cli.jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing: build jdra-cli first (./mvnw verify)");
    }
    return jar;
  }

  /** The JDK running the tests (>= 21, as the build requires). */
  static Path java() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /** kubectl 1.33 where the machine has it, else the one on the PATH; null when there is none. */
  static Path kubectl() {
    for (String c :
        new String[] {"/usr/lib/google-cloud-sdk/bin/kubectl.1.33", "/usr/bin/kubectl"}) {
      if (Files.isExecutable(Path.of(c))) {
        return Path.of(c);
      }
    }
    return null;
  }

  /** The upstream example manifests beside the project, or null. */
  static Path examples() {
    for (Path p = repoRoot(); p != null; p = p.getParent()) {
      Path c = p.resolve("../shared/upstream-dra/examples").normalize();
      if (Files.isDirectory(c)) {
        return c;
      }
    }
    return null;
  }

  static Path repoRoot() {
    Path here = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    return Files.isRegularFile(here.resolve("mvnw")) ? here : here.getParent();
  }
}
