package io.jdra.apiserver.admission;

import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pull policy upstream defaults from an image reference: {@code Always} when the reference
 * parses (as the container runtime's reference grammar) and its tag is {@code latest}, or it has
 * neither tag nor digest; {@code IfNotPresent} otherwise, including references that do not parse.
 * Thread-safe.
 */
final class ImagePullPolicy {
  private static final String DOMAIN_PART = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
  private static final String DOMAIN =
      "(?:" + DOMAIN_PART + "(?:\\." + DOMAIN_PART + ")*|\\[[0-9A-Fa-f:]+\\])(?::[0-9]+)?";
  private static final String PATH_PART = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";
  private static final Pattern REFERENCE =
      Pattern.compile(
          "(?:"
              + DOMAIN
              + "/)?("
              + PATH_PART
              + "(?:/"
              + PATH_PART
              + ")*)"
              + "(?::([\\w][\\w.-]{0,127}))?"
              + "(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?");
  private static final int MAX_NAME = 255;

  private ImagePullPolicy() {}

  /**
   * Policies of images seen lately: the grammar's regular expression was 1.6 % of the API server's
   * samples while pods were created, and a cluster's pods use few distinct images.
   */
  private static final ConcurrentHashMap<String, String> SEEN = new ConcurrentHashMap<>();

  private static final int MAX_SEEN = 1024;

  static String forImage(String image) {
    String policy = SEEN.get(image);
    if (policy == null) {
      policy = "latest".equals(tag(image)) ? "Always" : "IfNotPresent";
      if (SEEN.size() >= MAX_SEEN) {
        SEEN.clear(); // bounded: many distinct images start over rather than grow the map
      }
      SEEN.put(image, policy);
    }
    return policy;
  }

  /** The tag as upstream's image-name parser gives it: "" when absent with a digest or invalid. */
  static String tag(String image) {
    Matcher m = REFERENCE.matcher(image);
    if (image.isEmpty() || !m.matches()) {
      return "";
    }
    int nameEnd = m.start(2) >= 0 ? m.start(2) - 1 : m.start(3) >= 0 ? m.start(3) - 1 : -1;
    int nameLength = nameEnd < 0 ? image.length() : nameEnd;
    if (nameLength > MAX_NAME) {
      return "";
    }
    if (m.group(2) != null) {
      return m.group(2);
    }
    return m.group(3) == null ? "latest" : "";
  }
}
