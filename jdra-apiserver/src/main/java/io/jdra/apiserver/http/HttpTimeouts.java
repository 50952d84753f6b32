package io.jdra.apiserver.http;

import java.time.Duration;

/**
 * How long a connection or a request may hold the server without using it, as kube-apiserver's Go
 * HTTP server settings and request filter bound them.
 *
 * @param readHeader a new connection must complete its first request head within this, TLS
 *     handshake and HTTP/2 preface included (kube-apiserver's ReadHeaderTimeout, which Go's server
 *     also uses as its TLS handshake timeout)
 * @param idle a connection with no request in flight is closed after this (IdleTimeout, for HTTP/1
 *     keep-alive and HTTP/2 alike)
 * @param requestBody a request body must have arrived whole within this, or the request gets 504
 *     and the connection is closed (kube-apiserver's --request-timeout, within which it reads
 *     bodies)
 */
public record HttpTimeouts(Duration readHeader, Duration idle, Duration requestBody) {
  /** kube-apiserver's: ReadHeaderTimeout 32 s, IdleTimeout 90 s, --request-timeout 1 m. */
  public static final HttpTimeouts UPSTREAM =
      new HttpTimeouts(Duration.ofSeconds(32), Duration.ofSeconds(90), Duration.ofSeconds(60));

  public HttpTimeouts {
    positive(readHeader, "read header timeout");
    positive(idle, "idle timeout");
    positive(requestBody, "request body timeout");
  }

  private static void positive(Duration d, String what) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be positive, got " + d);
    }
  }
}
