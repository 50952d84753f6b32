package io.jdra.apiserver.http;

import java.util.Locale;

/**
 * Content negotiation of {@code /openapi/v2} as kube-openapi's handler does it (no Accept header
 * means any); the protobuf form is an empty document (see {@link #emptyProtobufDocument}), any
 * other type is answered 406. Stateless.
 */
final class SwaggerAccept {
  /**
   * kube-openapi's media type of the protobuf (gnostic) form of {@code /openapi/v2}, as answered
   * (Go's mime parser refuses the {@code @} of the older name clients still ask for).
   */
  static final String PROTOBUF = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

  /** The older name of that type, which kubectl puts in Accept. */
  private static final String PROTOBUF_DEPRECATED =
      "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

  private SwaggerAccept() {}

  /** Whether some clause with a non-zero quality accepts the protobuf form. */
  static boolean protobuf(String accept) {
    if (accept == null) {
      return false;
    }
    for (String clause : accept.split(",")) {
      String[] parts = clause.split(";");
      String range = parts[0].trim();
      if (!zeroQuality(parts)
          && (range.equalsIgnoreCase(PROTOBUF) || range.equalsIgnoreCase(PROTOBUF_DEPRECATED))) {
        return true;
      }
    }
    return false;
  }

  /**
   * A gnostic {@code openapi_v2.Document} with only {@code swagger: "2.0"} (field 1) and {@code
   * info} (field 2: title 1, version 2): no definitions, so clients find no kind in it.
   */
  static byte[] emptyProtobufDocument() {
    java.io.ByteArrayOutputStream info = new java.io.ByteArrayOutputStream();
    field(info, 1, "Kubernetes");
    field(info, 2, "v1.36.0");
    java.io.ByteArrayOutputStream doc = new java.io.ByteArrayOutputStream();
    field(doc, 1, "2.0");
    doc.write(2 << 3 | 2);
    doc.write(info.size());
    doc.writeBytes(info.toByteArray());
    return doc.toByteArray();
  }

  /** A length-delimited field shorter than 128 bytes. */
  private static void field(java.io.ByteArrayOutputStream out, int number, String value) {
    byte[] b = value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    out.write(number << 3 | 2);
    out.write(b.length);
    out.writeBytes(b);
  }

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
