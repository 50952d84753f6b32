package io.jdra.apiserver;

import io.jdra.apiserver.storage.PrivateFiles;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PfxOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The serving certificate (signed by a self-signed CA, both kept in {@code DATA/pki}, or in a
 * temporary directory without a data dir) and the bearer token. Certificates are made with the
 * JDK's keytool so no crypto library is needed.
 */
final class Security {
  /** Key material for HTTPS. */
  record Material(byte[] serverKeystore, String password, String caPem) {
    void configure(HttpServerOptions o) {
      o.setSsl(true)
          .setKeyCertOptions(
              new PfxOptions().setValue(Buffer.buffer(serverKeystore)).setPassword(password));
    }
  }

  private Security() {}

  static Material material(ApiServerOptions o) throws IOException {
    boolean temporary = o.dataDir() == null;
    Path dir = temporary ? Files.createTempDirectory("jdra-pki") : o.dataDir().resolve("pki");
    try {
      // keytool creates its files with the umask: the directory keeps them private meanwhile
      PrivateFiles.createDirectories(dir);
      Path server = dir.resolve("server.p12");
      Path caCrt = dir.resolve("ca.crt");
      Path pw = dir.resolve("password");
      if (!Files.exists(server) || !Files.exists(caCrt) || !Files.exists(pw)) {
        generate(dir, o.bindAddress());
      }
      return new Material(
          Files.readAllBytes(server),
          Files.readString(pw, StandardCharsets.UTF_8).trim(),
          Files.readString(caCrt, StandardCharsets.UTF_8));
    } finally {
      if (temporary) {
        deleteTree(dir); // the keys live in memory only; nothing is left in the temp dir
      }
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static void generate(Path dir, String bindAddress) throws IOException {
    String pass = random(16);
    writePrivate(dir.resolve("password"), pass);
    Path ca = dir.resolve("ca.p12");
    Path server = dir.resolve("server.p12");
    Files.deleteIfExists(ca);
    Files.deleteIfExists(server);
    String san = "san=ip:127.0.0.1,ip:0:0:0:0:0:0:0:1,dns:localhost";
    if (!bindAddress.equals("127.0.0.1") && !bindAddress.equals("0.0.0.0")) {
      san += bindAddress.matches("[0-9.:]+") ? ",ip:" + bindAddress : ",dns:" + bindAddress;
    }
    keytool(
        dir,
        "-genkeypair",
        "-alias",
        "ca",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=jdra-ca",
        "-ext",
        "bc:c",
        "-validity",
        "3650",
        "-keystore",
        "ca.p12",
        "-storetype",
        "PKCS12",
        "-storepass",
        pass);
    keytool(
        dir,
        "-exportcert",
        "-alias",
        "ca",
        "-keystore",
        "ca.p12",
        "-storepass",
        pass,
        "-rfc",
        "-file",
        "ca.crt");
    keytool(
        dir,
        "-genkeypair",
        "-alias",
        "server",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=jdra-apiserver",
        "-validity",
        "3650",
        "-keystore",
        "server.p12",
        "-storetype",
        "PKCS12",
        "-storepass",
        pass);
    keytool(
        dir,
        "-certreq",
        "-alias",
        "server",
        "-keystore",
        "server.p12",
        "-storepass",
        pass,
        "-file",
        "server.csr");
    keytool(
        dir,
        "-gencert",
        "-alias",
        "ca",
        "-keystore",
        "ca.p12",
        "-storepass",
        pass,
        "-infile",
        "server.csr",
        "-outfile",
        "server.crt",
        "-rfc",
        "-validity",
        "3650",
        "-ext",
        san,
        "-ext",
        "eku=serverAuth");
    keytool(
        dir,
        "-importcert",
        "-alias",
        "ca",
        "-file",
        "ca.crt",
        "-keystore",
        "server.p12",
        "-storepass",
        pass,
        "-noprompt");
    keytool(
        dir,
        "-importcert",
        "-alias",
        "server",
        "-file",
        "server.crt",
        "-keystore",
        "server.p12",
        "-storepass",
        pass,
        "-noprompt");
    Files.deleteIfExists(dir.resolve("server.csr"));
    for (String f : List.of("ca.p12", "server.p12", "ca.crt", "server.crt")) {
      if (Files.exists(dir.resolve(f))) {
        PrivateFiles.restrict(dir.resolve(f));
      }
    }
  }

  private static void keytool(Path dir, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IOException("keytool " + args[0] + " failed: " + out.trim());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("keytool interrupted", e);
    }
  }

  /** The bearer token: kept in {@code DATA/token} when there is a data dir. */
  static String token(ApiServerOptions o) throws IOException {
    if (o.dataDir() == null) {
      return random(24);
    }
    Path f = o.dataDir().resolve("token");
    if (Files.exists(f)) {
      return Files.readString(f, StandardCharsets.UTF_8).trim();
    }
    PrivateFiles.createDirectories(o.dataDir());
    String t = random(24);
    writePrivate(f, t);
    return t;
  }

  static void writePrivate(Path f, String content) throws IOException {
    Files.deleteIfExists(f);
    Files.createFile(f, PrivateFiles.fileAttributes());
    Files.writeString(f, content, StandardCharsets.UTF_8);
  }

  private static String random(int bytes) {
    byte[] b = new byte[bytes];
    new SecureRandom().nextBytes(b);
    return HexFormat.of().formatHex(b);
  }
}
