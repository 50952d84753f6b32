package io.jdra.apiserver;

import io.jdra.apiserver.storage.PrivateFiles;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The serving certificate (signed by a self-signed CA, both kept in {@code DATA/pki}, or in memory
 * only without a data dir) and the bearer token. Certificates are made in process by {@link
 * Certificates} with the JDK's providers, so no crypto library is needed.
 *
 * <p>Keys and certificates are PEM files named as kubeadm names them ({@code ca.crt}, {@code
 * ca.key}, {@code apiserver.crt}, {@code apiserver.key}). PEM rather than PKCS#12 because a PKCS#12
 * store is sealed with PBKDF2 at 10,000 iterations per entry: making and opening the stores took
 * about a second of the server's start on two cores.
 */
final class Security {
  /** Key material for HTTPS: the serving key, its chain to the CA, and the CA, all PEM. */
  record Material(String serverKeyPem, String serverChainPem, String caPem) {
    void configure(HttpServerOptions o) {
      o.setSsl(true)
          .setKeyCertOptions(
              new PemKeyCertOptions()
                  .addKeyValue(Buffer.buffer(serverKeyPem))
                  .addCertValue(Buffer.buffer(serverChainPem)));
    }
  }

  private Security() {}

  static Material material(ApiServerOptions o) throws IOException {
    if (o.dataDir() == null) {
      return generate(o.bindAddress(), null); // the keys live in memory only
    }
    Path dir = o.dataDir().resolve("pki");
    Path key = dir.resolve("apiserver.key");
    Path chain = dir.resolve("apiserver.crt");
    Path caCrt = dir.resolve("ca.crt");
    if (!Files.exists(key) || !Files.exists(chain) || !Files.exists(caCrt)) {
      return generate(o.bindAddress(), dir);
    }
    return new Material(
        Files.readString(key, StandardCharsets.UTF_8),
        Files.readString(chain, StandardCharsets.UTF_8),
        Files.readString(caCrt, StandardCharsets.UTF_8));
  }

  /**
   * A new CA and serving certificate (valid for ten years), kept in {@code dir} when it is not
   * null: {@code ca.key}, {@code ca.crt}, {@code apiserver.crt} (the serving certificate, then the
   * CA) and {@code apiserver.key}, all private to the user. Files of an older layout in {@code dir}
   * are left alone; a new CA replaces them for clients when they next read the kubeconfig.
   */
  private static Material generate(String bindAddress, Path dir) throws IOException {
    try {
      ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
      Duration validity = Duration.ofDays(3650);
      Certificates.Issued ca = Certificates.selfSignedCa("jdra-ca", now, validity);
      Certificates.Issued server =
          Certificates.serving(
              ca, "jdra-apiserver", dnsNames(bindAddress), ips(bindAddress), now, validity);
      String caPem = Certificates.pem(ca.certificate());
      String chainPem = Certificates.pem(server.certificate()) + caPem;
      String keyPem = Certificates.pem(server.keys().getPrivate());
      if (dir != null) {
        PrivateFiles.createDirectories(dir);
        writePrivate(dir.resolve("ca.key"), Certificates.pem(ca.keys().getPrivate()));
        writePrivate(dir.resolve("ca.crt"), caPem);
        writePrivate(dir.resolve("apiserver.crt"), chainPem);
        // written last: its presence means the set is complete
        writePrivate(dir.resolve("apiserver.key"), keyPem);
      }
      return new Material(keyPem, chainPem, caPem);
    } catch (GeneralSecurityException e) {
      throw new IOException("make the API server's certificates: " + e.getMessage(), e);
    }
  }

  /** localhost, plus the bind address when it is a name. */
  static List<String> dnsNames(String bindAddress) {
    List<String> names = new ArrayList<>(List.of("localhost"));
    if (!isLoopbackDefault(bindAddress) && !isIpLiteral(bindAddress)) {
      names.add(bindAddress);
    }
    return names;
  }

  /** 127.0.0.1 and ::1, plus the bind address when it is a specific IP address. */
  static List<InetAddress> ips(String bindAddress) throws IOException {
    List<InetAddress> ips = new ArrayList<>();
    ips.add(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}));
    ips.add(InetAddress.getByAddress(loopback6()));
    if (!isLoopbackDefault(bindAddress) && isIpLiteral(bindAddress)) {
      ips.add(InetAddress.getByName(bindAddress)); // a literal: no lookup
    }
    return ips;
  }

  private static byte[] loopback6() {
    byte[] b = new byte[16];
    b[15] = 1;
    return b;
  }

  private static boolean isLoopbackDefault(String bindAddress) {
    return bindAddress.equals("127.0.0.1") || bindAddress.equals("0.0.0.0");
  }

  private static boolean isIpLiteral(String bindAddress) {
    return bindAddress.matches("[0-9.:]+");
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
    writePrivate(f, content.getBytes(StandardCharsets.UTF_8));
  }

  static void writePrivate(Path f, byte[] content) throws IOException {
    Files.deleteIfExists(f);
    Files.createFile(f, PrivateFiles.fileAttributes());
    Files.write(f, content);
  }

  private static String random(int bytes) {
    byte[] b = new byte[bytes];
    new SecureRandom().nextBytes(b);
    return HexFormat.of().formatHex(b);
  }
}
