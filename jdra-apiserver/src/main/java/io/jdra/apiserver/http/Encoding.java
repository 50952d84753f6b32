package io.jdra.apiserver.http;

import io.jdra.apiserver.convert.Conversion;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.storage.ListPage;
import io.jdra.apiserver.storage.StoredObject;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import java.time.Instant;
import java.util.ArrayList;
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
      // the stored bytes as they are, not copied: an answer's buffer is only read
      return Buffer.buffer(Unpooled.wrappedBuffer(o.json()));
    }
    return Buffer.buffer(Json.bytes(tree(t, version, o)));
  }

  static ObjectNode tree(ResourceType t, String version, StoredObject o) {
    ObjectNode n = Json.parseObject(o.json());
    return Conversion.needed(t, version) ? Conversion.toVersion(t, version, n) : n;
  }

  /**
   * The tree a table row is printed from: the served version's, or the stored form where the
   * objects live in another group's storage (upstream prints both Event APIs from one form).
   */
  static ObjectNode printable(ResourceType t, String version, StoredObject o) {
    return t.storedElsewhere() ? Json.parseObject(o.json()) : tree(t, version, o);
  }

  /** A complete {@code KindList} (no continue). */
  static Buffer list(ResourceType t, String version, ListPage page) {
    return list(t, version, page, null, -1);
  }

  /**
   * A {@code KindList}, concatenating item bytes without re-serializing them.
   *
   * @param continueToken the encoded token for the next page, or null on the last page
   * @param remaining remainingItemCount to report with the token, or negative for none
   */
  static Buffer list(
      ResourceType t, String version, ListPage page, String continueToken, long remaining) {
    Buffer b = Buffer.buffer((int) Math.min(Integer.MAX_VALUE - 64, 128 + itemBytes(page)));
    appendListHead(b, t, version, page, continueToken, remaining);
    boolean first = true;
    for (StoredObject o : page.items()) {
      if (!first) {
        b.appendByte((byte) ',');
      }
      first = false;
      appendItem(b, t, version, o);
    }
    b.appendString("]}");
    return b;
  }

  /** The stored size of a page's items (their JSON as stored). */
  static long itemBytes(ListPage page) {
    long size = 0;
    for (StoredObject o : page.items()) {
      size += o.json().length + 1;
    }
    return size;
  }

  static void appendItem(Buffer b, ResourceType t, String version, StoredObject o) {
    if (Conversion.needed(t, version)) {
      b.appendBuffer(object(t, version, o));
    } else {
      b.appendBytes(o.json());
    }
  }

  /** {@code {"kind":...,"metadata":{...},"items":[} of a list. */
  static void appendListHead(
      Buffer b,
      ResourceType t,
      String version,
      ListPage page,
      String continueToken,
      long remaining) {
    b.appendString("{\"kind\":\"")
        .appendString(t.kind())
        .appendString("List\",\"apiVersion\":\"")
        .appendString(t.apiVersion(version))
        .appendString("\",\"metadata\":{\"resourceVersion\":\"")
        .appendString(Long.toString(page.version()))
        .appendString("\"");
    if (continueToken != null) {
      b.appendString(",\"continue\":\"").appendString(continueToken).appendString("\"");
      if (remaining >= 0) {
        b.appendString(",\"remainingItemCount\":").appendString(Long.toString(remaining));
      }
    }
    b.appendString("},\"items\":[");
  }

  static ObjectNode table(ResourceType t, String version, ListPage page, Instant now) {
    return table(t, version, page, null, -1, now);
  }

  /** A meta.k8s.io Table of a page; continue and remaining as for {@link #list}. */
  static ObjectNode table(
      ResourceType t,
      String version,
      ListPage page,
      String continueToken,
      long remaining,
      Instant now) {
    List<ObjectNode> objects = new ArrayList<>(page.items().size());
    for (StoredObject o : page.items()) {
      objects.add(printable(t, version, o));
    }
    ObjectNode table = Tables.table(t, objects, Long.toString(page.version()), now);
    if (continueToken != null) {
      ObjectNode meta = (ObjectNode) table.get("metadata");
      meta.put("continue", continueToken);
      if (remaining >= 0) {
        meta.put("remainingItemCount", remaining);
      }
    }
    return table;
  }
}
