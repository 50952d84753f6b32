package io.jdra.apiserver.protobuf;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.protobuf.ProtoSchema.Field;
import io.jdra.apiserver.protobuf.ProtoSchema.Kind;
import io.jdra.apiserver.protobuf.ProtoSchema.Message;
import io.jdra.apiserver.protobuf.ProtoSchema.Value;
import io.jdra.apiserver.protobuf.Scalars.Spec;
import java.math.BigInteger;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads a message of the generated table into the JSON tree that Go's encoding/json writes for the
 * decoded Go struct: fields in declaration order, Go pointers present exactly when on the wire,
 * omitempty zero values left out, value structs always written (metadata {@code creationTimestamp:
 * null} included, as kubectl's own JSON has it). Empty lists and maps are left out even without
 * omitempty: Go writes them as null, which decodes the same. Stateless.
 */
final class MessageReader {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Wire.Slice EMPTY = new Wire.Slice(new byte[0], 0, 0);

  private final ProtoSchema schema;

  MessageReader(ProtoSchema schema) {
    this.schema = schema;
  }

  ObjectNode read(Message m, Wire.Slice bytes) {
    Map<Field, JsonNode> single = new HashMap<>();
    Map<Field, ArrayNode> lists = new HashMap<>();
    Map<Field, TreeMap<String, JsonNode>> maps = new HashMap<>();
    Wire w = bytes.wire();
    while (!w.atEnd()) {
      long tag = w.varint();
      int wt = (int) (tag & 7);
      int num = (int) (tag >>> 3);
      Scalars.checkTag(m.simpleName(), tag, wt, num);
      Field f = m.byNumber().get(num);
      if (f == null) {
        w.skip(wt);
        continue;
      }
      switch (f.shape()) {
        case ONE -> single.put(f, value(f, f.value(), wt, w));
        case LIST -> element(f, wt, w, lists.computeIfAbsent(f, k -> NODES.arrayNode()));
        case MAP -> entry(f, wt, w, maps.computeIfAbsent(f, k -> new TreeMap<>()));
      }
    }
    ObjectNode out = NODES.objectNode();
    for (Field f : m.fields()) {
      switch (f.shape()) {
        case ONE -> one(f, single.get(f), out);
        case LIST -> {
          ArrayNode a = lists.get(f);
          if (a != null && !a.isEmpty()) {
            out.set(f.json(), a);
          }
        }
        case MAP -> {
          TreeMap<String, JsonNode> entries = maps.get(f);
          if (entries != null && !entries.isEmpty()) {
            ObjectNode o = out.putObject(f.json());
            entries.forEach(o::set);
          }
        }
      }
    }
    return out;
  }

  private void one(Field f, JsonNode decoded, ObjectNode out) {
    if (f.inline()) {
      ObjectNode inner = decoded != null ? (ObjectNode) decoded : (ObjectNode) zero(f.value());
      inner.properties().forEach(e -> out.set(e.getKey(), e.getValue()));
      return;
    }
    JsonNode v = decoded;
    if (v == null) {
      if (f.pointer()) {
        return;
      }
      v = zero(f.value());
    }
    if (v == null || (f.omitEmpty() && !f.pointer() && empty(f.value().kind(), v))) {
      return;
    }
    out.set(f.json(), v);
  }

  /** A repeated element; numeric and bool lists may also come packed. */
  private void element(Field f, int wt, Wire w, ArrayNode into) {
    int expected = wireType(f.value().kind());
    if (wt == Wire.LENGTH && expected != Wire.LENGTH) {
      Wire packed = w.bytes().wire();
      while (!packed.atEnd()) {
        into.add(value(f, f.value(), expected, packed));
      }
      return;
    }
    into.add(value(f, f.value(), wt, w));
  }

  private void entry(Field f, int wt, Wire w, TreeMap<String, JsonNode> into) {
    if (wt != Wire.LENGTH) {
      throw Scalars.wrongWireType(wt, f.goName());
    }
    Wire e = w.bytes().wire();
    String key = null;
    JsonNode value = null;
    while (!e.atEnd()) {
      long tag = e.varint();
      int ewt = (int) (tag & 7);
      int num = (int) (tag >>> 3);
      Scalars.checkTag(f.goName() + "Entry", tag, ewt, num);
      switch (num) {
        case 1 -> key = value(f, f.key(), ewt, e).asString();
        case 2 -> value = value(f, f.value(), ewt, e);
        default -> e.skip(ewt);
      }
    }
    into.put(key == null ? "" : key, value != null ? value : zeroOrNull(f.value()));
  }

  private JsonNode value(Field f, Value v, int wt, Wire w) {
    if (wt != wireType(v.kind())) {
      throw Scalars.wrongWireType(wt, f.goName());
    }
    return switch (v.kind()) {
      case STRING -> NODES.stringNode(w.bytes().utf8());
      case BYTES -> NODES.stringNode(Base64.getEncoder().encodeToString(w.bytes().copy()));
      case BOOL -> NODES.booleanNode(w.varint() != 0);
      case INT -> integer(w.varint());
      case UINT -> unsigned(w.varint());
      case DOUBLE -> NODES.numberNode(Double.longBitsToDouble(w.fixed64()));
      case FLOAT -> NODES.numberNode(Float.intBitsToFloat(w.fixed32()));
      case MESSAGE -> read(schema.message(v.message()), w.bytes());
      default -> special(v.kind(), w.bytes());
    };
  }

  /** The apimachinery types whose protobuf message differs from their JSON form. */
  private static JsonNode special(Kind kind, Wire.Slice bytes) {
    return switch (kind) {
      case TIME, MICROTIME -> {
        Object[] t =
            Scalars.read(
                "Timestamp",
                bytes,
                new Spec(1, Wire.VARINT, "Seconds"),
                new Spec(2, Wire.VARINT, "Nanos"));
        String text =
            bytes.len() == 0
                ? null
                : GoText.time(
                    Scalars.number(t[1]), (int) Scalars.number(t[2]), kind == Kind.MICROTIME);
        yield text == null ? NODES.nullNode() : NODES.stringNode(text);
      }
      case QUANTITY -> {
        Object[] q = Scalars.read("Quantity", bytes, new Spec(1, Wire.LENGTH, "String_"));
        yield NODES.stringNode(q[1] == null ? "0" : Scalars.text(q[1]));
      }
      case INTSTR -> intOrString(bytes);
      case DURATION -> {
        Object[] d = Scalars.read("Duration", bytes, new Spec(1, Wire.VARINT, "Duration"));
        yield NODES.stringNode(GoText.duration(Scalars.number(d[1])));
      }
      case RAW, FIELDSV1 -> {
        String type = kind == Kind.RAW ? "RawExtension" : "FieldsV1";
        Object[] r = Scalars.read(type, bytes, new Spec(1, Wire.LENGTH, "Raw"));
        yield embeddedJson(type, (Wire.Slice) r[1]);
      }
      default -> throw new IllegalStateException("not a special type: " + kind);
    };
  }

  private static JsonNode intOrString(Wire.Slice bytes) {
    Object[] v =
        Scalars.read(
            "IntOrString",
            bytes,
            new Spec(1, Wire.VARINT, "Type"),
            new Spec(2, Wire.VARINT, "IntVal"),
            new Spec(3, Wire.LENGTH, "StrVal"));
    long type = Scalars.number(v[1]);
    if (type == 0) {
      return integer((int) Scalars.number(v[2]));
    }
    if (type == 1) {
      return NODES.stringNode(Scalars.text(v[3]));
    }
    throw new Wire.Malformed("impossible IntOrString.Type");
  }

  /** RawExtension and FieldsV1 carry JSON, written as is; nothing is JSON null. */
  private static JsonNode embeddedJson(String type, Wire.Slice raw) {
    if (raw == null || raw.len() == 0) {
      return NODES.nullNode();
    }
    try {
      JsonNode n = Json.MAPPER.readTree(raw.copy());
      return n == null || n.isMissingNode() ? NODES.nullNode() : n;
    } catch (JacksonException e) {
      throw new Wire.Malformed(
          "json: error calling MarshalJSON for type *"
              + (type.equals("RawExtension") ? "runtime." : "v1.")
              + type
              + ": "
              + e.getOriginalMessage());
    }
  }

  /** The node type the JSON parser gives for the same number, so trees compare equal. */
  private static JsonNode integer(long v) {
    return v == (int) v ? NODES.numberNode((int) v) : NODES.numberNode(v);
  }

  private static JsonNode unsigned(long v) {
    return v >= 0 ? integer(v) : NODES.numberNode(new BigInteger(Long.toUnsignedString(v)));
  }

  private static int wireType(Kind kind) {
    return switch (kind) {
      case BOOL, INT, UINT -> Wire.VARINT;
      case DOUBLE -> Wire.FIXED64;
      case FLOAT -> Wire.FIXED32;
      default -> Wire.LENGTH;
    };
  }

  /** Go's zero value of a non-pointer field as JSON, or null when Go would write null. */
  private JsonNode zero(Value v) {
    return switch (v.kind()) {
      case STRING -> NODES.stringNode("");
      case BYTES -> null;
      case BOOL -> NODES.booleanNode(false);
      case INT, UINT -> NODES.numberNode(0);
      case DOUBLE, FLOAT -> NODES.numberNode(0.0);
      case MESSAGE -> read(schema.message(v.message()), EMPTY);
      default -> special(v.kind(), EMPTY);
    };
  }

  private JsonNode zeroOrNull(Value v) {
    JsonNode z = zero(v);
    return z == null ? NODES.nullNode() : z;
  }

  /** Go's omitempty test; structs (messages and the special types) are never empty. */
  private static boolean empty(Kind kind, JsonNode v) {
    return switch (kind) {
      case STRING, BYTES -> v.asString().isEmpty();
      case BOOL -> !v.asBoolean();
      case INT, UINT, DOUBLE, FLOAT -> v.asDouble() == 0;
      default -> false;
    };
  }
}
