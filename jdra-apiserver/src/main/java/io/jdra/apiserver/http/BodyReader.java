package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.ApiException;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
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
  void read(Exchange req, Handler<Buffer> then) {
    HttpMethod m = req.method();
    if (m == HttpMethod.GET || m == HttpMethod.HEAD) {
      then.handle(Buffer.buffer());
      return;
    }
    if (declaredLength(req) > ApiHandler.MAX_BODY) {
      closeAfter(req, ApiException.tooLarge(ApiHandler.MAX_BODY)); // the body cannot follow
      return;
    }
    Buffer whole = req.completeBody();
    if (whole != null) {
      finish(req, whole, whole.length() > ApiHandler.MAX_BODY, then); // in-process: no waiting
      return;
    }
    if ("100-continue".equalsIgnoreCase(req.getHeader("Expect"))) {
      req.writeContinue();
    }
    Buffer body = Buffer.buffer();
    boolean[] tooLarge = {false};
    long timer = vertx.setTimer(Math.max(1, timeout.toMillis()), id -> timedOut(req));
    req.readBody(
        chunk -> {
          if (tooLarge[0]) {
            return;
          }
          if (body.length() + chunk.length() > ApiHandler.MAX_BODY) {
            tooLarge[0] = true;
            return;
          }
          body.appendBuffer(chunk);
        },
        e -> LOG.debug("Request body failed", e),
        v -> {
          vertx.cancelTimer(timer);
          finish(req, body, tooLarge[0], then);
        });
  }

  private static void finish(Exchange req, Buffer body, boolean tooLarge, Handler<Buffer> then) {
    if (tooLarge) {
      Responses.error(req, ApiException.tooLarge(ApiHandler.MAX_BODY));
      return;
    }
    try {
      then.handle(body);
    } catch (ApiException e) {
      Responses.error(req, e);
    } catch (RuntimeException | Error e) {
      ApiHandler.fail(req, e);
    }
  }

  private static void timedOut(Exchange req) {
    if (!req.requestEnded()) {
      LOG.debug("Request body of {} {} not received in time", req.method(), req.path());
      closeAfter(req, ApiException.timeout(TIMEOUT, 0));
    }
  }

  /**
   * Answers with {@code e} and then ends what is left of the request: the HTTP/1 connection (its
   * unread body cannot be skipped) or the HTTP/2 stream.
   */
  private static void closeAfter(Exchange req, ApiException e) {
    if (!req.multiplexed()) {
      req.putHeader("Connection", "close"); // Connection is not an HTTP/2 header
    }
    Responses.error(req, e);
  }

  /** The Content-Length a request declares, or -1. */
  private static long declaredLength(Exchange req) {
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
