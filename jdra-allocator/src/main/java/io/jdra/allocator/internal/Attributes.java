package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** Device attribute lookup and comparison as upstream's constraints do it. */
final class Attributes {
  private Attributes() {}

  /**
   * Typed scalar values so that a string "1" never equals an int 1. Equality is written out: a
   * record's generated one goes through method handles, which C1-compiled code (what {@code jdra
   * bench} runs) calls slowly, and constraints compare values for every candidate device.
   */
  record Typed(char type, Object value) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Typed t && t.type == type && Objects.equals(value, t.value);
    }

    @Override
    public int hashCode() {
      return 31 * type + Objects.hashCode(value);
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
