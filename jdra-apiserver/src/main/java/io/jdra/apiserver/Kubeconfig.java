package io.jdra.apiserver;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/** Writes a kubeconfig (mode 0600) that kubectl and fabric8 use as is. */
final class Kubeconfig {
  private Kubeconfig() {}

  static void write(Path file, URI server, String token, String caPem, String user)
      throws IOException {
    StringBuilder sb = new StringBuilder();
    sb.append("apiVersion: v1\nkind: Config\nclusters:\n- name: jdra\n  cluster:\n");
    sb.append("    server: ").append(server).append('\n');
    if (caPem != null) {
      sb.append("    certificate-authority-data: ")
          .append(Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.UTF_8)))
          .append('\n');
    }
    sb.append("users:\n- name: ").append(user).append("\n  user:\n");
    if (token != null) {
      sb.append("    token: ").append(token).append('\n');
    } else {
      sb.append("    {}\n");
    }
    sb.append("contexts:\n- name: jdra\n  context:\n    cluster: jdra\n    user: ")
        .append(user)
        .append('\n');
    sb.append("    namespace: default\ncurrent-context: jdra\n");
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Security.writePrivate(tmp, sb.toString());
    Files.move(
        tmp,
        file,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }
}
