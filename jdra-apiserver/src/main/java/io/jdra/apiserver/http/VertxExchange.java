package io.jdra.apiserver.http;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.ServerWebSocket;

/** An exchange over a Vert.x HTTP connection: every call goes to the request or its response. */
final class VertxExchange extends Exchange {
  private final HttpServerRequest req;
  private final HttpServerResponse resp;

  VertxExchange(HttpServerRequest req) {
    this.req = req;
    this.resp = req.response();
  }

  @Override
  HttpMethod method() {
    return req.method();
  }

  @Override
  String path() {
    return req.path();
  }

  @Override
  String query() {
    return req.query();
  }

  @Override
  MultiMap params() {
    return req.params();
  }

  @Override
  MultiMap headers() {
    return req.headers();
  }

  @Override
  boolean multiplexed() {
    return req.version() == HttpVersion.HTTP_2;
  }

  @Override
  Buffer completeBody() {
    return null;
  }

  @Override
  void readBody(Handler<Buffer> chunk, Handler<Throwable> error, Handler<Void> end) {
    req.handler(chunk);
    req.exceptionHandler(error);
    req.endHandler(end);
  }

  @Override
  boolean requestEnded() {
    return req.isEnded();
  }

  @Override
  void writeContinue() {
    resp.writeContinue();
  }

  @Override
  Future<WatchSession.Sink> webSocket() {
    return req.toWebSocket().map(VertxExchange::sink);
  }

  @Override
  int getStatusCode() {
    return resp.getStatusCode();
  }

  @Override
  Exchange setStatusCode(int code) {
    resp.setStatusCode(code);
    return this;
  }

  @Override
  Exchange putHeader(String name, String value) {
    resp.putHeader(name, value);
    return this;
  }

  @Override
  MultiMap responseHeaders() {
    return resp.headers();
  }

  @Override
  Exchange setChunked(boolean chunked) {
    resp.setChunked(chunked);
    return this;
  }

  @Override
  void write(Buffer chunk) {
    resp.write(chunk);
  }

  @Override
  void end(Buffer body) {
    resp.end(body);
  }

  @Override
  void end() {
    resp.end();
  }

  @Override
  boolean ended() {
    return resp.ended();
  }

  @Override
  boolean closed() {
    return resp.closed();
  }

  @Override
  boolean headWritten() {
    return resp.headWritten();
  }

  @Override
  void reset() {
    resp.reset();
  }

  @Override
  boolean writeQueueFull() {
    return resp.writeQueueFull();
  }

  @Override
  void drainHandler(Runnable r) {
    resp.drainHandler(v -> r.run());
  }

  @Override
  void closeHandler(Runnable r) {
    resp.closeHandler(v -> r.run());
  }

  @Override
  void bodyEndHandler(Runnable r) {
    resp.bodyEndHandler(v -> r.run());
  }

  /** Watch events as WebSocket text messages, as kube-apiserver sends them. */
  private static WatchSession.Sink sink(ServerWebSocket ws) {
    return new WatchSession.Sink() {
      @Override
      public void write(Buffer event) {
        if (!ws.isClosed()) {
          ws.writeTextMessage(WatchSession.utf8(event));
        }
      }

      @Override
      public void end() {
        if (!ws.isClosed()) {
          ws.close();
        }
      }

      @Override
      public void onClose(Runnable r) {
        ws.closeHandler(v -> r.run());
      }

      @Override
      public boolean full() {
        return ws.writeQueueFull();
      }

      @Override
      public void onDrain(Runnable r) {
        ws.drainHandler(v -> r.run());
      }
    };
  }
}
