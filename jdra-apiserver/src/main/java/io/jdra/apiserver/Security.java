package io.jdra.apiserver;

import io.jdra.apiserver.storage.PrivateFiles;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PfxOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
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
    if (o.dataDir() == null) {
      return generate(o.bindAddress(), null); // the keys live in memory only
    }
    Path dir = o.dataDir().resolve("pki");
    Path server = dir.resolve("server.p12");
    Path caCrt = dir.resolve("ca.crt");
    Path pw = dir.resolve("password");
    if (!Files.exists(server) || !Files.exists(caCrt) || !Files.exists(pw)) {
      return generate(o.bindAddress(), dir);
    }
    return new Material(
        Files.readAllBytes(server),
        Files.readString(pw, StandardCharsets.UTF_8).trim(),
        Files.readString(caCrt, StandardCharsets.UTF_8));
  }

  /**
   * A new CA and serving certificate (valid for ten years, as before), kept in {@code dir} when it
   * is not null: {@code password}, {@code ca.p12} (the CA key, alias ca), {@code ca.crt}, {@code
   * server.p12} (alias server with the chain to the CA, and the CA as a trusted entry) and {@code
   * server.crt}, all private to the user.
   */
  private static Material generate(String bindAddress, Path dir) throws IOException {
    try {
      String pass = random(16);
      ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
      Duration validity = Duration.ofDays(3650);
      Certificates.Issued ca = Certificates.selfSignedCa("jdra-ca", now, validity);
      Certificates.Issued server =
          Certificates.serving(
              ca, "jdra-apiserver", dnsNames(bindAddress), ips(bindAddress), now, validity);
      byte[] serverStore =
          pkcs12(
              pass,
              "server",
              server,
              ca.certificate(),
              ks -> ks.setCertificateEntry("ca", ca.certificate()));
      String caPem = Certificates.pem(ca.certificate());
      if (dir != null) {
        PrivateFiles.createDirectories(dir);
        writePrivate(dir.resolve("password"), pass);
        writePrivate(dir.resolve("ca.p12"), pkcs12(pass, "ca", ca, null, ks -> {}));
        writePrivate(dir.resolve("ca.crt"), caPem);
        writePrivate(dir.resolve("server.crt"), Certificates.pem(server.certificate()));
        // written last: its presence means the set is complete
        writePrivate(dir.resolve("server.p12"), serverStore);
      }
      return new Material(serverStore, pass, caPem);
    } catch (GeneralSecurityException e) {
      throw new IOException("make the API server's certificates: " + e.getMessage(), e);
    }
  }

  private interface StoreExtra {
    void add(KeyStore ks) throws GeneralSecurityException;
  }

  private static byte[] pkcs12(
      String pass,
      String alias,
      Certificates.Issued entry,
      X509Certificate issuer,
      StoreExtra extra)
      throws GeneralSecurityException, IOException {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(null, null);
    extra.add(ks);
    Certificate[] chain =
        issuer == null
            ? new Certificate[] {entry.certificate()}
            : new Certificate[] {entry.certificate(), issuer};
    ks.setKeyEntry(alias, entry.keys().getPrivate(), pass.toCharArray(), chain);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ks.store(out, pass.toCharArray());
    return out.toByteArray();
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
