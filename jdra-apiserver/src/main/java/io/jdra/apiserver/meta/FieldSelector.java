package io.jdra.apiserver.meta;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A parsed field selector: {@code f=v, f==v, f!=v}, comma-separated, all of which must match.
 * Immutable and thread-safe.
 */
public final class FieldSelector {
  private record Term(String field, String value, boolean equal) {}

  /** Matches everything. */
  public static final FieldSelector EVERYTHING = new FieldSelector(List.of());

  private final List<Term> terms;

  private FieldSelector(List<Term> terms) {
    this.terms = terms;
  }

  public boolean isEmpty() {
    return terms.isEmpty();
  }

  /** The value this selector requires for a field (by JSON path) with {@code =}, or null. */
  public String requiredValue(String field) {
    for (Term t : terms) {
      if (t.equal && t.field.equals(field)) {
        return t.value;
      }
    }
    return null;
  }

  public boolean matches(Map<String, String> fields) {
    for (Term t : terms) {
      String v = fields.getOrDefault(t.field, "");
      if (t.equal != v.equals(t.value)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Parses a selector against the fields a resource supports. The terms test the stored objects'
   * field values, which are kept by JSON path: each supported field name maps to its path (as
   * upstream's field label conversion maps events.k8s.io's {@code regarding.kind} onto the stored
   * {@code involvedObject.kind}).
   *
   * @param supported field selector name to the dotted JSON path it reads
   * @throws IllegalArgumentException {@code field label not supported: x} as upstream, or a syntax
   *     error
   */
  public static FieldSelector parse(String s, Map<String, String> supported) {
    if (s == null || s.isBlank()) {
      return EVERYTHING;
    }
    List<Term> terms = new ArrayList<>();
    for (String raw : s.split(",")) {
      String p = raw.trim();
      int ne = p.indexOf("!=");
      int eq = p.indexOf('=');
      Term t;
      if (ne > 0) {
        t = new Term(p.substring(0, ne).trim(), p.substring(ne + 2).trim(), false);
      } else if (eq > 0) {
        int from = p.startsWith("==", eq) ? eq + 2 : eq + 1;
        t = new Term(p.substring(0, eq).trim(), p.substring(from).trim(), true);
      } else {
        throw new IllegalArgumentException(
            "invalid selector: '" + s + "'; can't understand '" + p + "'");
      }
      String path = supported.get(t.field);
      if (path == null) {
        throw new IllegalArgumentException("field label not supported: " + t.field);
      }
      terms.add(new Term(path, t.value, t.equal));
    }
    return new FieldSelector(List.copyOf(terms));
  }
}
