package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Json;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A list continue token in upstream's encoding: unpadded base64url of {@code
 * {"v":"meta.k8s.io/v1","rv":N,"start":"KEY"}}, where KEY is the next key relative to the listed
 * range (the last returned key plus a NUL) and N the resourceVersion of the first page, or -1 for
 * "continue on the current state" (the token a 410 offers). Immutable.
 *
 * @param resourceVersion the snapshot the pages read, or -1 for the current state
 * @param start the first key to list, relative to the range's prefix
 */
record ContinueToken(long resourceVersion, String start) {
  private static final String VERSION = "meta.k8s.io/v1";

  /** The token for the page after {@code lastKey} (a store key under {@code prefix}). */
  static ContinueToken after(String prefix, String lastKey, long resourceVersion) {
    return new ContinueToken(resourceVersion, lastKey.substring(prefix.length()) + "\0");
  }

  /** The same position, on the current state instead of the snapshot. */
  ContinueToken onCurrentState() {
    return new ContinueToken(-1, start);
  }

  /** The store key the next page starts at (inclusive). */
  String fromKey(String prefix) {
    return prefix + start;
  }

  String encode() {
    ObjectNode n = Json.object();
    n.put("v", VERSION);
    n.put("rv", resourceVersion);
    n.put("start", start);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(Json.bytes(n));
  }

  /**
   * Decodes a token as upstream's {@code storage.DecodeContinue}.
   *
   * @throws ApiException 400 with upstream's "invalid continue token: ..." message
   */
  static ContinueToken decode(String token) {
    int bad = firstNonBase64(token);
    if (bad >= 0) {
      throw invalid("continue key is not valid: illegal base64 data at input byte " + bad);
    }
    JsonNode n;
    try {
      n = Json.MAPPER.readTree(Base64.getUrlDecoder().decode(token));
    } catch (RuntimeException e) {
      throw invalid("continue key is not valid: " + jsonSyntax(token));
    }
    if (n == null || n.isMissingNode()) {
      throw invalid("continue key is not valid: unexpected end of JSON input");
    }
    if (n.isNull()) {
      n = Json.object(); // Go leaves the token empty for a JSON null
    }
    if (!n.isObject()) {
      throw invalid(
          "continue key is not valid: json: cannot unmarshal "
              + goKind(n)
              + " into Go value of type storage.continueToken");
    }
    checkField(n, "v", false);
    checkField(n, "rv", true);
    checkField(n, "start", false);
    String v = n.path("v").isString() ? n.get("v").asString() : "";
    if (!VERSION.equals(v)) {
      throw invalid(
          "continue key is not valid: server does not recognize this encoded version " + v);
    }
    long rv = n.path("rv").isIntegralNumber() ? n.get("rv").asLong() : 0;
    if (rv == 0) {
      throw invalid(
          "continue key is not valid: incorrect encoded start resourceVersion (version"
              + " meta.k8s.io/v1)");
    }
    String start = n.path("start").isString() ? n.get("start").asString() : "";
    if (start.isEmpty()) {
      throw invalid("continue key is not valid: encoded start key empty (version meta.k8s.io/v1)");
    }
    String rooted = start.startsWith("/") ? start : "/" + start;
    if (!isClean(rooted)) {
      // Keys that climb out of the listed range (.., //) are refused, as upstream.
      throw invalid("continue key is not valid: " + start);
    }
    return new ContinueToken(rv, rooted.substring(1));
  }

  /** Whether a rooted path is what Go's {@code path.Clean} would return for it. */
  static boolean isClean(String p) {
    if (p.equals("/")) {
      return true;
    }
    if (p.endsWith("/") || p.contains("//")) {
      return false;
    }
    for (String seg : p.substring(1).split("/", -1)) {
      if (seg.equals(".") || seg.equals("..")) {
        return false;
      }
    }
    return true;
  }

  /** Where Go's unpadded base64url decoder would fail, or -1. */
  private static int firstNonBase64(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok =
          (c >= 'A' && c <= 'Z')
              || (c >= 'a' && c <= 'z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_';
      if (!ok) {
        return i;
      }
    }
    return s.length() % 4 == 1 ? s.length() - 1 : -1;
  }

  /** Go's encoding/json wording for the common ways a token is not JSON. */
  private static String jsonSyntax(String token) {
    String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8).strip();
    if (text.isEmpty()) {
      return "unexpected end of JSON input";
    }
    char c = text.charAt(0);
    if ("{[\"-0123456789tfn".indexOf(c) < 0) {
      return "invalid character '" + c + "' looking for beginning of value";
    }
    return "unexpected end of JSON input";
  }

  /** A field of the wrong JSON type fails as Go's json.Unmarshal into the token struct. */
  private static void checkField(JsonNode token, String field, boolean number) {
    JsonNode f = token.get(field);
    if (f == null || f.isNull() || (number ? f.isIntegralNumber() : f.isString())) {
      return;
    }
    throw invalid(
        "continue key is not valid: json: cannot unmarshal "
            + goKind(f)
            + " into Go struct field continueToken."
            + field
            + " of type "
            + (number ? "int64" : "string"));
  }

  private static String goKind(JsonNode n) {
    if (n == null || n.isNull()) {
      return "null";
    }
    if (n.isArray()) {
      return "array";
    }
    if (n.isString()) {
      return "string";
    }
    return n.isNumber() ? "number" : "bool";
  }

  private static ApiException invalid(String why) {
    return ApiException.badRequest("invalid continue token: " + why);
  }
}
