package io.jdra.inprocess;

import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A request as fabric8's retry loop ({@code StandardHttpClient.consumeBytes}) sees it: without a
 * timeout, so fabric8 schedules no timer task for it, while every copy it builds to send ({@link
 * #newBuilder}) is the original request with its timeout, which the in-process client enforces
 * itself ({@link RequestDeadlines}). Everything else is the original's.
 */
final class UntimedRequest extends StandardHttpRequest {
  /** fabric8's extra time on top of a request's timeout ({@code StandardHttpClient}). */
  private static final long MAX_EXTRA_MILLIS = 5_000;

  private final StandardHttpRequest original;

  UntimedRequest(StandardHttpRequest original) {
    super(original.headers(), original.uri(), original.method(), original.bodyString());
    this.original = original;
  }

  /**
   * How long fabric8 waits for the answer to a request with {@code timeout} before it fails with a
   * {@link java.util.concurrent.TimeoutException}: the timeout plus as much again, at most 5 s
   * more, in whole milliseconds; 0 when it does not wait (no timeout, or under a millisecond).
   */
  static long timeLimitNanos(Duration timeout) {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      return 0;
    }
    long millis = timeout.plusMillis(Math.min(timeout.toMillis(), MAX_EXTRA_MILLIS)).toMillis();
    return millis > 0 ? TimeUnit.MILLISECONDS.toNanos(millis) : 0;
  }

  @Override
  public Duration getTimeout() {
    return null;
  }

  @Override
  public Builder newBuilder() {
    return original.newBuilder();
  }

  @Override
  public UUID id() {
    return original.id();
  }

  @Override
  public BodyContent body() {
    return original.body();
  }

  @Override
  public String getContentType() {
    return original.getContentType();
  }

  @Override
  public boolean isExpectContinue() {
    return original.isExpectContinue();
  }

  @Override
  public boolean isForStreaming() {
    return original.isForStreaming();
  }
}
