package io.jdra.apiserver.meta;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed label selector in upstream's string syntax: {@code a=b, a==b, a!=b, a in (x,y), a notin
 * (x), a, !a}, comma-separated, all of which must match. Immutable and thread-safe.
 */
public final class LabelSelector {
  private enum Op {
    EQ,
    NE,
    IN,
    NOT_IN,
    EXISTS,
    NOT_EXISTS
  }

  private record Requirement(String key, Op op, Set<String> values) {
    boolean matches(Map<String, String> labels) {
      String v = labels.get(key);
      return switch (op) {
        case EQ, IN -> v != null && values.contains(v);
        case NE, NOT_IN -> v == null || !values.contains(v);
        case EXISTS -> v != null;
        case NOT_EXISTS -> v == null;
      };
    }
  }

  /** Matches everything. */
  public static final LabelSelector EVERYTHING = new LabelSelector(List.of());

  private final List<Requirement> requirements;

  private LabelSelector(List<Requirement> requirements) {
    this.requirements = requirements;
  }

  public boolean isEmpty() {
    return requirements.isEmpty();
  }

  public boolean matches(Map<String, String> labels) {
    for (Requirement r : requirements) {
      if (!r.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Parses a selector.
   *
   * @throws IllegalArgumentException with a message naming the bad part
   */
  public static LabelSelector parse(String s) {
    if (s == null || s.isBlank()) {
      return EVERYTHING;
    }
    List<Requirement> reqs = new ArrayList<>();
    for (String part : splitTopLevel(s)) {
      reqs.add(requirement(part.trim()));
    }
    return new LabelSelector(List.copyOf(reqs));
  }

  private static List<String> splitTopLevel(String s) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(s.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(s.substring(start));
    return parts;
  }

  private static Requirement requirement(String p) {
    if (p.isEmpty()) {
      throw new IllegalArgumentException("found '', expected: identifier");
    }
    if (p.startsWith("!")) {
      return new Requirement(checkKey(p.substring(1).trim()), Op.NOT_EXISTS, Set.of());
    }
    int ne = p.indexOf("!=");
    if (ne > 0) {
      return new Requirement(
          checkKey(p.substring(0, ne).trim()), Op.NE, Set.of(p.substring(ne + 2).trim()));
    }
    int eq = p.indexOf('=');
    if (eq > 0) {
      String value = p.substring(p.startsWith("==", eq) ? eq + 2 : eq + 1).trim();
      return new Requirement(checkKey(p.substring(0, eq).trim()), Op.EQ, Set.of(value));
    }
    String[] words = p.split("\\s+", 2);
    if (words.length == 2) {
      String rest = words[1].trim();
      if (rest.startsWith("in") || rest.startsWith("notin")) {
        boolean in = rest.startsWith("in");
        String list = rest.substring(in ? 2 : 5).trim();
        if (!list.startsWith("(") || !list.endsWith(")")) {
          throw new IllegalArgumentException("found '" + list + "', expected: '('");
        }
        Set<String> values = new LinkedHashSet<>();
        for (String v : list.substring(1, list.length() - 1).split(",")) {
          values.add(v.trim());
        }
        return new Requirement(checkKey(words[0]), in ? Op.IN : Op.NOT_IN, values);
      }
      throw new IllegalArgumentException("found '" + rest + "', expected: in, notin, =, ==, !=");
    }
    return new Requirement(checkKey(p), Op.EXISTS, Set.of());
  }

  private static String checkKey(String key) {
    if (key.isEmpty()
        || !key.matches("([A-Za-z0-9.-]+/)?[A-Za-z0-9]([A-Za-z0-9_.-]*[A-Za-z0-9])?")) {
      throw new IllegalArgumentException("invalid label key \"" + key + "\"");
    }
    return key;
  }
}
