package io.jdra.cel;

import static dev.cel.common.types.SimpleType.BOOL;
import static dev.cel.common.types.SimpleType.STRING;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;
import java.util.function.Function;

/**
 * The Kubernetes URL library ({@code kubernetes.URL}), part of the base CEL environment and so of
 * device selectors: {@code url}, {@code isURL} and the {@code get*} accessors. A URL must be an
 * absolute URI or an absolute path, as Go's {@code url.ParseRequestURI} requires.
 */
final class UrlLibrary {
  private static final CelType URL = UrlValue.TYPE;

  private UrlLibrary() {}

  static void register(FunctionTable t) {
    t.global(
        "url",
        "string_to_url",
        URL,
        List.of(STRING),
        CelFunctionBinding.from("string_to_url", String.class, UrlLibrary::url));
    t.global(
        "isURL",
        "is_url_string",
        BOOL,
        List.of(STRING),
        CelFunctionBinding.from("is_url_string", String.class, UrlLibrary::isUrl));
    accessor(t, "getScheme", "url_get_scheme", UrlValue::scheme);
    accessor(t, "getHost", "url_get_host", UrlValue::host);
    accessor(t, "getHostname", "url_get_hostname", UrlValue::hostname);
    accessor(t, "getPort", "url_get_port", UrlValue::port);
    accessor(t, "getEscapedPath", "url_get_escaped_path", UrlValue::escapedPath);
    t.member(
        "getQuery",
        "url_get_query",
        MapType.create(STRING, ListType.create(STRING)),
        List.of(URL),
        CelFunctionBinding.from("url_get_query", UrlValue.class, UrlLibrary::query));
  }

  private static void accessor(
      FunctionTable t, String name, String id, Function<UrlValue, String> f) {
    t.member(name, id, STRING, List.of(URL), CelFunctionBinding.from(id, UrlValue.class, f::apply));
  }

  /** Upstream checks with ParseRequestURI, then takes the parts from Parse (fragment split off). */
  private static UrlValue url(String s) throws CelEvaluationException {
    try {
      UrlValue.parseRequestUri(s);
      return UrlValue.parseUrl(s);
    } catch (UrlValue.ParseException e) {
      throw new CelEvaluationException(
          "URL parse error during conversion from string: " + e.getMessage());
    }
  }

  private static boolean isUrl(String s) {
    try {
      UrlValue.parseRequestUri(s);
      return true;
    } catch (UrlValue.ParseException e) {
      return false;
    }
  }

  private static ImmutableMap<String, ImmutableList<String>> query(UrlValue u) {
    ImmutableMap.Builder<String, ImmutableList<String>> b = ImmutableMap.builder();
    u.query().forEach((k, v) -> b.put(k, ImmutableList.copyOf(v)));
    return b.buildOrThrow();
  }
}
