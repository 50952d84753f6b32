package io.jdra.apiserver.protobuf;

import io.jdra.apiserver.protobuf.ProtoSchema.Message;
import io.jdra.apiserver.protobuf.Scalars.Spec;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads {@code application/vnd.kubernetes.protobuf} bodies: the magic {@code k8s\0}, then a
 * runtime.Unknown envelope (type meta, the object's message, content encoding and type), into the
 * JSON tree kubectl would have sent for the same object. Stateless and thread-safe.
 */
public final class KubernetesProtobuf {
  /** The media type clients send protobuf bodies with. */
  public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

  private static final byte[] PREFIX = {'k', '8', 's', 0};
  private static final MessageReader READER = new MessageReader(ProtoSchema.get());

  private KubernetesProtobuf() {}

  /**
   * Decodes a body. An envelope without kind or apiVersion takes the defaults, the kind the request
   * path expects, as kube-apiserver does. An envelope naming a kind this table does not hold gives
   * just its apiVersion and kind, so the caller reports the mismatch as it does for JSON.
   *
   * @throws ProtobufException when the bytes are not a well-formed object of the named kind
   */
  public static ObjectNode decode(byte[] body, String defaultApiVersion, String defaultKind) {
    Wire.Slice raw;
    String apiVersion;
    String kind;
    if (body.length == 0) {
      throw ProtobufException.envelope("empty data");
    }
    if (!hasPrefix(body)) {
      throw ProtobufException.envelope(
          "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]");
    }
    if (body.length == PREFIX.length) {
      throw ProtobufException.envelope("empty body");
    }
    try {
      Object[] unknown =
          Scalars.read(
              "Unknown",
              new Wire.Slice(body, PREFIX.length, body.length - PREFIX.length),
              new Spec(1, Wire.LENGTH, "TypeMeta"),
              new Spec(2, Wire.LENGTH, "Raw"),
              new Spec(3, Wire.LENGTH, "ContentEncoding"),
              new Spec(4, Wire.LENGTH, "ContentType"));
      Object[] typeMeta =
          unknown[1] == null
              ? new Object[3]
              : Scalars.read(
                  "TypeMeta",
                  (Wire.Slice) unknown[1],
                  new Spec(1, Wire.LENGTH, "APIVersion"),
                  new Spec(2, Wire.LENGTH, "Kind"));
      apiVersion = Scalars.text(typeMeta[1]);
      kind = Scalars.text(typeMeta[2]);
      raw = unknown[2] == null ? new Wire.Slice(body, 0, 0) : (Wire.Slice) unknown[2];
    } catch (Wire.Malformed e) {
      throw ProtobufException.envelope(e.getMessage());
    }
    kind = kind.isEmpty() ? defaultKind : kind;
    apiVersion = apiVersion.isEmpty() ? defaultApiVersion : apiVersion;
    String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("kind", kind);
    out.put("apiVersion", apiVersion);
    Message m = ProtoSchema.get().root(apiVersion, kind);
    if (m == null) {
      if (kind.equals(defaultKind) && apiVersion.equals(defaultApiVersion)) {
        throw ProtobufException.unsupported(kind, version);
      }
      return out;
    }
    try {
      out.setAll(READER.read(m, raw));
    } catch (Wire.Malformed e) {
      throw ProtobufException.object(e.getMessage(), kind, version);
    }
    return out;
  }

  private static boolean hasPrefix(byte[] body) {
    if (body.length < PREFIX.length) {
      return false;
    }
    for (int i = 0; i < PREFIX.length; i++) {
      if (body[i] != PREFIX[i]) {
        return false;
      }
    }
    return true;
  }
}
