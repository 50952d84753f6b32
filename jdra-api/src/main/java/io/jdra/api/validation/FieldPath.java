package io.jdra.api.validation;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;

/**
 * A path to a field inside an object, printed exactly like upstream {@code field.Path}: names
 * joined by dots, list indices and map keys in brackets without quotes, e.g. {@code
 * spec.devices.requests[0].exactly} or {@code spec.devices[0].attributes[gpu.example.com/model]}.
 *
 * <p>Immutable and thread-safe. Each element is either a name ({@code index == null}) or a
 * subscript ({@code name == null}).
 *
 * @param parent the enclosing path, {@code null} for a root element
 * @param name the field name of this element, {@code null} for a subscript
 * @param index the list index or map key of this element, {@code null} for a name
 */
public record FieldPath(FieldPath parent, String name, String index) {

  /** Validates that exactly one of name and index is set. */
  public FieldPath {
    if ((name == null) == (index == null)) {
      throw new IllegalArgumentException("a field path element needs exactly one of name or index");
    }
  }

  /**
   * A root path, optionally followed by more names: {@code root("metadata")} or {@code root("spec",
   * "devices")}.
   */
  public static FieldPath root(String name, String... more) {
    return new FieldPath(null, Objects.requireNonNull(name, "name"), null).child(more);
  }

  /** This path followed by one or more field names. */
  public FieldPath child(String name, String... more) {
    return new FieldPath(this, Objects.requireNonNull(name, "name"), null).child(more);
  }

  private FieldPath child(String[] names) {
    FieldPath p = this;
    for (String n : names) {
      p = new FieldPath(p, Objects.requireNonNull(n, "name"), null);
    }
    return p;
  }

  /** This path subscripted with a list index, printed as {@code [i]}. */
  public FieldPath index(int i) {
    return new FieldPath(this, null, Integer.toString(i));
  }

  /** This path subscripted with a map key, printed as {@code [key]} (no quoting, as upstream). */
  public FieldPath key(String key) {
    return new FieldPath(this, null, Objects.requireNonNull(key, "key"));
  }

  /** The root element of this path. */
  public FieldPath root() {
    FieldPath p = this;
    while (p.parent != null) {
      p = p.parent;
    }
    return p;
  }

  @Override
  public String toString() {
    Deque<FieldPath> elems = new ArrayDeque<>();
    for (FieldPath p = this; p != null; p = p.parent) {
      elems.push(p);
    }
    StringBuilder sb = new StringBuilder();
    for (FieldPath p : elems) {
      if (p.name != null) {
        if (p.parent != null && !p.name.isEmpty()) {
          sb.append('.');
        }
        sb.append(p.name);
      } else {
        sb.append('[').append(p.index).append(']');
      }
    }
    return sb.toString();
  }
}
