package io.jdra.apiserver.http;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * Hands requests to the API server's handlers in memory: no socket, no HTTP encoding, no TLS, the
 * same authentication (the request's Authorization header), routing, answers and watches as over
 * HTTP. Each request runs on one of the server's event loops, as a request from a connection does
 * (the handlers use the loop's timers and complete their writes there); a request made on one of
 * those loops stays on it. Thread-safe.
 */
public final class InProcessTransport {
  private final ApiHandler handler;
  private final List<ContextInternal> contexts;
  private final AtomicInteger next = new AtomicInteger();
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * @param loops how many of the server's event loops serve in-process requests (round robin)
   */
  public InProcessTransport(ApiHandler handler, Vertx vertx, int loops) {
    this.handler = handler;
    this.contexts =
        IntStream.range(0, loops)
            .mapToObj(i -> ((VertxInternal) vertx).createEventLoopContext())
            .toList();
  }

  /**
   * Starts {@code request}; {@code response} hears the answer on a server event loop. After {@link
   * #close()} the response fails at once.
   */
  public InProcessCall send(InProcessRequest request, InProcessResponse response) {
    Context ctx = context();
    InProcessExchange exchange = new InProcessExchange(ctx, request, response);
    if (closed.get()) {
      response.failed(new IOException("the API server is stopped"));
      return exchange;
    }
    // Later even on the caller's own loop: never inside the callback that makes the request.
    ctx.runOnContext(v -> handler.handle(exchange));
    return exchange;
  }

  /** Refuses new requests (the server is stopping). */
  public void close() {
    closed.set(true);
  }

  /**
   * The caller's own event loop when it is one of these (no hand-off to another thread), else the
   * next in turn.
   */
  private Context context() {
    for (ContextInternal c : contexts) {
      if (c.nettyEventLoop().inEventLoop()) {
        return c;
      }
    }
    return contexts.get(Math.floorMod(next.getAndIncrement(), contexts.size()));
  }
}
