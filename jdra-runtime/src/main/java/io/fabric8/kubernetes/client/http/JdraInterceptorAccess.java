package io.fabric8.kubernetes.client.http;

import java.util.List;

/**
 * jdra's access to the interceptors of a fabric8 HTTP client (authentication headers and token
 * refresh, impersonation, user agent, jdra's QPS limiter), in the order fabric8 applies them, so
 * that jdra-runtime's {@code ApiRequests} applies exactly the same ones when it sends a request
 * itself. fabric8 keeps them in a protected field of its builder; compiled against fabric8 8.0.0.
 */
public final class JdraInterceptorAccess {
  private JdraInterceptorAccess() {}

  /**
   * The client's interceptors in application order, or null if it is not fabric8's standard one.
   */
  public static List<Interceptor> interceptors(HttpClient client) {
    return client instanceof StandardHttpClient<?, ?, ?> s
        ? List.copyOf(s.builder.interceptors.values())
        : null;
  }
}
