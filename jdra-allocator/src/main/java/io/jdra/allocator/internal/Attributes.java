package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Device attribute lookup and comparison as upstream's constraints do it. */
final class Attributes {
  private Attributes() {}

  /**
   * Typed scalar values so that a string "1" never equals an int 1. A final class rather than a
   * record: constraints compare the values of every candidate device, and a record's generated
   * equality goes through method handles, which the C1-compiled code {@code jdra bench} runs calls
   * slowly; the value's hash, kept here, tells most unequal values apart without comparing them.
   */
  static final class Typed {
    private final char type;
    private final Object value;
    private final int hash;

    Typed(char type, Object value) {
      this.type = type;
      this.value = value;
      this.hash = 31 * type + Objects.hashCode(value);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Typed t
          && t.hash == hash
          && t.type == type
          && (t.value == value || Objects.equals(value, t.value));
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public String toString() {
      return type + ":" + value;
    }
  }

  /**
   * The canonical typed values of one slice snapshot: equal values of its devices become one
   * instance, so that a constraint compares a candidate's value with the pinned one by identity.
   * Comparing two devices' own values costs a cache miss or two per candidate (each value and its
   * string live with their device, and Filter asks every node's devices once per pod): that was a
   * quarter of the scheduler's CPU in scheduler_perf's match_empty. Held by the snapshot, so it
   * holds no more values than its devices have. Thread-safe.
   */
  static final class Interner {
    private final ConcurrentHashMap<Typed, Typed> values = new ConcurrentHashMap<>();

    /** The canonical instance of a {@link Typed} value; null for null. */
    Object intern(Object value) {
      if (!(value instanceof Typed t)) {
        return value;
      }
      Typed known = values.putIfAbsent(t, t);
      return known == null ? t : known;
    }

    /** {@link #asSet}, with canonical elements. */
    Set<Object> asSet(DeviceAttribute a) {
      Set<Object> raw = Attributes.asSet(a);
      if (raw == null) {
        return null;
      }
      Set<Object> out = new HashSet<>(raw.size() * 2);
      for (Object v : raw) {
        out.add(intern(v));
      }
      return Set.copyOf(out);
    }
  }

  /**
   * The attribute under its fully qualified name, or its short name in the driver's domain; asked
   * of the device's facts, which remember the last name (constraints ask for one name over and over
   * while a search backtracks).
   */
  static DeviceAttribute lookup(Dev dev, String qualifiedName) {
    return dev.facts.attribute(qualifiedName).value();
  }

  /** {@link #lookup} on the device itself. */
  static DeviceAttribute lookupIn(Device device, String driver, String qualifiedName) {
    Map<String, DeviceAttribute> attrs = device.getAttributes();
    if (attrs == null) {
      return null;
    }
    DeviceAttribute a = attrs.get(qualifiedName);
    if (a != null) {
      return a;
    }
    int slash = qualifiedName.indexOf('/');
    if (slash < 0 || !qualifiedName.substring(0, slash).equals(driver)) {
      return null;
    }
    return attrs.get(qualifiedName.substring(slash + 1));
  }

  /** The scalar value, or null for an unknown type or a list value. */
  static Object scalar(DeviceAttribute a) {
    if (a.getString() != null) {
      return new Typed('s', a.getString());
    }
    if (a.getInt() != null) {
      return new Typed('i', a.getInt());
    }
    if (a.getBool() != null) {
      return new Typed('b', a.getBool());
    }
    if (a.getVersion() != null) {
      return new Typed('v', a.getVersion());
    }
    return null;
  }

  /** The value as a set: list values, else the scalar as a one-element set; null if unknown. */
  static Set<Object> asSet(DeviceAttribute a) {
    if (nonEmpty(a.getInts())) {
      return typed('i', a.getInts());
    }
    if (nonEmpty(a.getBools())) {
      return typed('b', a.getBools());
    }
    if (nonEmpty(a.getStrings())) {
      return typed('s', a.getStrings());
    }
    if (nonEmpty(a.getVersions())) {
      return typed('v', a.getVersions());
    }
    Object s = scalar(a);
    return s == null ? null : Set.of(s);
  }

  private static boolean nonEmpty(List<?> l) {
    return l != null && !l.isEmpty();
  }

  private static Set<Object> typed(char type, List<?> values) {
    Set<Object> out = new HashSet<>();
    for (Object v : values) {
      out.add(new Typed(type, v));
    }
    return out;
  }
}
