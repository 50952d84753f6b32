package io.jdra.apiserver.http;

import io.jdra.apiserver.auth.UserInfo;
import io.jdra.apiserver.registry.ResourceType;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;

/**
 * One resource request after routing.
 *
 * @param http the Vert.x request
 * @param info the parsed path
 * @param type the resource
 * @param body the request body (empty without one)
 * @param user who asks
 * @param warnings warnings to send with the response
 */
record Request(
    Exchange http,
    RequestInfo info,
    ResourceType type,
    Buffer body,
    UserInfo user,
    Warnings warnings) {
  Request(Exchange http, RequestInfo info, ResourceType type, Buffer body, UserInfo user) {
    this(http, info, type, body, user, new Warnings());
  }

  MultiMap params() {
    return http.params();
  }

  String param(String name) {
    return http.getParam(name);
  }

  /**
   * A boolean query parameter as upstream decodes it: absent, "0" and "false" (any case) are false,
   * every other value, even an empty one, is true.
   */
  boolean flag(String name) {
    String v = http.getParam(name);
    return v != null && !v.equals("0") && !v.equalsIgnoreCase("false");
  }

  String version() {
    return info.version();
  }

  String namespace() {
    return info.namespace();
  }

  String name() {
    return info.name();
  }

  String subresource() {
    return info.subresource();
  }

  /** Whether the client asked for meta.k8s.io Table output. */
  boolean wantsTable() {
    String accept = http.getHeader("Accept");
    return accept != null && accept.contains("as=Table");
  }
}
