package io.jdra.cel;

import dev.cel.common.exceptions.CelAttributeNotFoundException;
import dev.cel.common.types.CelType;
import dev.cel.common.values.CelValue;
import dev.cel.common.values.SelectableValue;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A read-only CEL map whose entries are looked up on demand instead of converted up front. It is a
 * {@link CelValue}, so the runtime passes it through unchanged (it deep-converts plain maps on
 * every access), and a {@link SelectableValue}, so {@code m.key} calls {@link #lookup}. Iteration,
 * size and equality materialize the entries (rare in selectors).
 */
abstract class LazyMapValue extends CelValue
    implements SelectableValue<String>, Map<Object, Object> {

  /** The value for {@code key}, converted for CEL, or null when absent. */
  abstract Object lookup(String key);

  /** All entries, converted for CEL. */
  abstract Map<String, Object> materialize();

  abstract CelType mapType();

  /** What {@code m[key]} and {@code m.key} yield: the entry, or an error naming the key. */
  Object index(Object key) {
    Object v = key instanceof String s ? lookup(s) : null;
    if (v == null) {
      throw noSuchKey(key);
    }
    return v;
  }

  static CelAttributeNotFoundException noSuchKey(Object key) {
    return CelAttributeNotFoundException.of("no such key: " + key);
  }

  @Override
  public Object select(String field) {
    return index(field);
  }

  @Override
  public Optional<?> find(String field) {
    return Optional.ofNullable(lookup(field));
  }

  @Override
  public Object value() {
    return this; // the runtime unwraps CelValues into value(): stay lazy
  }

  @Override
  public boolean isZeroValue() {
    return isEmpty();
  }

  @Override
  public CelType celType() {
    return mapType();
  }

  @Override
  public int size() {
    return materialize().size();
  }

  @Override
  public boolean isEmpty() {
    return materialize().isEmpty();
  }

  @Override
  public boolean containsKey(Object key) {
    return key instanceof String s && lookup(s) != null;
  }

  @Override
  public boolean containsValue(Object value) {
    return materialize().containsValue(value);
  }

  @Override
  public Object get(Object key) {
    return key instanceof String s ? lookup(s) : null;
  }

  @Override
  public Object put(Object key, Object value) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Object remove(Object key) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void putAll(Map<?, ?> m) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void clear() {
    throw new UnsupportedOperationException();
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public Set<Object> keySet() {
    return (Set) materialize().keySet();
  }

  @Override
  public Collection<Object> values() {
    return materialize().values();
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public Set<Entry<Object, Object>> entrySet() {
    return (Set) materialize().entrySet();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Map<?, ?> m && materialize().equals(m);
  }

  @Override
  public int hashCode() {
    return materialize().hashCode();
  }

  @Override
  public String toString() {
    return materialize().toString();
  }
}
