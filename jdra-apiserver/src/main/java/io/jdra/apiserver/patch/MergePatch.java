package io.jdra.apiserver.patch;

import java.util.ArrayList;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * RFC 7386 JSON merge patch as evanphx/json-patch v4 {@code MergePatch} does it: null deletes a
 * key, objects merge recursively, anything else replaces; nulls inside newly added objects are
 * dropped (not inside arrays).
 */
final class MergePatch {
  private MergePatch() {}

  static ObjectNode apply(ObjectNode current, JsonNode patch, String kind) throws PatchException {
    if (patch.isNull() || !(patch.isObject() || patch.isArray())) {
      throw PatchException.badRequest("Invalid JSON Patch");
    }
    if (patch.isArray()) {
      // upstream returns the array as the new document, which then fails to decode into a kind
      throw PatchException.unprocessable(
          "json: cannot unmarshal array into Go value of type " + kind);
    }
    ObjectNode doc = current.deepCopy();
    mergeInto(doc, (ObjectNode) patch);
    return doc;
  }

  static void mergeInto(ObjectNode doc, ObjectNode patch) {
    for (Map.Entry<String, JsonNode> e : patch.properties()) {
      String k = e.getKey();
      JsonNode v = e.getValue();
      if (v.isNull()) {
        doc.remove(k);
        continue;
      }
      JsonNode cur = doc.get(k);
      if (cur != null && cur.isObject() && v.isObject()) {
        mergeInto((ObjectNode) cur, (ObjectNode) v);
      } else {
        doc.set(k, pruneNulls(v.deepCopy()));
      }
    }
  }

  static JsonNode pruneNulls(JsonNode n) {
    if (n instanceof ObjectNode o) {
      for (String k : new ArrayList<>(o.propertyNames())) {
        if (o.get(k).isNull()) {
          o.remove(k);
        } else {
          pruneNulls(o.get(k));
        }
      }
    } else if (n instanceof ArrayNode a) {
      for (JsonNode c : a) {
        pruneNulls(c);
      }
    }
    return n;
  }
}
