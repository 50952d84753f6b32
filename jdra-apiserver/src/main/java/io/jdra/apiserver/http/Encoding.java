package io.jdra.apiserver.http;

import io.jdra.apiserver.convert.Conversion;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.rest.Json;
import io.jdra.apiserver.storage.ListPage;
import io.jdra.apiserver.storage.StoredObject;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * Encodes stored objects for the wire: in the requested version (stored bytes as they are when no
 * conversion is needed), as Lists, or as Tables. Stateless.
 */
final class Encoding {
  private Encoding() {}

  static Buffer object(ResourceType t, String version, StoredObject o) {
    if (!Conversion.needed(t, version)) {
      return Buffer.buffer(o.json());
    }
    return Buffer.buffer(Json.bytes(tree(t, version, o)));
  }

  static ObjectNode tree(ResourceType t, String version, StoredObject o) {
    ObjectNode n = Json.parseObject(o.json());
    return Conversion.needed(t, version) ? Conversion.toVersion(t, version, n) : n;
  }

  /** A {@code KindList}, concatenating item bytes without re-serializing them. */
  static Buffer list(ResourceType t, String version, ListPage page) {
    int size = 128;
    for (StoredObject o : page.items()) {
      size += o.json().length + 1;
    }
    Buffer b = Buffer.buffer(size);
    b.appendString("{\"kind\":\"")
        .appendString(t.kind())
        .appendString("List\",\"apiVersion\":\"")
        .appendString(t.apiVersion(version))
        .appendString("\",\"metadata\":{\"resourceVersion\":\"")
        .appendString(Long.toString(page.version()))
        .appendString("\"");
    if (page.nextKey() != null) {
      b.appendString(",\"continue\":\"")
          .appendString(continueToken(page.version(), page.nextKey()))
          .appendString("\",\"remainingItemCount\":")
          .appendString(Long.toString(page.remaining()));
    }
    b.appendString("},\"items\":[");
    boolean first = true;
    for (StoredObject o : page.items()) {
      if (!first) {
        b.appendByte((byte) ',');
      }
      first = false;
      if (Conversion.needed(t, version)) {
        b.appendBuffer(object(t, version, o));
      } else {
        b.appendBytes(o.json());
      }
    }
    b.appendString("]}");
    return b;
  }

  static ObjectNode table(ResourceType t, String version, ListPage page, Instant now) {
    List<ObjectNode> objects = new ArrayList<>(page.items().size());
    for (StoredObject o : page.items()) {
      objects.add(tree(t, version, o));
    }
    ObjectNode table = Tables.table(t, objects, Long.toString(page.version()), now);
    if (page.nextKey() != null) {
      ObjectNode meta = (ObjectNode) table.get("metadata");
      meta.put("continue", continueToken(page.version(), page.nextKey()));
      meta.put("remainingItemCount", page.remaining());
    }
    return table;
  }

  static String continueToken(long rv, String key) {
    ObjectNode n = Json.object();
    n.put("v", "meta.k8s.io/v1");
    n.put("rv", rv);
    n.put("start", key);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(Json.bytes(n));
  }

  /** The key a continue token starts after; IllegalArgumentException when malformed. */
  static String continueKey(String token) {
    try {
      byte[] raw = Base64.getUrlDecoder().decode(token.replace('=', ' ').trim());
      ObjectNode n = Json.parseObject(raw);
      String start = Json.text(n, "start");
      if (start == null || !"meta.k8s.io/v1".equals(Json.text(n, "v"))) {
        throw new IllegalArgumentException("continue key is not valid: bad key");
      }
      return start;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "continue key is not valid: " + new String(token.getBytes(), StandardCharsets.UTF_8));
    }
  }
}
