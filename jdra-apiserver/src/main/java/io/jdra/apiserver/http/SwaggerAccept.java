package io.jdra.apiserver.http;

import java.util.Locale;

/**
 * Content negotiation of {@code /openapi/v2} as kube-openapi's handler does it (no Accept header
 * means any), except that only JSON is produced: the protobuf form is answered 406 when the client
 * accepts nothing else. Stateless.
 */
final class SwaggerAccept {
  private SwaggerAccept() {}

  /** Whether some clause with a non-zero quality accepts {@code application/json}. */
  static boolean json(String accept) {
    if (accept == null || accept.isBlank()) {
      return true;
    }
    for (String clause : accept.split(",")) {
      String[] parts = clause.split(";");
      String range = parts[0].trim().toLowerCase(Locale.ROOT);
      if (zeroQuality(parts)) {
        continue;
      }
      if (range.equals("*/*")
          || range.equals("application/*")
          || range.equals("application/json")) {
        return true;
      }
    }
    return false;
  }

  private static boolean zeroQuality(String[] parts) {
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].trim();
      if (p.startsWith("q=")) {
        try {
          return Double.parseDouble(p.substring(2)) <= 0;
        } catch (NumberFormatException e) {
          return false;
        }
      }
    }
    return false;
  }
}
