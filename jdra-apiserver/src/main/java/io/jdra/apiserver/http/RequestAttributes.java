package io.jdra.apiserver.http;

import io.jdra.apiserver.auth.Attributes;
import io.jdra.apiserver.auth.UserInfo;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The authorization attributes of a resource request, as upstream's request info factory derives
 * them: the verb from the method (a GET without a name is a list, with {@code watch} a watch; a
 * DELETE without a name a deletecollection), and for lists and watches the equality requirements of
 * the field selector, whose {@code metadata.name} also becomes the name.
 */
final class RequestAttributes {
  private RequestAttributes() {}

  static Attributes of(UserInfo user, Exchange req, RequestInfo info) {
    boolean named = !info.name().isEmpty();
    String verb =
        switch (req.method().name()) {
          case "GET", "HEAD" -> watch(req) ? "watch" : named ? "get" : "list";
          case "POST" -> "create";
          case "PUT" -> "update";
          case "PATCH" -> "patch";
          case "DELETE" -> named ? "delete" : "deletecollection";
          default -> req.method().name().toLowerCase(java.util.Locale.ROOT);
        };
    Map<String, String> fields = fieldRequirements(req.getParam("fieldSelector"));
    String name = info.name();
    if (name.isEmpty() && (verb.equals("list") || verb.equals("watch"))) {
      name = fields.getOrDefault("metadata.name", "");
    }
    return new Attributes(
        user,
        verb,
        true,
        req.path(),
        info.namespace(),
        info.group(),
        info.version(),
        info.resource(),
        info.subresource(),
        name,
        fields);
  }

  private static boolean watch(Exchange req) {
    String v = req.getParam("watch");
    return v != null && !v.equals("0") && !v.equalsIgnoreCase("false");
  }

  /** {@code a=b} and {@code a==b} terms; others ({@code !=}) require nothing authorizers use. */
  static Map<String, String> fieldRequirements(String selector) {
    Map<String, String> m = new LinkedHashMap<>();
    if (selector == null || selector.isBlank()) {
      return m;
    }
    for (String term : selector.split(",")) {
      if (term.contains("!=")) {
        continue;
      }
      int eq = term.indexOf('=');
      if (eq <= 0) {
        continue;
      }
      String value = term.substring(eq + 1);
      if (value.startsWith("=")) {
        value = value.substring(1);
      }
      m.put(term.substring(0, eq).trim(), value.trim());
    }
    return m;
  }
}
