package io.jdra.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.PfxOptions;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A kubeconfig that authenticates with a client certificate, as kind and kubeadm write for their
 * admin: {@link ApiRequests} presents the certificate (the server requires one and answers only to
 * this one) and verifies the server's against the configured CA.
 */
class ApiRequestsClientCertTest {
  private static final Vertx VERTX = Vertx.vertx();
  private static Path dir;
  private static Issued serverCert;
  private static Issued clientCert;
  private static HttpServer server;
  private static final List<String> seen = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    dir = Files.createTempDirectory("client-cert-test");
    serverCert = issue("server");
    clientCert = issue("client");
    Certificate expected = clientCert.certificate();
    server =
        VERTX
            .createHttpServer(
                new HttpServerOptions()
                    .setSsl(true)
                    .setUseAlpn(true)
                    .setKeyCertOptions(
                        new PfxOptions().setPath(serverCert.keystore().toString()).setPassword(PW))
                    .setClientAuth(ClientAuth.REQUIRED)
                    .setTrustOptions(
                        new PemTrustOptions().addCertValue(Buffer.buffer(clientCert.certPem()))))
            .requestHandler(req -> answer(req, expected))
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
  }

  /** A pod named after what the server saw: the client's certificate or not, and the protocol. */
  private static void answer(HttpServerRequest req, Certificate expected) {
    boolean presented;
    try {
      presented =
          Arrays.equals(
              req.connection().peerCertificates().getFirst().getEncoded(), expected.getEncoded());
    } catch (Exception e) {
      presented = false;
    }
    seen.add(req.version() + " " + req.method() + " " + req.uri());
    String name = (presented ? "client-cert-" : "unknown-cert-") + req.version().alpnName();
    req.response()
        .putHeader("Content-Type", "application/json")
        .end(
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
                + name
                + "\",\"namespace\":\"ns\"}}");
  }

  @AfterAll
  static void stop() throws Exception {
    VERTX.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }

  @Test
  void theClientCertificateIsPresented() {
    try (KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder()
                    .withMasterUrl("https://localhost:" + server.actualPort())
                    .withAutoConfigure(false)
                    .withCaCertData(base64(serverCert.certPem()))
                    .withClientCertData(base64(clientCert.certPem()))
                    .withClientKeyData(base64(clientCert.keyPem()))
                    .withClientKeyAlgo("RSA")
                    .withRequestRetryBackoffLimit(0)
                    .build())
            .build()) {
      ApiRequests api = new ApiRequests(client);
      Pod pod = api.resource("v1", "pods", Pod.class).get("ns", "p");
      assertThat(pod.getMetadata().getName()).isEqualTo("client-cert-http/1.1");
      assertThat(seen).contains("HTTP_1_1 GET /api/v1/namespaces/ns/pods/p");
    }
  }

  private static final String PW = "changeit";

  /** A key pair and self-signed certificate for localhost, in a PKCS#12 store and as PEM. */
  record Issued(Path keystore, Certificate certificate, String certPem, String keyPem) {}

  /** Made by the JDK's keytool: the JDK has no public API to sign a certificate. */
  private static Issued issue(String name) throws Exception {
    Path ks = dir.resolve(name + ".p12");
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-alias",
                name,
                "-dname",
                "CN=" + name,
                "-ext",
                "SAN=dns:localhost,ip:127.0.0.1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                ks.toString(),
                "-storepass",
                PW,
                "-keypass",
                PW)
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as(out).isZero();
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(ks)) {
      store.load(in, PW.toCharArray());
    }
    Certificate cert = store.getCertificate(name);
    java.security.Key key = store.getKey(name, PW.toCharArray());
    return new Issued(
        ks, cert, pem("CERTIFICATE", cert.getEncoded()), pem("PRIVATE KEY", key.getEncoded()));
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  private static String base64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
