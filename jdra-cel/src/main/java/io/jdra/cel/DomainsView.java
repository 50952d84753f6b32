package io.jdra.cel;

import com.google.common.collect.ImmutableList;
import dev.cel.common.types.CelType;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code device.attributes} or {@code device.capacity}: domain -> (id -> value), over the device's
 * flat map of qualified names. An unknown domain looks up as an empty map (as upstream), while
 * {@code "domain" in device.attributes} stays false for it.
 */
final class DomainsView extends LazyMapValue {
  enum Kind {
    ATTRIBUTES,
    CAPACITY
  }

  /** A version attribute given as a string through {@link DeviceInput.Builder#version}. */
  record VersionString(String version) {}

  private final String driver;
  private final Map<String, ?> raw;
  private final Kind kind;
  private final DomainView driverDomain;

  DomainsView(String driver, Map<String, ?> raw, Kind kind) {
    this.driver = driver;
    this.raw = raw;
    this.kind = kind;
    this.driverDomain = new DomainView(this, driver);
  }

  @Override
  Object lookup(String domain) {
    DomainView view = domainView(domain);
    return view.isEmpty() ? null : view;
  }

  @Override
  Object index(Object key) {
    // Unknown domains are empty maps, so that lookups of their attributes fail with the id.
    return key instanceof String s ? domainView(s) : DomainView.EMPTY;
  }

  private DomainView domainView(String domain) {
    return domain.equals(driver) ? driverDomain : new DomainView(this, domain);
  }

  @Override
  Map<String, Object> materialize() {
    Map<String, Object> out = new LinkedHashMap<>();
    for (String name : raw.keySet()) {
      String domain = domainOf(name);
      out.computeIfAbsent(domain, d -> new DomainView(this, d));
    }
    return out;
  }

  @Override
  CelType mapType() {
    return kind == Kind.ATTRIBUTES ? CelEnvironment.ATTRIBUTES_TYPE : CelEnvironment.CAPACITY_TYPE;
  }

  String domainOf(String name) {
    int slash = name.indexOf('/');
    return slash < 0 ? driver : name.substring(0, slash);
  }

  static String idOf(String name) {
    int slash = name.indexOf('/');
    return slash < 0 ? name : name.substring(slash + 1);
  }

  /** The raw entry for domain/id, trying the unqualified name for the driver's domain. */
  Object rawEntry(String domain, String id) {
    Object v = null;
    if (domain.equals(driver)) {
      v = raw.get(id);
    }
    if (v == null && !raw.isEmpty()) {
      v = raw.get(domain + "/" + id);
    }
    return v;
  }

  Map<String, ?> raw() {
    return raw;
  }

  Object convert(String name, Object rawValue) {
    return kind == Kind.ATTRIBUTES ? attributeValue(name, rawValue) : capacityValue(rawValue);
  }

  private static Object capacityValue(Object raw) {
    if (raw instanceof DeviceCapacity c) {
      return QuantityValue.of(c.getValue());
    }
    return QuantityValue.ofPlain(raw);
  }

  /**
   * The error upstream raises before evaluating any selector on this device (it converts every
   * attribute first): the first attribute, by name, that has no value, a list value while {@code
   * lists} (DRAListTypeAttributes) is off, or a version that does not parse; null when all convert.
   */
  String firstAttributeError(boolean lists) {
    if (kind != Kind.ATTRIBUTES || raw.isEmpty()) {
      return null;
    }
    for (String name : new TreeSet<>(raw.keySet())) {
      try {
        attributeValue(name, raw.get(name), lists);
      } catch (AttributeException e) {
        return e.getMessage();
      }
    }
    return null;
  }

  private static Object attributeValue(String name, Object raw) {
    return attributeValue(name, raw, true);
  }

  /**
   * Converts an attribute as upstream does. fabric8 gives empty lists for absent list fields, so a
   * list counts as set only when it is not empty (validation forbids empty lists). Without {@code
   * lists}, list values are not looked at, so a list-only attribute has no supported value.
   */
  private static Object attributeValue(String name, Object raw, boolean lists) {
    if (raw instanceof DeviceAttribute a) {
      if (!lists) {
        return scalarValue(name, a);
      }
      if (notEmpty(a.getInts())) {
        return ImmutableList.copyOf(a.getInts());
      }
      if (notEmpty(a.getBools())) {
        return ImmutableList.copyOf(a.getBools());
      }
      if (notEmpty(a.getStrings())) {
        return ImmutableList.copyOf(a.getStrings());
      }
      if (notEmpty(a.getVersions())) {
        return versions(name, a.getVersions());
      }
      return scalarValue(name, a);
    }
    if (!lists && raw instanceof List<?>) {
      throw unsupported(name);
    }
    return plainValue(name, raw);
  }

  private static Object scalarValue(String name, DeviceAttribute a) {
    if (a.getInt() != null) {
      return a.getInt();
    }
    if (a.getBool() != null) {
      return a.getBool();
    }
    if (a.getString() != null) {
      return a.getString();
    }
    if (a.getVersion() != null) {
      return version(name, a.getVersion());
    }
    throw unsupported(name);
  }

  private static AttributeException unsupported(String name) {
    return new AttributeException("attribute " + name + ": unsupported attribute value");
  }

  private static boolean notEmpty(List<?> list) {
    return list != null && !list.isEmpty();
  }

  private static Object plainValue(String name, Object raw) {
    return switch (raw) {
      case Integer i -> i.longValue();
      case Long l -> l;
      case Boolean b -> b;
      case String s -> s;
      case VersionString v -> version(name, v.version());
      case Semver s -> s;
      case List<?> list ->
          ImmutableList.copyOf(list.stream().map(e -> plainValue(name, e)).toList());
      default ->
          throw new AttributeException(
              "attribute " + name + ": unsupported attribute value of " + raw.getClass().getName());
    };
  }

  private static Object versions(String name, List<String> versions) {
    ImmutableList.Builder<Object> b = ImmutableList.builderWithExpectedSize(versions.size());
    for (String v : versions) {
      b.add(version(name, v));
    }
    return b.build();
  }

  private static Semver version(String name, String version) {
    try {
      return Semver.parse(version);
    } catch (IllegalArgumentException e) {
      throw new AttributeException(
          "attribute " + name + ": parse semantic version: " + e.getMessage());
    }
  }

  /** A device attribute that cannot be represented in CEL (upstream fails the device likewise). */
  static final class AttributeException extends RuntimeException {
    AttributeException(String message) {
      super(message);
    }
  }
}
