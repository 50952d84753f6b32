package io.jdra.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.client.http.WebSocketResponse;
import io.jdra.apiserver.http.InProcessCall;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WatchSocketTest {
  private static final String EVENT = "{\"k\":\"caf\u00e9 \u20ac \uD83D\uDE00\"}";
  private static final HttpRequest REQUEST =
      new StandardHttpRequest.Builder().uri("http://in-process/api/v1/pods?watch=true").build();

  private final List<String> heard = new ArrayList<>();
  private final Call call = new Call();
  private final WatchSocket socket =
      new WatchSocket(
          REQUEST,
          new WebSocket.Listener() {
            @Override
            public void onOpen(WebSocket ws) {
              heard.add("open");
            }

            @Override
            public void onMessage(WebSocket ws, String text) {
              heard.add(text);
            }

            @Override
            public void onClose(WebSocket ws, int code, String reason) {
              heard.add("close " + code);
              ws.sendClose(code, reason); // as fabric8's watch listener answers
            }

            @Override
            public void onError(WebSocket ws, Throwable t) {
              heard.add("error " + t.getMessage());
            }
          });

  @Test
  void everySplitOfTheBytesOverTwoChunksGivesTheSameLines() {
    byte[] bytes = (EVENT + "\n" + EVENT + "\n\n{}\n").getBytes(StandardCharsets.UTF_8);
    for (int cut = 0; cut <= bytes.length; cut++) {
      WatchSocket.WatchLines lines = new WatchSocket.WatchLines();
      ArrayDeque<String> out = new ArrayDeque<>();
      lines.split(ByteBuffer.wrap(bytes, 0, cut), out);
      lines.split(ByteBuffer.wrap(bytes, cut, bytes.length - cut).slice(), out);
      assertThat(out).as("cut at byte %d", cut).containsExactly(EVENT, EVENT, "{}");
    }
  }

  @Test
  void aLineOverThreeDirectBuffersIsOneMessage() {
    byte[] bytes = (EVENT + "\n").getBytes(StandardCharsets.UTF_8);
    WatchSocket.WatchLines lines = new WatchSocket.WatchLines();
    ArrayDeque<String> out = new ArrayDeque<>();
    for (int[] part : new int[][] {{0, 7}, {7, 9}, {9, bytes.length}}) {
      ByteBuffer direct = ByteBuffer.allocateDirect(part[1] - part[0]);
      direct.put(bytes, part[0], part[1] - part[0]).flip();
      lines.split(direct, out);
    }
    assertThat(out).containsExactly(EVENT);
  }

  @Test
  void theFirstMessageGoesUnaskedTheOthersWhenAskedAndTheEndAfterTheLast() {
    socket.head(200, Map.of(), call);
    assertThat(socket.response()).isCompleted();
    assertThat(heard).containsExactly("open");
    assertThat(call.requests).isEqualTo(1);

    socket.chunks(List.of(utf8("a\nb\nc")));
    assertThat(heard).containsExactly("open", "a");
    socket.end();
    socket.request();
    assertThat(heard).containsExactly("open", "a", "b");
    assertThat(call.requests).as("lines left: the server is not asked").isEqualTo(1);
    socket.request();
    assertThat(heard)
        .as("an unterminated line is no event")
        .containsExactly("open", "a", "b", "close 1000");
    socket.request();
    assertThat(heard).hasSize(4);
    assertThat(call.cancels).isZero();
  }

  @Test
  void theServerIsAskedForMoreOnceTheLinesAreHandedOnOneBatchAhead() {
    socket.head(200, Map.of(), call);
    assertThat(call.requests).isEqualTo(1);
    socket.chunks(List.of(utf8("a\nb\n")));
    assertThat(call.requests).as("a line waits: the server is not asked").isEqualTo(1);
    socket.request();
    assertThat(call.requests)
        .as("the last line handed on: asked before the listener asks again")
        .isEqualTo(2);
    socket.chunks(List.of(utf8("c\n")));
    assertThat(heard).containsExactly("open", "a", "b");
    assertThat(call.requests).as("a slow listener holds the server back").isEqualTo(2);
    socket.request();
    assertThat(call.requests).isEqualTo(3);
    socket.request();
    assertThat(call.requests).as("asked already: nothing more to ask").isEqualTo(3);
    socket.chunks(List.of(utf8("d\n")));
    assertThat(heard).as("a line that comes after the ask goes out at once").endsWith("c", "d");
    assertThat(call.requests).isEqualTo(4);
  }

  @Test
  void sendCloseCancelsTheStreamAndReportsTheCloseOnce() {
    socket.head(200, Map.of(), call);
    socket.chunks(List.of(utf8("a\nb\n")));
    assertThat(socket.sendClose(1000, null)).isTrue();
    assertThat(socket.sendClose(1000, null)).isFalse();
    socket.request();
    assertThat(call.cancels).isEqualTo(1);
    assertThat(heard).containsExactly("open", "a", "close 1000");
  }

  @Test
  void aFailureAfterTheHeadIsAnError() {
    socket.head(200, Map.of(), call);
    socket.failed(new IOException("gone"));
    socket.chunks(List.of(utf8("a\n")));
    socket.request();
    assertThat(heard).containsExactly("open", "error gone");
  }

  @Test
  void aFailureBeforeTheHeadFailsTheConnection() {
    socket.failed(new IOException("stopped"));
    assertThat(socket.response()).isCompletedExceptionally();
    assertThat(heard).isEmpty();
  }

  @Test
  void aStatusOtherThan2xxIsARefusedHandshakeWithThatCode() throws Exception {
    socket.head(403, Map.of("Content-Type", List.of("application/json")), call);
    WebSocketResponse response = socket.response().get();
    assertThat(call.cancels).isEqualTo(1);
    assertThat(heard).isEmpty();
    assertThat(response).extracting("webSocketUpgradeResponse").extracting("code").isEqualTo(403);
    assertThat(response).extracting("throwable").isNotNull();
    assertThat(response).extracting("webSocket").isNull();
  }

  private static ByteBuffer utf8(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  private static final class Call implements InProcessCall {
    int requests;
    int cancels;

    @Override
    public void request() {
      requests++;
    }

    @Override
    public void cancel() {
      cancels++;
    }
  }
}
