package io.jdra.api.names;

import java.util.Objects;

/**
 * Identifies one device across the cluster: its DRA driver, its resource pool and its name, printed
 * {@code driver/pool/device} as upstream's structured {@code DeviceID}.
 *
 * <p>Pool names may themselves contain {@code /} (upstream allows several DNS subdomains joined by
 * slashes), while driver names and device names cannot; {@link #parse} relies on that. Ordered by
 * driver, then pool, then device (plain string order), the order in which the allocator visits
 * pools. Immutable and thread-safe.
 *
 * @param driver the DRA driver name, e.g. {@code gpu.example.com}
 * @param pool the pool name, e.g. the node name
 * @param device the device name within the pool
 */
public record DeviceId(String driver, String pool, String device) implements Comparable<DeviceId> {

  /**
   * @throws IllegalArgumentException when a part is empty
   * @throws NullPointerException when a part is null
   */
  public DeviceId {
    requireNonEmpty(driver, "driver");
    requireNonEmpty(pool, "pool");
    requireNonEmpty(device, "device");
  }

  private static void requireNonEmpty(String value, String part) {
    Objects.requireNonNull(value, part);
    if (value.isEmpty()) {
      throw new IllegalArgumentException("device ID: the " + part + " name is empty");
    }
  }

  /**
   * Reads {@code driver/pool/device}: the driver is before the first {@code /}, the device after
   * the last one, the pool (which may contain {@code /}) in between.
   *
   * @throws IllegalArgumentException when there are fewer than three parts or one is empty
   */
  public static DeviceId parse(String id) {
    Objects.requireNonNull(id, "id");
    int first = id.indexOf('/');
    int last = id.lastIndexOf('/');
    if (first < 0 || first == last) {
      throw new IllegalArgumentException(
          "device ID " + QualifiedName.quote(id) + ": must have the form <driver>/<pool>/<device>");
    }
    String driver = id.substring(0, first);
    String pool = id.substring(first + 1, last);
    String device = id.substring(last + 1);
    if (driver.isEmpty() || pool.isEmpty() || device.isEmpty()) {
      throw new IllegalArgumentException(
          "device ID "
              + QualifiedName.quote(id)
              + ": driver, pool and device names must not be empty");
    }
    return new DeviceId(driver, pool, device);
  }

  /** {@code driver/pool/device}. */
  @Override
  public String toString() {
    return driver + "/" + pool + "/" + device;
  }

  @Override
  public int compareTo(DeviceId o) {
    int c = driver.compareTo(o.driver);
    if (c == 0) {
      c = pool.compareTo(o.pool);
    }
    return c != 0 ? c : device.compareTo(o.device);
  }
}
