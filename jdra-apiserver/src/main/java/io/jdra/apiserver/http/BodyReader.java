package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.ApiException;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads request bodies whole, within upstream's size limit ({@link ApiHandler#MAX_BODY}) and its
 * request timeout: a body that declares more is refused before it is sent (a client that sent
 * {@code Expect: 100-continue} waits for that answer), and one that does not arrive in time gets
 * kube-apiserver's 504 Timeout, after which the connection is closed. Thread-safe.
 */
final class BodyReader {
  private static final Logger LOG = LoggerFactory.getLogger(BodyReader.class);

  /** kube-apiserver's message when a request outlives its deadline. */
  static final String TIMEOUT =
      "Timeout: request did not complete within requested timeout - context deadline exceeded";

  private final Vertx vertx;
  private final Duration timeout;

  BodyReader(Vertx vertx, Duration timeout) {
    this.vertx = vertx;
    this.timeout = timeout;
  }

  /** Reads the whole body, then runs {@code then} (failures in it answer as Status). */
  void read(HttpServerRequest req, Handler<Buffer> then) {
    HttpMethod m = req.method();
    if (m == HttpMethod.GET || m == HttpMethod.HEAD) {
      then.handle(Buffer.buffer());
      return;
    }
    if (declaredLength(req) > ApiHandler.MAX_BODY) {
      closeAfter(req, ApiException.tooLarge(ApiHandler.MAX_BODY)); // the body cannot follow
      return;
    }
    if ("100-continue".equalsIgnoreCase(req.getHeader("Expect"))) {
      req.response().writeContinue();
    }
    Buffer body = Buffer.buffer();
    boolean[] tooLarge = {false};
    long timer = vertx.setTimer(Math.max(1, timeout.toMillis()), id -> timedOut(req));
    req.handler(chunk -> {
      if (tooLarge[0]) {
        return;
      }
      if (body.length() + chunk.length() > ApiHandler.MAX_BODY) {
        tooLarge[0] = true;
        return;
      }
      body.appendBuffer(chunk);
    });
    req.exceptionHandler(e -> LOG.debug("Request body failed", e));
    req.endHandler(v -> {
      vertx.cancelTimer(timer);
      if (tooLarge[0]) {
        Responses.error(req.response(), ApiException.tooLarge(ApiHandler.MAX_BODY));
        return;
      }
      try {
        then.handle(body);
      } catch (ApiException e) {
        Responses.error(req.response(), e);
      } catch (RuntimeException | Error e) {
        ApiHandler.fail(req.response(), e);
      }
    });
  }

  private static void timedOut(HttpServerRequest req) {
    if (!req.isEnded()) {
      LOG.debug("Request body of {} {} not received in time", req.method(), req.path());
      closeAfter(req, ApiException.timeout(TIMEOUT, 0));
    }
  }

  /**
   * Answers with {@code e} and then ends what is left of the request: the HTTP/1 connection (its
   * unread body cannot be skipped) or the HTTP/2 stream.
   */
  private static void closeAfter(HttpServerRequest req, ApiException e) {
    if (req.version() != HttpVersion.HTTP_2) {
      req.response().putHeader("Connection", "close"); // Connection is not an HTTP/2 header
    }
    Responses.error(req.response(), e);
  }

  /** The Content-Length a request declares, or -1. */
  private static long declaredLength(HttpServerRequest req) {
    String v = req.getHeader("Content-Length");
    if (v == null) {
      return -1;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
