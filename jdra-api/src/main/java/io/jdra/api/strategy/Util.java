package io.jdra.api.strategy;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Null-tolerant collection helpers: fabric8 leaves collections empty or null, upstream nil. */
final class Util {
  private Util() {}

  static <T> List<T> list(List<T> list) {
    return list == null ? List.of() : list;
  }

  static <K, V> Map<K, V> map(Map<K, V> map) {
    return map == null ? Map.of() : map;
  }

  /** Upstream's {@code len(x) > 0} for slices and maps. */
  static boolean present(Collection<?> c) {
    return c != null && !c.isEmpty();
  }

  static boolean present(Map<?, ?> m) {
    return m != null && !m.isEmpty();
  }
}
