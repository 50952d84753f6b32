package io.fabric8.kubernetes.client.vertx;

/**
 * jdra's access to the Vert.x client inside fabric8's Vert.x transport (fabric8 keeps its getter
 * package-private), so that jdra-runtime's {@code ApiRequests} sends through the same connection
 * pool, TLS material and proxy settings as the fabric8 client it comes from. Pinned to fabric8
 * 8.0.0's {@code kubernetes-httpclient-vertx}; compiled against it, so a change there fails the
 * build rather than a request.
 */
public final class JdraVertxAccess {
  private JdraVertxAccess() {}

  /** The Vert.x client of a fabric8 Vert.x HTTP client, or null for another transport. */
  public static io.vertx.core.http.HttpClient vertxClient(
      io.fabric8.kubernetes.client.http.HttpClient client) {
    return client instanceof VertxHttpClient<?> v ? v.getClient() : null;
  }
}
