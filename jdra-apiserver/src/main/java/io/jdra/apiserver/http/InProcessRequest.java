package io.jdra.apiserver.http;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A request handed to the API server in memory ({@link InProcessTransport}).
 *
 * @param method the HTTP method, upper case
 * @param path the path, not decoded (as on the wire)
 * @param query the raw query without {@code ?}, or null
 * @param headers the request headers (Authorization carries the caller's identity, as over HTTP)
 * @param body the request body, or null without one
 */
public record InProcessRequest(
    String method, String path, String query, Map<String, List<String>> headers, byte[] body) {
  public InProcessRequest {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    headers = headers == null ? Map.of() : headers;
  }
}
