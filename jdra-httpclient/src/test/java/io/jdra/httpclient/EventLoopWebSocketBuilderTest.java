package io.jdra.httpclient;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.http.WebSocket;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EventLoopWebSocketBuilderTest {
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close();
  }

  /** fabric8's builder, as far as these tests need it: records where and how it was called. */
  static final class RecordingBuilder implements WebSocket.Builder {
    final CompletableFuture<WebSocket> opening = new CompletableFuture<>();
    final CountDownLatch called = new CountDownLatch(1);
    volatile Context context;
    volatile boolean onEventLoop;
    volatile RuntimeException failure;

    @Override
    public CompletableFuture<WebSocket> buildAsync(WebSocket.Listener listener) {
      context = Vertx.currentContext();
      onEventLoop = Context.isOnEventLoopThread();
      called.countDown();
      if (failure != null) {
        throw failure;
      }
      return opening;
    }

    @Override
    public WebSocket.Builder subprotocol(String protocol) {
      return this;
    }

    @Override
    public WebSocket.Builder header(String name, String value) {
      return this;
    }

    @Override
    public WebSocket.Builder setHeader(String name, String value) {
      return this;
    }

    @Override
    public WebSocket.Builder uri(URI uri) {
      return this;
    }

    @Override
    public WebSocket.Builder connectTimeout(long amount, TimeUnit unit) {
      return this;
    }
  }

  /** A socket that only records a close. */
  static final class ClosingSocket implements WebSocket {
    final CountDownLatch closed = new CountDownLatch(1);
    volatile int closeCode;

    @Override
    public boolean send(ByteBuffer buffer) {
      return true;
    }

    @Override
    public boolean sendClose(int code, String reason) {
      closeCode = code;
      closed.countDown();
      return true;
    }

    @Override
    public long queueSize() {
      return 0;
    }

    @Override
    public void request() {}
  }

  @Test
  void opensOnAnEventLoopOfTheClientsVertx() throws Exception {
    RecordingBuilder fabric8 = new RecordingBuilder();
    ClosingSocket socket = new ClosingSocket();
    fabric8.opening.complete(socket);

    WebSocket opened =
        new EventLoopWebSocketBuilder(fabric8, vertx)
            .buildAsync(new WebSocket.Listener() {})
            .get(10, TimeUnit.SECONDS);

    assertThat(opened).isSameAs(socket);
    assertThat(fabric8.onEventLoop).isTrue();
    assertThat(fabric8.context.owner()).isSameAs(vertx);
  }

  @Test
  void aSocketThatOpensAfterTheCallerGaveUpIsClosed() throws Exception {
    RecordingBuilder fabric8 = new RecordingBuilder();
    CompletableFuture<WebSocket> result =
        new EventLoopWebSocketBuilder(fabric8, vertx).buildAsync(new WebSocket.Listener() {});
    assertThat(fabric8.called.await(10, TimeUnit.SECONDS)).isTrue();

    result.cancel(true);
    ClosingSocket late = new ClosingSocket();
    fabric8.opening.complete(late);

    // The close runs on the event loop, which may register its completion after this completes.
    assertThat(late.closed.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(late.closeCode).isEqualTo(EventLoopWebSocketBuilder.NORMAL_CLOSURE);
  }

  @Test
  void failuresReachTheCaller() {
    RecordingBuilder thrown = new RecordingBuilder();
    thrown.failure = new IllegalStateException("client closed");
    RecordingBuilder failed = new RecordingBuilder();
    failed.opening.completeExceptionally(new IllegalArgumentException("upgrade refused"));

    assertFailsWith(thrown, "client closed");
    assertFailsWith(failed, "upgrade refused");
  }

  private void assertFailsWith(RecordingBuilder fabric8, String message) {
    CompletableFuture<WebSocket> result =
        new EventLoopWebSocketBuilder(fabric8, vertx).buildAsync(new WebSocket.Listener() {});
    try {
      result.get(10, TimeUnit.SECONDS);
      throw new AssertionError("expected a failure: " + message);
    } catch (ExecutionException e) {
      assertThat(e.getCause()).hasMessage(message);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
