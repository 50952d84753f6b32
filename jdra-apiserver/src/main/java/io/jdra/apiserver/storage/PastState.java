package io.jdra.apiserver.storage;

import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * A key-ordered view of a store's objects as they were at an older resourceVersion: the current
 * objects, with every history event newer than that version undone. Only the keys those events
 * touched are held apart (at most the history's size), so no request copies the whole store. Not
 * thread-safe: build and iterate it under the store's lock.
 */
final class PastState {
  private PastState() {}

  /**
   * For each key changed after {@code version}, its state at {@code version}: the object before the
   * oldest newer event, or null when that event created it.
   *
   * @param newestFirst the history, newest event first
   * @param namespace only keys of this namespace (null or empty for all)
   * @param fromKey only keys from this one on, or null
   */
  static NavigableMap<String, StoredObject> undone(
      Iterator<WatchEvent> newestFirst, long version, String namespace, String fromKey) {
    String prefix = namespace == null || namespace.isEmpty() ? "" : namespace + "/";
    TreeMap<String, StoredObject> before = new TreeMap<>();
    while (newestFirst.hasNext()) {
      WatchEvent e = newestFirst.next();
      if (e.resourceVersion() <= version) {
        break;
      }
      String key = e.object().key();
      // Only keys the page can show are held, so a namespace's list keeps little.
      if (key.startsWith(prefix) && (fromKey == null || key.compareTo(fromKey) >= 0)) {
        // Older events overwrite newer ones: the oldest change after the version tells the state.
        before.put(key, e.previous());
      }
    }
    return before;
  }

  /**
   * Restricts a key-ordered map to one namespace and to keys from {@code fromKey} on.
   *
   * @param namespace a namespace, or null or empty for all
   * @param fromKey the first key to include, or null
   */
  static <V> NavigableMap<String, V> range(
      NavigableMap<String, V> map, String namespace, String fromKey) {
    if (namespace == null || namespace.isEmpty()) {
      return fromKey == null ? map : map.tailMap(fromKey, true);
    }
    // '0' follows '/', so [ns/, ns0) is every key of the form "ns/...".
    String low = namespace + "/";
    String high = namespace + "0";
    String from = fromKey == null || fromKey.compareTo(low) < 0 ? low : fromKey;
    return from.compareTo(high) >= 0
        ? Collections.emptyNavigableMap()
        : map.subMap(from, true, high, false);
  }

  /**
   * The objects of {@code current} with {@code undone} applied over them, in key order: a key in
   * {@code undone} shows its past state (absent when null) instead of its current one.
   */
  static Iterator<StoredObject> merge(
      NavigableMap<String, StoredObject> current, NavigableMap<String, StoredObject> undone) {
    if (undone.isEmpty()) {
      return current.values().iterator();
    }
    return new Merged(current.entrySet().iterator(), undone.entrySet().iterator());
  }

  /** Sorted merge of two key-ordered entry streams; the second wins on equal keys. */
  private static final class Merged implements Iterator<StoredObject> {
    private final Iterator<Map.Entry<String, StoredObject>> current;
    private final Iterator<Map.Entry<String, StoredObject>> past;
    private Map.Entry<String, StoredObject> c;
    private Map.Entry<String, StoredObject> p;
    private StoredObject next;

    Merged(
        Iterator<Map.Entry<String, StoredObject>> current,
        Iterator<Map.Entry<String, StoredObject>> past) {
      this.current = current;
      this.past = past;
      c = step(current);
      p = step(past);
      advance();
    }

    private static Map.Entry<String, StoredObject> step(
        Iterator<Map.Entry<String, StoredObject>> it) {
      return it.hasNext() ? it.next() : null;
    }

    private void advance() {
      next = null;
      while (next == null && (c != null || p != null)) {
        int cmp = c == null ? 1 : p == null ? -1 : c.getKey().compareTo(p.getKey());
        if (cmp < 0) {
          next = c.getValue();
          c = step(current);
        } else {
          next = p.getValue(); // null: the key did not exist yet at that version
          if (cmp == 0) {
            c = step(current);
          }
          p = step(past);
        }
      }
    }

    @Override
    public boolean hasNext() {
      return next != null;
    }

    @Override
    public StoredObject next() {
      if (next == null) {
        throw new NoSuchElementException();
      }
      StoredObject o = next;
      advance();
      return o;
    }
  }
}
