package io.jdra.apiserver.http;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An exchange in memory: the request as the client built it, the response handed to an {@link
 * InProcessResponse} chunk by chunk as the client asks for more (the server sees a full write queue
 * while a slow reader has {@link #WRITE_QUEUE_MAX} bytes waiting, as over a socket). The handler
 * side runs on {@link #context}; {@link #request()} and {@link #cancel()} come from any thread and
 * move there.
 */
final class InProcessExchange extends Exchange implements InProcessCall {
  /** Bytes a response may have waiting for its reader before the server holds back. */
  static final int WRITE_QUEUE_MAX = 1 << 20;

  private final Context context;
  private final InProcessRequest request;
  private final InProcessResponse response;
  private final HttpMethod method;
  private final MultiMap headers = MultiMap.caseInsensitiveMultiMap();
  private MultiMap params;

  private final MultiMap responseHeaders = MultiMap.caseInsensitiveMultiMap();
  private int status = 200;
  private boolean headWritten;
  private boolean ended;
  private boolean endDelivered;
  private boolean closed;
  private final ArrayDeque<Buffer> queue = new ArrayDeque<>();
  private long queuedBytes;
  private int demand;
  private boolean pumping;
  private Runnable drainHandler;
  private Runnable closeHandler;
  private Runnable bodyEndHandler;

  InProcessExchange(Context context, InProcessRequest request, InProcessResponse response) {
    this.context = context;
    this.request = request;
    this.response = response;
    this.method = HttpMethod.valueOf(request.method());
    request.headers().forEach(headers::add);
  }

  // The client's side: any thread.

  @Override
  public void request() {
    onContext(() -> {
      demand++;
      pump();
    });
  }

  @Override
  public void cancel() {
    onContext(() -> {
      if (closed || endDelivered) {
        return;
      }
      closed = true;
      queue.clear();
      queuedBytes = 0;
      if (closeHandler != null) {
        closeHandler.run();
      }
    });
  }

  private void onContext(Runnable r) {
    if (Vertx.currentContext() == context) {
      r.run();
    } else {
      context.runOnContext(v -> r.run());
    }
  }

  // The request.

  @Override
  HttpMethod method() {
    return method;
  }

  @Override
  String path() {
    return request.path();
  }

  @Override
  String query() {
    return request.query();
  }

  /** Decoded as Vert.x decodes a request's query, so both transports see the same parameters. */
  @Override
  MultiMap params() {
    if (params == null) {
      MultiMap m = MultiMap.caseInsensitiveMultiMap();
      if (request.query() != null) {
        String uri = "/?" + request.query();
        new QueryStringDecoder(uri, StandardCharsets.UTF_8, true, 1024, false)
            .parameters()
            .forEach(m::add);
      }
      params = m;
    }
    return params;
  }

  @Override
  MultiMap headers() {
    return headers;
  }

  @Override
  boolean multiplexed() {
    return true; // no connection to close after a refused body
  }

  @Override
  Buffer completeBody() {
    // the client's bytes, not copied: the server only reads a request's body
    return request.body() == null
        ? Buffer.buffer()
        : Buffer.buffer(Unpooled.wrappedBuffer(request.body()));
  }

  @Override
  void readBody(Handler<Buffer> chunk, Handler<Throwable> error, Handler<Void> end) {
    chunk.handle(completeBody());
    end.handle(null);
  }

  @Override
  boolean requestEnded() {
    return true;
  }

  @Override
  void writeContinue() {}

  @Override
  Future<WatchSession.Sink> webSocket() {
    return Future.failedFuture("in-process requests watch over HTTP, not WebSocket");
  }

  // The response: on the context.

  @Override
  int getStatusCode() {
    return status;
  }

  @Override
  Exchange setStatusCode(int code) {
    status = code;
    return this;
  }

  @Override
  Exchange putHeader(String name, String value) {
    responseHeaders.set(name, value);
    return this;
  }

  @Override
  MultiMap responseHeaders() {
    return responseHeaders;
  }

  @Override
  Exchange setChunked(boolean chunked) {
    return this;
  }

  @Override
  void write(Buffer chunk) {
    if (ended || closed) {
      return;
    }
    writeHead();
    enqueue(chunk);
    pump();
  }

  @Override
  void end(Buffer body) {
    if (ended || closed) {
      return;
    }
    writeHead();
    enqueue(body);
    ended = true;
    if (bodyEndHandler != null) {
      bodyEndHandler.run();
    }
    pump();
  }

  @Override
  void end() {
    end(Buffer.buffer());
  }

  @Override
  boolean ended() {
    return ended;
  }

  @Override
  boolean closed() {
    return closed;
  }

  @Override
  boolean headWritten() {
    return headWritten;
  }

  @Override
  void reset() {
    if (closed || endDelivered) {
      return;
    }
    closed = true;
    queue.clear();
    response.failed(new IOException("the API server abandoned the response"));
  }

  @Override
  boolean writeQueueFull() {
    return queuedBytes >= WRITE_QUEUE_MAX;
  }

  @Override
  void drainHandler(Runnable r) {
    drainHandler = r;
  }

  @Override
  void closeHandler(Runnable r) {
    closeHandler = r;
  }

  @Override
  void bodyEndHandler(Runnable r) {
    bodyEndHandler = r;
  }

  private void writeHead() {
    if (headWritten) {
      return;
    }
    headWritten = true;
    Map<String, List<String>> h = new LinkedHashMap<>();
    for (String name : responseHeaders.names()) {
      h.put(name, responseHeaders.getAll(name));
    }
    response.head(status, h, this);
  }

  private void enqueue(Buffer chunk) {
    if (chunk.length() > 0) {
      queue.add(chunk);
      queuedBytes += chunk.length();
    }
  }

  /**
   * Hands what is queued to the reader while it asks, then the end; re-entered calls only count.
   */
  private void pump() {
    if (pumping) {
      return;
    }
    pumping = true;
    try {
      while (!closed && demand > 0 && !queue.isEmpty()) {
        demand--;
        boolean wasFull = writeQueueFull();
        List<ByteBuffer> data = new ArrayList<>(queue.size());
        for (Buffer b : queue) {
          data.add(ByteBuffer.wrap(b.getBytes()));
        }
        queue.clear();
        queuedBytes = 0;
        response.chunks(data);
        if (wasFull && drainHandler != null && !ended) {
          drainHandler.run();
        }
      }
      if (!closed && ended && queue.isEmpty() && !endDelivered) {
        endDelivered = true;
        response.end();
      }
    } finally {
      pumping = false;
    }
  }
}
