package io.jdra.httpclient;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.client.utils.HttpClientUtils;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The factory as fabric8 uses it, against a server that sends at once on every upgrade. */
class VertxClientFactoryTest {
  static final int MESSAGES = 5;
  static Vertx serverVertx;
  static HttpServer server;
  static final BlockingQueue<String> upgradeHeaders = new LinkedBlockingQueue<>();

  @BeforeAll
  static void start() throws Exception {
    serverVertx = Vertx.vertx();
    server =
        serverVertx
            .createHttpServer()
            .webSocketHandler(ws -> {
              upgradeHeaders.add(String.valueOf(ws.headers().get("X-Jdra-Test")));
              for (int i = 0; i < MESSAGES; i++) {
                ws.writeTextMessage("m" + i);
              }
            })
            .requestHandler(r -> r.response().end("plain " + r.path()))
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() {
    serverVertx.close();
  }

  static URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.actualPort() + path);
  }

  @Test
  void fabric8FindsThisFactoryFirst() {
    assertThat(HttpClientUtils.getHttpClientFactory()).isInstanceOf(VertxClientFactory.class);
  }

  @Test
  void socketsGetEveryMessageTheServerSendsOnUpgrade() throws Exception {
    HttpClient client = new VertxClientFactory().newBuilder().build();
    try {
      assertThat(VertxClientFactory.built(client)).isTrue();
      assertThat(messages(client)).containsExactly("m0", "m1", "m2", "m3", "m4");
      HttpClient derived = client.newBuilder().build();
      assertThat(VertxClientFactory.built(derived)).isTrue();
      assertThat(messages(derived)).containsExactly("m0", "m1", "m2", "m3", "m4");
    } finally {
      client.close();
    }
  }

  @Test
  void settingsMadeBeforeBuildApply() throws Exception {
    Interceptor header =
        new Interceptor() {
          @Override
          public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            builder.header("X-Jdra-Test", "set before build");
          }
        };
    HttpClient client =
        new VertxClientFactory()
            .newBuilder()
            .connectTimeout(5, TimeUnit.SECONDS)
            .addOrReplaceInterceptor("test", header)
            .build();
    try {
      upgradeHeaders.clear();
      messages(client);
      assertThat(upgradeHeaders.poll(10, TimeUnit.SECONDS)).isEqualTo("set before build");
      HttpResponse<String> plain =
          client
              .sendAsync(client.newHttpRequestBuilder().uri(uri("/p")).build(), String.class)
              .get(10, TimeUnit.SECONDS);
      assertThat(plain.body()).isEqualTo("plain /p");
    } finally {
      client.close();
    }
    assertThat(client.isClosed()).isTrue();
  }

  /** Opens a socket as fabric8's watches do (one message per request) and reads MESSAGES. */
  private static List<String> messages(HttpClient client) throws Exception {
    BlockingQueue<String> received = new LinkedBlockingQueue<>();
    WebSocket socket =
        client
            .newWebSocketBuilder()
            .uri(uri("/watch"))
            .buildAsync(
                new WebSocket.Listener() {
                  @Override
                  public void onOpen(WebSocket ws) {
                    ws.request();
                  }

                  @Override
                  public void onMessage(WebSocket ws, String text) {
                    received.add(text);
                    ws.request();
                  }
                })
            .get(10, TimeUnit.SECONDS);
    List<String> got = new ArrayList<>();
    for (int i = 0; i < MESSAGES; i++) {
      String m = received.poll(10, TimeUnit.SECONDS);
      assertThat(m).as("message %d of %d, got %s", i, MESSAGES, got).isNotNull();
      got.add(m);
    }
    socket.sendClose(EventLoopWebSocketBuilder.NORMAL_CLOSURE, null);
    return got;
  }
}
