package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.http.ConnectionTimeouts;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Requests that would hold the server or crash a handler get a quick 4xx, and connections that do
 * nothing are closed (bounded waits of a few seconds at most).
 */
class ConnectionLimitsTest {
  static ServerFixture f;

  @BeforeAll
  static void start() {
    f = new ServerFixture();
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  /** Sends raw bytes on a new connection and returns what comes back before it closes. */
  static String exchange(int port, String request) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      byte[] buf = new byte[8192];
      int n = in.read(buf);
      return n < 0 ? "" : new String(buf, 0, n, StandardCharsets.UTF_8);
    }
  }

  @Test
  void badPercentEncodingInTheQueryIs400() throws IOException {
    String reply =
        exchange(
            f.server.url().getPort(),
            "GET /api/v1/namespaces/default/configmaps?labelSelector=%zz HTTP/1.1\r\n"
                + "Host: x\r\nConnection: close\r\n\r\n");

    assertThat(reply).startsWith("HTTP/1.1 400").contains("\"reason\":\"BadRequest\"");
  }

  @Test
  void hugeDeclaredBodyIsRefusedBeforeItIsSent() throws IOException {
    String reply =
        exchange(
            f.server.url().getPort(),
            "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nExpect: 100-continue\r\n"
                + "Content-Length: 1000000000\r\n\r\n");

    assertThat(reply).startsWith("HTTP/1.1 413").contains("Request entity too large");
  }

  @Test
  void expectContinueGetsItsContinue() throws IOException {
    String reply =
        exchange(
            f.server.url().getPort(),
            "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nExpect: 100-continue\r\n"
                + "Content-Length: 10\r\n\r\n");

    assertThat(reply).startsWith("HTTP/1.1 100 Continue");
  }

  @Test
  void idleKeepAliveConnectionsAreClosedButRequestsInFlightAreNot() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      ConnectionTimeouts t =
          new ConnectionTimeouts(vertx, Duration.ofMillis(300), Duration.ofMillis(300));
      HttpServer server =
          t.install(
              vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0)),
              req -> vertx.setTimer(1_000, id -> req.response().end("slow")));
      server.listen().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);

      try (Socket s = new Socket("127.0.0.1", server.actualPort())) {
        s.setSoTimeout(5_000);
        s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
        InputStream in = s.getInputStream();
        StringBuilder reply = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) { // the slow answer, then the end of the idle connection
          reply.append((char) b);
        }
        assertThat(reply.toString()).startsWith("HTTP/1.1 200").endsWith("slow");
      }
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }
}
