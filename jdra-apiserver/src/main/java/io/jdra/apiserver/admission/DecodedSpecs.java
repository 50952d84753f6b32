package io.jdra.apiserver.admission;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * What admission computed from a claim spec, by the spec's tree: the claims of one template share
 * their spec, and a claim's spec never changes after its create, so each of its later status writes
 * would otherwise decode the same spec again. The values are shared between threads and read only.
 * Bounded: emptied when full (a cache miss only costs the decode). Thread-safe.
 */
final class DecodedSpecs<V> {
  static final int MAX_ENTRIES = 512;

  private final ConcurrentHashMap<TreeKey, V> entries = new ConcurrentHashMap<>();

  /**
   * The value for {@code tree}, computed by {@code compute} when missing (then kept unless it is
   * null). {@code compute} must be a function of the tree alone and its result never be changed.
   */
  V get(JsonNode tree, Function<JsonNode, V> compute) {
    TreeKey key = TreeKey.lookup(tree);
    V v = entries.get(key);
    if (v != null) {
      return v;
    }
    v = compute.apply(tree);
    if (v != null) {
      if (entries.size() >= MAX_ENTRIES) {
        entries.clear();
      }
      entries.put(key.kept(), v);
    }
    return v;
  }

  /** The value for {@code tree}, or null. */
  V find(JsonNode tree) {
    return entries.get(TreeKey.lookup(tree));
  }

  /** Keeps {@code v} for {@code tree} (copied); {@code v} must never be changed afterwards. */
  void put(JsonNode tree, V v) {
    if (entries.size() >= MAX_ENTRIES) {
      entries.clear();
    }
    entries.put(TreeKey.lookup(tree).kept(), v);
  }

  int size() {
    return entries.size();
  }
}
