package io.jdra.controllers.resourceclaim;

import java.util.Map;
import tools.jackson.core.io.JsonStringEncoder;

/**
 * The few pieces of JSON the controller writes by hand for its two writes per pod (see {@link
 * GeneratedClaimJson}, {@link PodStatusApply}): strings quoted and escaped by Jackson's encoder.
 */
final class JsonText {
  private static final JsonStringEncoder ENCODER = JsonStringEncoder.getInstance();

  private JsonText() {}

  /** {@code "s"}, escaped. */
  static StringBuilder string(StringBuilder out, String s) {
    out.append('"');
    ENCODER.quoteAsString(s, out);
    return out.append('"');
  }

  /** {@code "name":"value"}. */
  static StringBuilder property(StringBuilder out, String name, String value) {
    return string(string(out, name).append(':'), value);
  }

  /** {@code {"k":"v",...}} in the map's order. */
  static StringBuilder object(StringBuilder out, Map<String, String> map) {
    out.append('{');
    boolean first = true;
    for (Map.Entry<String, String> e : map.entrySet()) {
      if (!first) {
        out.append(',');
      }
      first = false;
      property(out, e.getKey(), e.getValue());
    }
    return out.append('}');
  }
}
