package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.ByteTrees;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.protobuf.KubernetesProtobuf;
import io.jdra.apiserver.protobuf.ProtobufException;
import io.jdra.apiserver.registry.ResourceType;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Decodes request bodies (JSON, YAML or Kubernetes protobuf) into object trees with upstream's
 * errors. Stateless.
 */
final class Bodies {
  static final List<String> ACCEPTED =
      List.of("application/json", "application/yaml", "application/vnd.kubernetes.protobuf");

  private static final List<String> JSON_OR_YAML = List.of("application/json", "application/yaml");

  private Bodies() {}

  /** The media type without parameters, lower case; JSON when absent. */
  static String mediaType(String contentType) {
    if (contentType == null || contentType.isBlank()) {
      return "application/json";
    }
    int semi = contentType.indexOf(';');
    return (semi < 0 ? contentType : contentType.substring(0, semi))
        .trim()
        .toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * A decoded write body.
   *
   * @param yaml it was YAML (upstream re-encodes it as JSON with sorted keys before decoding)
   * @param duplicates a JSON object in it may repeat a key (the tree keeps the last value)
   */
  record Parsed(ObjectNode object, boolean yaml, boolean duplicates) {}

  /**
   * Refuses a key given twice as the tree is built (where replacing a value shows it), which costs
   * less than the parser's own duplicate detection that remembers every key of every object.
   */
  private static final tools.jackson.databind.ObjectReader DUPLICATES_REJECTED =
      Json.MAPPER
          .reader()
          .with(tools.jackson.databind.DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

  /**
   * Parses a create or update body, noting what strict field validation needs to know: a JSON body
   * is read once from its bytes ({@link ByteTrees}, which leaves a repeated key to Jackson), else
   * once by Jackson with duplicate detection, and only read again when that fails.
   */
  static Parsed parseWrite(byte[] body, String contentType, String apiVersion, String kind) {
    String mt = mediaType(contentType);
    boolean json = mt.equals("application/json") || mt.equals("*/*");
    if (json) {
      ObjectNode read = ByteTrees.object(body); // null: a repeated key, or Jackson's to read
      if (read != null) {
        return new Parsed(read, false, false);
      }
      try {
        JsonNode node = DUPLICATES_REJECTED.readTree(body);
        if (node instanceof ObjectNode o) {
          return new Parsed(o, false, false);
        }
      } catch (JacksonException e) {
        // a duplicate key, or bad JSON that parse() reports with upstream's wording
        return new Parsed(parse(body, contentType, apiVersion, kind), false, true);
      }
    }
    boolean yaml = !json && !mt.equals(KubernetesProtobuf.MEDIA_TYPE);
    return new Parsed(parse(body, contentType, apiVersion, kind), yaml, false);
  }

  /**
   * Parses a JSON, YAML or protobuf object body. {@code apiVersion} and {@code kind} name what the
   * request path expects: a protobuf envelope without type meta is read as that, and decoding
   * errors name it, as kube-apiserver's do.
   */
  static ObjectNode parse(byte[] body, String contentType, String apiVersion, String kind) {
    String mt = mediaType(contentType);
    if (mt.equals(KubernetesProtobuf.MEDIA_TYPE)) {
      return protobuf(body, apiVersion, kind);
    }
    JsonNode node;
    try {
      node =
          switch (mt) {
            case "application/json", "*/*" -> Json.MAPPER.readTree(body);
            case "application/yaml", "application/x-yaml", "text/yaml" -> Json.YAML.readTree(body);
            default -> throw ApiException.unsupportedMediaType(mt, ACCEPTED);
          };
    } catch (JacksonException e) {
      String msg = e.getOriginalMessage();
      throw ApiException.badRequest(
          "couldn't get version/kind; json parse error: " + firstLine(msg));
    }
    if (node == null || node.isMissingNode() || node.isNull()) {
      throw ApiException.badRequest("Object 'Kind' is missing in ''");
    }
    if (!(node instanceof ObjectNode o)) {
      throw ApiException.badRequest(
          "couldn't get version/kind; json parse error: json: cannot unmarshal "
              + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
              + " into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\";"
              + " Kind string \"json:\\\"kind,omitempty\\\"\" }");
    }
    return o;
  }

  private static ObjectNode protobuf(byte[] body, String apiVersion, String kind) {
    try {
      return KubernetesProtobuf.decode(body, apiVersion, kind);
    } catch (ProtobufException e) {
      if (e.unsupported()) {
        throw ApiException.unsupportedMediaType(KubernetesProtobuf.MEDIA_TYPE, JSON_OR_YAML);
      }
      if (e.kind() != null) {
        throw ApiException.badRequest(
            e.kind()
                + " in version \""
                + e.version()
                + "\" cannot be handled as a "
                + kind
                + ": "
                + e.getMessage());
      }
      throw ApiException.badRequest(
          "the object provided is unrecognized (must be of type "
              + kind
              + "): "
              + e.getMessage()
              + " ("
              + summary(body)
              + ")");
    }
  }

  /** The first bytes of an unreadable body, as kube-apiserver quotes them. */
  private static String summary(byte[] body) {
    if (body.length == 0) {
      return "<empty>";
    }
    int n = Math.min(body.length, 30);
    if (body[0] == '{') {
      return new String(body, 0, n, java.nio.charset.StandardCharsets.UTF_8)
          + (body.length > n ? " ..." : "");
    }
    return java.util.HexFormat.of().formatHex(body, 0, n) + (body.length > n ? " ..." : "");
  }

  /**
   * Checks apiVersion/kind of a body against the resource and returns the version it is in (one of
   * the served versions), defaulting to the URL's version.
   */
  static String checkKind(ResourceType t, String urlVersion, ObjectNode body) {
    String kind = Json.text(body, "kind");
    String apiVersion = Json.text(body, "apiVersion");
    String version = urlVersion;
    if (apiVersion != null && !apiVersion.isEmpty()) {
      String group =
          apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
      String v = apiVersion.substring(apiVersion.indexOf('/') + 1);
      if (!group.equals(t.group()) || !t.versions().contains(v)) {
        throw ApiException.badRequest(
            "the API version in the data ("
                + apiVersion
                + ") does not match the expected API version ("
                + t.apiVersion(urlVersion)
                + ")");
      }
      version = v;
    }
    if (kind != null && !kind.isEmpty() && !kind.equals(t.kind())) {
      throw ApiException.badRequest(
          kind
              + " in version \""
              + version
              + "\" cannot be handled as a "
              + t.kind()
              + ": the object provided is unrecognized (must be of type "
              + t.kind()
              + ")");
    }
    return version;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
