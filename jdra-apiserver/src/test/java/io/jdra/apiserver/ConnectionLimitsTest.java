package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.http.ConnectionTimeouts;
import io.jdra.apiserver.http.HttpTimeouts;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Requests that would hold the server or crash a handler get a quick 4xx, and connections that do
 * nothing are closed. The servers here run with timeouts of a fraction of a second instead of
 * kube-apiserver's 32 s / 90 s / 60 s, so every wait is bounded by a few seconds at most.
 */
class ConnectionLimitsTest {
  static final Duration SHORT = Duration.ofMillis(600);
  static final HttpTimeouts TIMEOUTS = new HttpTimeouts(SHORT, SHORT, SHORT);

  static ServerFixture f;

  @BeforeAll
  static void start() {
    f = new ServerFixture(ApiServerOptions.inMemory().withHttpTimeouts(TIMEOUTS));
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  static int port() {
    return f.server.url().getPort();
  }

  /** Sends raw bytes on a new connection and returns what comes back first. */
  static String exchange(int port, String request) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(ascii(request));
      out.flush();
      InputStream in = s.getInputStream();
      byte[] buf = new byte[8192];
      int n = in.read(buf);
      return n < 0 ? "" : new String(buf, 0, n, StandardCharsets.UTF_8);
    }
  }

  /** What a connection delivers until the server closes it, and after how long. */
  record Closed(String received, Duration after) {}

  /** Reads until the server closes {@code s} (at most 10 s), timed from {@code since}. */
  static Closed awaitClose(Socket s, long since) throws IOException {
    s.setSoTimeout(10_000);
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    InputStream in = s.getInputStream();
    byte[] buf = new byte[8192];
    try {
      int n;
      while ((n = in.read(buf)) >= 0) {
        got.write(buf, 0, n);
      }
    } catch (SocketException reset) {
      // closed with unread input: a reset instead of an orderly end, closed all the same
    }
    return new Closed(
        got.toString(StandardCharsets.UTF_8), Duration.ofNanos(System.nanoTime() - since));
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void badPercentEncodingInTheQueryIs400() throws IOException {
    String reply =
        exchange(
            port(),
            "GET /api/v1/namespaces/default/configmaps?labelSelector=%zz HTTP/1.1\r\n"
                + "Host: x\r\nConnection: close\r\n\r\n");

    assertThat(reply).startsWith("HTTP/1.1 400").contains("\"reason\":\"BadRequest\"");
  }

  @Test
  void hugeDeclaredBodyIsRefusedBeforeItIsSent() throws IOException {
    String reply =
        exchange(
            port(),
            "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nExpect: 100-continue\r\n"
                + "Content-Length: 1000000000\r\n\r\n");

    assertThat(reply).startsWith("HTTP/1.1 413").contains("Request entity too large");
  }

  @Test
  void expectContinueGetsItsContinue() throws IOException {
    String reply =
        exchange(
            port(),
            "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nExpect: 100-continue\r\n"
                + "Content-Length: 10\r\n\r\n");

    assertThat(reply).startsWith("HTTP/1.1 100 Continue");
  }

  @Test
  void aLongRequestLineIsServedAsWithGosOneMegabyteHeaderLimit() throws IOException {
    String selector = "a" + "b".repeat(20_000) + "!=x"; // a valid, long label selector
    String reply =
        exchange(
            port(),
            "GET /api/v1/namespaces/default/configmaps?labelSelector="
                + selector
                + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");

    assertThat(reply).startsWith("HTTP/1.1 ");
    assertThat(reply).doesNotStartWith("HTTP/1.1 414").doesNotStartWith("HTTP/1.1 431");
  }

  @Test
  void aConnectionThatNeverSendsARequestIsClosed() throws IOException {
    long t0 = System.nanoTime();
    try (Socket s = new Socket("127.0.0.1", port())) {
      Closed c = awaitClose(s, t0);

      assertThat(c.received()).isEmpty();
      assertThat(c.after()).isBetween(SHORT.minusMillis(50), Duration.ofSeconds(8));
    }
  }

  @Test
  void aSlowlorisTricklingHeaderBytesIsClosedWithoutAnAnswer() throws Exception {
    long t0 = System.nanoTime();
    try (Socket s = new Socket("127.0.0.1", port())) {
      OutputStream out = s.getOutputStream();
      out.write(ascii("GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n"));
      Thread trickle =
          Thread.ofVirtual()
              .start(() -> {
                try {
                  for (int i = 0; i < 100; i++) { // a header byte every 50 ms, never the end
                    out.write('X');
                    out.flush();
                    Thread.sleep(50);
                  }
                } catch (IOException | InterruptedException closed) {
                  // the server closed the connection: what the test waits for
                }
              });
      Closed c = awaitClose(s, t0);
      trickle.interrupt();

      assertThat(c.received()).isEmpty();
      assertThat(c.after()).isBetween(SHORT.minusMillis(50), Duration.ofSeconds(4));
    }
  }

  @Test
  void aRequestBodyThatNeverArrivesGets504AndTheConnectionIsClosed() throws IOException {
    long t0 = System.nanoTime();
    try (Socket s = new Socket("127.0.0.1", port())) {
      s.getOutputStream()
          .write(
              ascii(
                  "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\n"
                      + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"kind\":"));
      Closed c = awaitClose(s, t0);

      assertThat(c.received())
          .startsWith("HTTP/1.1 504")
          .contains("\"reason\":\"Timeout\"")
          .contains("request did not complete within requested timeout");
      assertThat(c.after()).isBetween(SHORT.minusMillis(50), Duration.ofSeconds(8));
    }
  }

  @Test
  void anIdleKeepAliveConnectionIsClosedButAWatchInFlightIsNot() throws Exception {
    try (Socket watch = new Socket("127.0.0.1", port());
        Socket idle = new Socket("127.0.0.1", port())) {
      watch.setSoTimeout(10_000);
      watch
          .getOutputStream()
          .write(
              ascii(
                  "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0"
                      + "&labelSelector=case%3Didle HTTP/1.1\r\nHost: x\r\n\r\n"));
      InputStream events = watch.getInputStream();
      byte[] buf = new byte[8192];
      assertThat(new String(buf, 0, events.read(buf), StandardCharsets.UTF_8))
          .startsWith("HTTP/1.1 200");

      long t0 = System.nanoTime();
      idle.getOutputStream().write(ascii("GET /version HTTP/1.1\r\nHost: x\r\n\r\n"));
      Closed c = awaitClose(idle, t0); // answered, then closed once idle

      assertThat(c.received()).startsWith("HTTP/1.1 200");
      assertThat(c.after()).isGreaterThanOrEqualTo(SHORT.minusMillis(50));
      // The watch was established before and has been silent for longer than the idle timeout.
      f.raw(
          "POST",
          "/api/v1/namespaces/default/configmaps",
          "application/json",
          "{\"metadata\":{\"name\":\"idle-watch\",\"labels\":{\"case\":\"idle\"}}}");
      StringBuilder got = new StringBuilder();
      while (!got.toString().contains("idle-watch")) {
        int n = events.read(buf);
        assertThat(n).as("the watch is still open").isPositive();
        got.append(new String(buf, 0, n, StandardCharsets.UTF_8));
      }
      assertThat(got.toString()).contains("\"type\":\"ADDED\"");
    }
  }

  @Test
  void aRequestInFlightOutlivesTheIdleTimeoutThenTheIdleConnectionIsClosed() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      Duration limit = Duration.ofMillis(300);
      HttpServer server =
          new ConnectionTimeouts(new HttpTimeouts(limit, limit, limit))
              .create(
                  vertx,
                  new HttpServerOptions().setHost("127.0.0.1").setPort(0),
                  req -> vertx.setTimer(1_000, id -> req.response().end("slow")));
      server.listen().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);

      try (Socket s = new Socket("127.0.0.1", server.actualPort())) {
        s.getOutputStream().write(ascii("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        Closed c = awaitClose(s, System.nanoTime()); // the slow answer, then the idle close

        assertThat(c.received()).startsWith("HTTP/1.1 200").endsWith("slow");
      }
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void overTlsAHandshakeThatNeverHappensAndAnHttp2PrefaceThatNeverComesAreClosed()
      throws Exception {
    // Longer than SHORT: a loaded machine must still finish the test's own handshakes in time.
    Duration handshake = Duration.ofMillis(1500);
    ApiServerOptions tls =
        ApiServerOptions.inMemory()
            .withSecurity(true)
            .withHttpTimeouts(new HttpTimeouts(handshake, handshake, handshake));
    try (EmbeddedApiServer server = EmbeddedApiServer.start(tls)) {
      int port = server.url().getPort();
      long t0 = System.nanoTime();
      try (Socket plain = new Socket("127.0.0.1", port)) {
        Closed c = awaitClose(plain, t0); // TCP only: no ClientHello

        assertThat(c.received()).isEmpty();
        assertThat(c.after()).isBetween(handshake.minusMillis(50), Duration.ofSeconds(10));
      }
      for (String protocol : new String[] {"h2", "http/1.1"}) {
        t0 = System.nanoTime();
        try (SSLSocket s =
            (SSLSocket) trustAll().getSocketFactory().createSocket("127.0.0.1", port)) {
          SSLParameters p = s.getSSLParameters();
          p.setApplicationProtocols(new String[] {protocol});
          s.setSSLParameters(p);
          s.startHandshake();
          assertThat(s.getApplicationProtocol()).isEqualTo(protocol);
          Closed c = awaitClose(s, t0); // handshake done, then nothing

          assertThat(c.after())
              .as(protocol)
              .isBetween(handshake.minusMillis(50), Duration.ofSeconds(10));
        }
      }
    }
  }

  private static SSLContext trustAll() throws Exception {
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(
        null,
        new TrustManager[] {
          new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public X509Certificate[] getAcceptedIssuers() {
              return new X509Certificate[0];
            }
          }
        },
        null);
    return ctx;
  }
}
