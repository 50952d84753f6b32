package io.jdra.apiserver.rest;

import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link String#intern()}'s result for the strings every stored version keeps (namespaces, label
 * keys and values, selectable field values), looked up first among the strings this class interned
 * before: each {@code intern} is a native call into the JVM's string table, and the same few
 * strings recur on thousands of writes (3 % of the API server's event-loop CPU in the scheduler
 * benchmark's perf profile). A string found here is the canonical one: it was interned, and this
 * map keeps it alive. The map is bounded (cleared when full: unique names, such as pods', pass
 * through it).
 */
final class Interned {
  static final int MAX = 4096;

  private static final ConcurrentHashMap<String, String> SEEN = new ConcurrentHashMap<>();

  private Interned() {}

  /** Exactly {@code s.intern()}. */
  static String of(String s) {
    String canonical = SEEN.get(s);
    if (canonical != null) {
      return canonical;
    }
    canonical = s.intern();
    if (SEEN.size() >= MAX) {
      SEEN.clear();
    }
    SEEN.put(canonical, canonical);
    return canonical;
  }
}
