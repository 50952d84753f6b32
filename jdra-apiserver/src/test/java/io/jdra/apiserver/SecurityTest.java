package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
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
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(new ByteArrayInputStream(m.serverKeystore()), m.password().toCharArray());
    X509Certificate server = (X509Certificate) ks.getCertificateChain("server")[0];
    X509Certificate ca =
        (X509Certificate)
            CertificateFactory.getInstance("X.509")
                .generateCertificate(
                    new ByteArrayInputStream(m.caPem().getBytes(StandardCharsets.UTF_8)));

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
    assertThat(ks.isKeyEntry("server")).isTrue();
    assertThat(ks.isCertificateEntry("ca")).isTrue();

    Security.Material again = Security.material(o);
    assertThat(again.caPem()).isEqualTo(m.caPem());
    assertThat(Files.readString(dir.resolve("pki/ca.crt"))).isEqualTo(m.caPem());
    assertThat(dir.resolve("pki/ca.p12")).exists();
    assertThat(dir.resolve("pki/server.crt")).exists();
  }

  @Test
  void aNameBindAddressIsADnsNameAndNothingIsWrittenWithoutADataDir() throws Exception {
    Security.Material m =
        Security.material(ApiServerOptions.inMemory().withBindAddress("api.example.test"));
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(new ByteArrayInputStream(m.serverKeystore()), m.password().toCharArray());
    X509Certificate server = (X509Certificate) ks.getCertificateChain("server")[0];
    assertThat(server.getSubjectAlternativeNames())
        .contains(List.of(2, "api.example.test"), List.of(2, "localhost"));
  }
}
