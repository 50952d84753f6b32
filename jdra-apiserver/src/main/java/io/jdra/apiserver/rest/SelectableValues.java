package io.jdra.apiserver.rest;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The selectable field values of one kind's stored objects, by dotted path: every stored version
 * keeps them (an immutable map of interned strings) so that field selectors need no parse. Most
 * writes store the values the object's previous version or the kind's last stored object already
 * had (a pod's status write, the next pod of a workload), so those maps are handed out again
 * instead of building and interning an equal one; the paths are split once. The maps are equal to
 * building each anew ({@code SelectableValuesTest}). Thread-safe (the last map is only a hint).
 */
final class SelectableValues {
  private final String[] paths;
  private final String[][] parts;

  /** The map this kind stored last: the next object of a workload often has the same values. */
  private volatile Map<String, String> last = Map.of();

  SelectableValues(Collection<String> dottedPaths) {
    List<String> distinct = new ArrayList<>(new LinkedHashSet<>(dottedPaths));
    paths = distinct.toArray(String[]::new);
    parts = new String[paths.length][];
    for (int i = 0; i < paths.length; i++) {
      parts[i] = split(paths[i]);
    }
  }

  /**
   * The values of {@code obj}: {@code previous} (the object's stored version, or null) or the last
   * map when equal, else a new map.
   */
  Map<String, String> of(ObjectNode obj, Map<String, String> previous) {
    if (paths.length == 0) {
      return Map.of();
    }
    String[] values = new String[paths.length];
    for (int i = 0; i < paths.length; i++) {
      values[i] = text(obj, parts[i]);
    }
    if (holds(previous, values)) {
      return previous;
    }
    Map<String, String> kept = last;
    if (kept != previous && holds(kept, values)) {
      return kept;
    }
    Map<String, String> built = build(values);
    last = built;
    return built;
  }

  /** The map as every stored version had it before: by path, values interned, "" for none. */
  Map<String, String> build(String[] values) {
    @SuppressWarnings("unchecked")
    Map.Entry<String, String>[] entries = new Map.Entry[paths.length];
    for (int i = 0; i < paths.length; i++) {
      entries[i] = Map.entry(paths[i], Interned.of(values[i]));
    }
    return Map.ofEntries(entries);
  }

  private boolean holds(Map<String, String> m, String[] values) {
    if (m == null || m.size() != paths.length) {
      return false;
    }
    for (int i = 0; i < paths.length; i++) {
      if (!values[i].equals(m.get(paths[i]))) {
        return false;
      }
    }
    return true;
  }

  /** As {@code Json.text(obj, path)}, with "" for null. */
  private static String text(JsonNode obj, String[] path) {
    JsonNode n = obj;
    for (int i = 0; n != null && i < path.length; i++) {
      n = n.get(path[i]);
    }
    if (n == null || n.isNull() || n.isContainer() || n.isMissingNode()) {
      return "";
    }
    return n.asString();
  }

  /** A dotted path's parts, as {@code Json.at} reads them. */
  private static String[] split(String dottedPath) {
    List<String> out = new ArrayList<>();
    int start = 0;
    while (true) {
      int dot = dottedPath.indexOf('.', start);
      if (dot < 0) {
        out.add(dottedPath.substring(start));
        return out.toArray(String[]::new);
      }
      out.add(dottedPath.substring(start, dot));
      start = dot + 1;
    }
  }
}
