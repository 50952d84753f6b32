package io.jdra.cel;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a selector sees of one device: {@code device.driver}, {@code device.attributes}, {@code
 * device.capacity} and {@code device.allowMultipleAllocations}.
 *
 * <p>Building one is cheap: it keeps references to the device's attribute and capacity maps and
 * converts a value only when an expression looks it up. Attribute and capacity names without a
 * domain belong to the driver's domain. Build one per device and evaluate all selectors against it.
 * Immutable and thread-safe as long as the given maps are not modified afterwards (objects from
 * informer caches never are).
 */
public final class DeviceInput {
  private final String driver;
  private final boolean allowMultipleAllocations;
  private final DeviceValue value;
  private final DomainsView attributes;
  // The attribute check's outcome per DRAListTypeAttributes setting: unset, OK or the error.
  // Racing threads compute the same value, so plain volatile fields suffice.
  private volatile String checkedWithLists;
  private volatile String checkedWithoutLists;
  private static final String OK = new String("ok");

  private DeviceInput(
      String driver,
      Map<String, ?> attributes,
      Map<String, ?> capacity,
      boolean allowMultipleAllocations) {
    this.driver = Objects.requireNonNull(driver, "driver");
    this.allowMultipleAllocations = allowMultipleAllocations;
    this.attributes = new DomainsView(driver, attributes, DomainsView.Kind.ATTRIBUTES);
    this.value =
        new DeviceValue(
            driver,
            this.attributes,
            new DomainsView(driver, capacity, DomainsView.Kind.CAPACITY),
            allowMultipleAllocations);
  }

  /**
   * The input for a device published by {@code driver} (the ResourceSlice's {@code spec.driver}).
   */
  public static DeviceInput of(String driver, Device device) {
    Map<String, ?> attributes = device.getAttributes() == null ? Map.of() : device.getAttributes();
    Map<String, ?> capacity = device.getCapacity() == null ? Map.of() : device.getCapacity();
    return new DeviceInput(
        driver, attributes, capacity, Boolean.TRUE.equals(device.getAllowMultipleAllocations()));
  }

  /** A builder for tests and tools, with plain Java values instead of fabric8 objects. */
  public static Builder builder(String driver) {
    return new Builder(driver);
  }

  public String driver() {
    return driver;
  }

  public boolean allowMultipleAllocations() {
    return allowMultipleAllocations;
  }

  DeviceValue celValue() {
    return value;
  }

  /**
   * Why no selector can be evaluated on this device, as upstream converts every attribute before
   * each evaluation: an attribute without a value, a list value while {@code listTypeAttributes} is
   * off, a version that does not parse. Null when every attribute converts. Computed once.
   */
  String attributeError(boolean listTypeAttributes) {
    String checked = listTypeAttributes ? checkedWithLists : checkedWithoutLists;
    if (checked == null) {
      String error = attributes.firstAttributeError(listTypeAttributes);
      checked = error == null ? OK : error;
      if (listTypeAttributes) {
        checkedWithLists = checked;
      } else {
        checkedWithoutLists = checked;
      }
    }
    return checked == OK ? null : checked;
  }

  /**
   * Builds a {@link DeviceInput} from plain values: attributes are {@code Long}, {@code Integer},
   * {@code Boolean}, {@code String}, a version string via {@link #version}, or lists of those;
   * capacities are quantity strings or {@code io.jdra.api.quantity.Quantity}.
   */
  public static final class Builder {
    private final String driver;
    private final Map<String, Object> attributes = new LinkedHashMap<>();
    private final Map<String, Object> capacity = new LinkedHashMap<>();
    private boolean allowMultipleAllocations;

    private Builder(String driver) {
      this.driver = Objects.requireNonNull(driver, "driver");
    }

    public Builder attribute(String name, Object value) {
      attributes.put(name, Objects.requireNonNull(value, "value"));
      return this;
    }

    /** A version attribute (semantic version string, parsed when looked up). */
    public Builder version(String name, String version) {
      attributes.put(name, new DomainsView.VersionString(version));
      return this;
    }

    public Builder capacity(String name, Object quantity) {
      capacity.put(name, Objects.requireNonNull(quantity, "quantity"));
      return this;
    }

    public Builder allowMultipleAllocations(boolean allow) {
      this.allowMultipleAllocations = allow;
      return this;
    }

    public DeviceInput build() {
      return new DeviceInput(
          driver, Map.copyOf(attributes), Map.copyOf(capacity), allowMultipleAllocations);
    }
  }
}
