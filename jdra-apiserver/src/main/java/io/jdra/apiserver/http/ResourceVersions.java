package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.ApiException;
import io.vertx.core.Vertx;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Parsing of requested resourceVersions and waiting for the server to reach one, as upstream's
 * watch cache (which blocks a read of a future version for up to 3 seconds). Stateless.
 */
final class ResourceVersions {
  /** How long a read of a not yet reached resourceVersion waits, as upstream's blockTimeout. */
  static final long WAIT_MILLIS = 3_000;

  /** The Retry-After upstream suggests for such a read (resourceVersionTooHighRetrySeconds). */
  static final int RETRY_SECONDS = 1;

  private static final long POLL_MILLIS = 20;

  private ResourceVersions() {}

  /**
   * Parses a resourceVersion as upstream's APIObjectVersioner: "" and "0" mean 0, anything else
   * must be an unsigned decimal.
   *
   * @throws ApiException 400 "invalid resource version: ..." otherwise
   */
  static long parse(String rv) {
    if (rv == null || rv.isEmpty() || rv.equals("0")) {
      return 0;
    }
    String why = null;
    long v = 0;
    for (int i = 0; i < rv.length() && why == null; i++) {
      if (rv.charAt(i) < '0' || rv.charAt(i) > '9') {
        why = "invalid syntax";
      }
    }
    if (why == null) {
      try {
        v = Long.parseUnsignedLong(rv);
        // Beyond a signed long but within uint64 is still a valid (unreachable) version.
        v = v < 0 ? Long.MAX_VALUE : v;
      } catch (NumberFormatException e) {
        why = "value out of range";
      }
    }
    if (why != null) {
      throw ApiException.badRequest(
          "invalid resource version: resourceVersion: Invalid value: \""
              + rv
              + "\": strconv.ParseUint: parsing \""
              + rv
              + "\": "
              + why);
    }
    return v;
  }

  /**
   * Runs {@code ready} once {@code current} reaches {@code required} (at once if it has), or hands
   * upstream's "Too large resource version" 504 to {@code tooLarge} after {@link #WAIT_MILLIS}.
   * Both run on the calling Vert.x context.
   */
  static void awaitFresh(
      Vertx vertx,
      LongSupplier current,
      long required,
      Runnable ready,
      Consumer<ApiException> tooLarge) {
    if (current.getAsLong() >= required) {
      ready.run();
      return;
    }
    long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000;
    vertx.setPeriodic(
        POLL_MILLIS,
        id -> {
          long now = current.getAsLong();
          if (now >= required) {
            vertx.cancelTimer(id);
            ready.run();
          } else if (System.nanoTime() - deadline >= 0) {
            vertx.cancelTimer(id);
            tooLarge.accept(ApiException.tooLargeResourceVersion(required, now, RETRY_SECONDS));
          }
        });
  }
}
