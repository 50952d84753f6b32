package io.jdra.testing.objects;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CounterBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumptionBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds a device of a ResourceSlice. */
public final class DeviceWrapper {
  private final String name;
  private final Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
  private final Map<String, DeviceCapacity> capacity = new LinkedHashMap<>();
  private final List<io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint> taints =
      new ArrayList<>();
  private final List<io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption>
      consumes = new ArrayList<>();

  DeviceWrapper(String name) {
    this.name = name;
  }

  /**
   * An attribute: String, Integer/Long (int), Boolean, List of String or of numbers; a value
   * starting with a digit is still a string (use {@link #version} for semver).
   */
  public DeviceWrapper attr(String attrName, Object value) {
    attributes.put(attrName, attribute(value));
    return this;
  }

  public DeviceWrapper version(String attrName, String semver) {
    DeviceAttribute a = new DeviceAttribute();
    a.setVersion(semver);
    attributes.put(attrName, a);
    return this;
  }

  public DeviceWrapper capacity(String capName, String quantity) {
    capacity.put(capName, new DeviceCapacity(null, new Quantity(quantity)));
    return this;
  }

  public DeviceWrapper taint(String key, String value, String effect) {
    taints.add(new DeviceTaintBuilder().withKey(key).withValue(value).withEffect(effect).build());
    return this;
  }

  /** Consumes counters of a shared counter set: alternating counter name, quantity. */
  public DeviceWrapper consumes(String counterSet, String... counterQuantities) {
    DeviceCounterConsumptionBuilder b =
        new DeviceCounterConsumptionBuilder().withCounterSet(counterSet);
    Make.pairs(counterQuantities)
        .forEach(
            (k, v) -> b.addToCounters(k, new CounterBuilder().withValue(new Quantity(v)).build()));
    consumes.add(b.build());
    return this;
  }

  public Device obj() {
    DeviceBuilder b = new DeviceBuilder().withName(name);
    if (!attributes.isEmpty()) {
      b.withAttributes(new LinkedHashMap<>(attributes));
    }
    if (!capacity.isEmpty()) {
      b.withCapacity(new LinkedHashMap<>(capacity));
    }
    if (!taints.isEmpty()) {
      b.withTaints(new ArrayList<>(taints));
    }
    if (!consumes.isEmpty()) {
      b.withConsumesCounters(new ArrayList<>(consumes));
    }
    return new DeviceBuilder(b.build()).build();
  }

  @SuppressWarnings("unchecked")
  static DeviceAttribute attribute(Object v) {
    DeviceAttribute a = new DeviceAttribute();
    if (v instanceof String s) {
      a.setString(s);
    } else if (v instanceof Integer || v instanceof Long) {
      a.setInt(((Number) v).longValue());
    } else if (v instanceof Boolean b) {
      a.setBool(b);
    } else if (v instanceof List<?> l && !l.isEmpty() && l.get(0) instanceof String) {
      a.setStrings(new ArrayList<>((List<String>) l));
    } else if (v instanceof List<?> l) {
      a.setInts(l.stream().map(o -> ((Number) o).longValue()).toList());
    } else {
      throw new IllegalArgumentException("unsupported attribute value " + v);
    }
    return a;
  }
}
