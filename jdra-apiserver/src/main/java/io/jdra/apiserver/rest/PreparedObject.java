package io.jdra.apiserver.rest;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.storage.StoredObject;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongFunction;
import tools.jackson.databind.node.ObjectNode;

/**
 * An object serialized before its resourceVersion is known, so that the store's lock is held only
 * to splice the version into the bytes (a copy) rather than to serialize the whole object: writes
 * of one resource from several event loops then rarely wait for each other. Immutable.
 */
final class PreparedObject implements LongFunction<StoredObject> {
  /** A per-process marker no client can guess, serialized where the version goes. */
  private static final String MARKER = "jdra-rv-" + UUID.randomUUID();

  private static final byte[] NEEDLE =
      ("\"resourceVersion\":\"" + MARKER + "\"").getBytes(StandardCharsets.UTF_8);

  private static final int VALUE_OFFSET = "\"resourceVersion\":\"".length();

  private final String namespace;
  private final String name;
  private final String uid;
  private final Map<String, String> labels;
  private final Map<String, String> fields;
  private final byte[] json;
  private final boolean asParsed;
  private final int markerAt;
  private final ObjectNode tree;
  private final RecentTrees recent;

  private PreparedObject(
      String namespace,
      String name,
      String uid,
      Map<String, String> labels,
      Map<String, String> fields,
      byte[] json,
      boolean asParsed,
      int markerAt,
      ObjectNode tree,
      RecentTrees recent) {
    this.namespace = namespace;
    this.name = name;
    this.uid = uid;
    this.labels = labels;
    this.fields = fields;
    this.json = json;
    this.asParsed = asParsed;
    this.markerAt = markerAt;
    this.tree = tree;
    this.recent = recent;
  }

  /**
   * Serializes {@code obj} with a marker for its resourceVersion. The tree keeps the marker; it is
   * not to be used afterwards: with {@code recent} (null: not remembered), the stored version
   * remembers it, and later writes copy it.
   */
  static PreparedObject of(
      ObjectNode obj,
      String namespace,
      String name,
      String uid,
      Map<String, String> labels,
      Map<String, String> fields,
      RecentTrees recent) {
    Json.child(obj, "metadata").put("resourceVersion", MARKER);
    Json.Written written = Json.written(obj);
    byte[] bytes = written.bytes();
    int at = indexOf(bytes, NEEDLE);
    if (at < 0) {
      // The marker is plain ASCII: the serializer writes it as given, so this is a bug.
      throw new IllegalStateException("resourceVersion marker not found in serialized object");
    }
    return new PreparedObject(
        namespace,
        name,
        uid,
        labels,
        fields,
        bytes,
        written.asParsed(),
        at + VALUE_OFFSET,
        obj,
        recent);
  }

  /** The stored form at {@code rv}. */
  @Override
  public StoredObject apply(long rv) {
    StoredObject stored = new StoredObject(namespace, name, uid, rv, bytesAt(rv), labels, fields);
    if (recent != null) {
      recent.remember(stored, tree, MARKER, asParsed, markerAt);
    }
    return stored;
  }

  private byte[] bytesAt(long rv) {
    return splice(json, markerAt, MARKER.length(), rv);
  }

  /**
   * The stored form of {@code current} at another resourceVersion: its bytes with the version's
   * digits (at {@code versionAt}) replaced, its namespace, name, uid, labels and selectable fields
   * as they are. That is what serializing the tree the bytes were written from gives, unchanged but
   * for the version (a delete's last state: {@code ObjectService} asserts it in tests).
   */
  static LongFunction<StoredObject> restamped(StoredObject current, int versionAt) {
    int digits = Long.toString(current.resourceVersion()).length();
    return rv ->
        new StoredObject(
            current.namespace(),
            current.name(),
            current.uid(),
            rv,
            splice(current.json(), versionAt, digits, rv),
            current.labels(),
            current.fields());
  }

  /** {@code json} with the {@code length} bytes at {@code at} replaced by the digits of rv. */
  private static byte[] splice(byte[] json, int at, int length, long rv) {
    byte[] digits = Long.toString(rv).getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[json.length - length + digits.length];
    System.arraycopy(json, 0, out, 0, at);
    System.arraycopy(digits, 0, out, at, digits.length);
    int tail = at + length;
    System.arraycopy(json, tail, out, at + digits.length, json.length - tail);
    return out;
  }

  static int indexOf(byte[] haystack, byte[] needle) {
    int last = haystack.length - needle.length;
    // A byte from the needle's middle (inside the marker) is tested first: its first byte, a
    // quote, starts every JSON string, so testing that first entered the inner loop at every key.
    int mid = needle.length / 2;
    byte probe = needle[mid];
    outer:
    for (int i = 0; i <= last; i++) {
      if (haystack[i + mid] != probe || haystack[i] != needle[0]) {
        continue;
      }
      for (int j = 1; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Override
  public String toString() {
    return "PreparedObject[" + namespace + "/" + name + ", " + json.length + " bytes]";
  }
}
