package io.jdra.api.validation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/** Upstream's generic list, set and map checks ({@code validateSlice/Set/Map}). */
final class Lists {
  private Lists() {}

  /**
   * Checks each item; a list longer than {@code maxSize} (when {@code >= 0}) gives only a Too many
   * error, as upstream short-circuits for DoS protection.
   */
  static <T> List<FieldError> slice(
      List<T> items,
      int maxSize,
      BiFunction<T, FieldPath, List<FieldError>> itemCheck,
      FieldPath path) {
    List<T> l = items == null ? List.of() : items;
    if (maxSize >= 0 && l.size() > maxSize) {
      return List.of(FieldError.tooMany(path, l.size(), maxSize));
    }
    List<FieldError> errs = new ArrayList<>();
    for (int i = 0; i < l.size(); i++) {
      errs.addAll(itemCheck.apply(l.get(i), path.index(i)));
    }
    return errs;
  }

  /** As {@link #slice}, then a Duplicate error at each later item whose key was seen before. */
  static <T, K> List<FieldError> set(
      List<T> items,
      int maxSize,
      BiFunction<T, FieldPath, List<FieldError>> itemCheck,
      Function<T, K> key,
      Function<K, Object> shownKey,
      FieldPath path) {
    List<T> l = items == null ? List.of() : items;
    if (maxSize >= 0 && l.size() > maxSize) {
      return List.of(FieldError.tooMany(path, l.size(), maxSize));
    }
    List<FieldError> errs = new ArrayList<>(slice(l, -1, itemCheck, path));
    Set<K> seen = new HashSet<>();
    for (int i = 0; i < l.size(); i++) {
      K k = key.apply(l.get(i));
      if (!seen.add(k)) {
        errs.add(FieldError.duplicate(path.index(i), shownKey.apply(k)));
      }
    }
    return errs;
  }

  /** {@link #set} for string keys. */
  static <T> List<FieldError> set(
      List<T> items,
      int maxSize,
      BiFunction<T, FieldPath, List<FieldError>> itemCheck,
      Function<T, String> key,
      FieldPath path) {
    return set(items, maxSize, itemCheck, key, k -> k, path);
  }

  /**
   * Checks keys and values of a map. Key errors are reported at the map's path (as upstream 1.36
   * does), value errors at {@code path[key]} with long keys shortened in the middle.
   */
  static <V> List<FieldError> map(
      Map<String, V> m,
      int maxSize,
      int truncateKeyLen,
      BiFunction<String, FieldPath, List<FieldError>> keyCheck,
      BiFunction<V, FieldPath, List<FieldError>> valueCheck,
      FieldPath path) {
    if (m == null) {
      return List.of();
    }
    if (maxSize >= 0 && m.size() > maxSize) {
      return List.of(FieldError.tooMany(path, m.size(), maxSize));
    }
    List<FieldError> errs = new ArrayList<>();
    m.forEach((k, v) -> {
      FieldPath keyPath = path.key(truncate(k, truncateKeyLen));
      errs.addAll(keyCheck.apply(k, path));
      errs.addAll(valueCheck.apply(v, keyPath));
    });
    return errs;
  }

  /** Shortens {@code s} to {@code maxLen} (at least 16) by an ellipsis in the middle. */
  static String truncate(String s, int maxLen) {
    int max = Math.max(maxLen, 16);
    if (s.length() <= max) {
      return s;
    }
    int remaining = max - 3;
    return s.substring(0, (remaining + 1) / 2) + "..." + s.substring(s.length() - remaining / 2);
  }

  static <T> List<T> nn(List<T> l) {
    return l == null ? List.of() : l;
  }
}
