package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-process CA and serving certificate: the chain verifies, names and extensions as keytool
 * gave them.
 */
class SecurityTest {
  @TempDir Path dir;

  @Test
  void makesAChainClientsVerifyAndKeepsItInTheDataDir() throws Exception {
    ApiServerOptions o = ApiServerOptions.inMemory().withDataDir(dir).withBindAddress("10.1.2.3");
    Security.Material m = Security.material(o);
    List<X509Certificate> chain = certificates(m.serverChainPem());
    X509Certificate server = chain.get(0);
    X509Certificate ca = certificates(m.caPem()).get(0);

    server.verify(ca.getPublicKey());
    ca.verify(ca.getPublicKey());
    assertThat(ca.getBasicConstraints()).isEqualTo(Integer.MAX_VALUE);
    assertThat(ca.getCriticalExtensionOIDs()).contains("2.5.29.19");
    assertThat(server.getBasicConstraints()).isEqualTo(-1);
    assertThat(server.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
    assertThat(server.getSubjectX500Principal().getName()).isEqualTo("CN=jdra-apiserver");
    assertThat(server.getIssuerX500Principal()).isEqualTo(ca.getSubjectX500Principal());
    assertThat(server.getSubjectAlternativeNames())
        .containsExactlyInAnyOrder(
            List.of(7, "127.0.0.1"),
            List.of(7, "0:0:0:0:0:0:0:1"),
            List.of(7, "10.1.2.3"),
            List.of(2, "localhost"));
    assertThat(chain).containsExactly(server, ca);
    assertThat(privateKey(m.serverKeyPem()).getAlgorithm()).isEqualTo("EC");
    assertSignedBy(privateKey(m.serverKeyPem()), server);

    Security.Material again = Security.material(o);
    assertThat(again.caPem()).isEqualTo(m.caPem());
    assertThat(Files.readString(dir.resolve("pki/ca.crt"))).isEqualTo(m.caPem());
    assertThat(again.serverKeyPem()).isEqualTo(m.serverKeyPem());
    assertThat(Files.readString(dir.resolve("pki/apiserver.crt"))).isEqualTo(m.serverChainPem());
    assertSignedBy(privateKey(Files.readString(dir.resolve("pki/ca.key"))), ca);
  }

  @Test
  void aNameBindAddressIsADnsNameAndNothingIsWrittenWithoutADataDir() throws Exception {
    Security.Material m =
        Security.material(ApiServerOptions.inMemory().withBindAddress("api.example.test"));
    X509Certificate server = certificates(m.serverChainPem()).get(0);
    assertThat(server.getSubjectAlternativeNames())
        .contains(List.of(2, "api.example.test"), List.of(2, "localhost"));
  }

  @Test
  void anInMemoryHttpsServerLeavesNoKeysInTheTempDirectory() throws Exception {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    List<Path> before = keyDirectories(tmp);
    try (EmbeddedApiServer s =
        EmbeddedApiServer.start(ApiServerOptions.inMemory().withSecurity(true))) {
      assertThat(keyDirectories(tmp)).isEqualTo(before);
    }
    assertThat(keyDirectories(tmp)).isEqualTo(before);
  }

  /** What an in-memory server once left behind on every start (issue 15, finding 11). */
  private static List<Path> keyDirectories(Path tmp) throws Exception {
    try (var entries = Files.list(tmp)) {
      return entries
          .filter(p -> p.getFileName().toString().startsWith("jdra-pki"))
          .sorted()
          .toList();
    }
  }

  private static List<X509Certificate> certificates(String pem) throws Exception {
    return CertificateFactory.getInstance("X.509")
        .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.UTF_8)))
        .stream()
        .map(X509Certificate.class::cast)
        .toList();
  }

  private static PrivateKey privateKey(String pem) throws Exception {
    String b64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    return KeyFactory.getInstance("EC")
        .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(b64)));
  }

  /** The key is the certificate's: what it signs, the certificate's public key verifies. */
  private static void assertSignedBy(PrivateKey key, X509Certificate cert) throws Exception {
    byte[] data = "jdra".getBytes(StandardCharsets.UTF_8);
    Signature s = Signature.getInstance("SHA256withECDSA");
    s.initSign(key);
    s.update(data);
    byte[] sig = s.sign();
    Signature v = Signature.getInstance("SHA256withECDSA");
    v.initVerify(cert.getPublicKey());
    v.update(data);
    assertThat(v.verify(sig)).isTrue();
  }
}
