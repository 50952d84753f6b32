package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stored objects, keys and the token are readable by the server's user only. */
class PrivateFilesTest {
  @TempDir Path tmp;

  @Test
  void dataDirectoryFilesAreOwnerOnly() throws IOException {
    Path data = tmp.resolve("data");
    ApiServerOptions options = ApiServerOptions.inMemory().withDataDir(data);
    try (EmbeddedApiServer unused = EmbeddedApiServer.start(options)) {
      Security.token(options);
    }
    List<Path> all;
    try (Stream<Path> s = Files.walk(data)) {
      all = s.toList();
    }
    assertThat(all)
        .anySatisfy(p -> assertThat(p.getFileName().toString()).startsWith("log-"))
        .anySatisfy(p -> assertThat(p.getFileName().toString()).isEqualTo("token"));
    for (Path p : all) {
      String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
      assertThat(mode).as(p.toString()).isEqualTo(Files.isDirectory(p) ? "rwx------" : "rw-------");
    }
  }
}
