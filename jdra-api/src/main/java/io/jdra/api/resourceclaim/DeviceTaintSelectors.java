package io.jdra.api.resourceclaim;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.jdra.api.names.DeviceId;

/**
 * Which devices a DeviceTaintRule's {@code spec.deviceSelector} selects, as the device taint
 * eviction controller decides it: every set field ({@code driver}, {@code pool}, {@code device})
 * must equal the device's; an empty selector selects every device; no selector at all selects none.
 * Works on the plain field values so that callers can use any API version of DeviceTaintRule.
 * Stateless and thread-safe.
 */
public final class DeviceTaintSelectors {
  private DeviceTaintSelectors() {}

  /**
   * The fields of a {@code deviceSelector}; null fields match anything.
   *
   * @param driver required driver name, or null
   * @param pool required pool name, or null
   * @param device required device name, or null
   */
  public record Selector(String driver, String pool, String device) {
    /** The selector of a v1beta2 DeviceTaintRule; null when the rule has none. */
    public static Selector of(
        io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintSelector s) {
      return s == null ? null : new Selector(s.getDriver(), s.getPool(), s.getDevice());
    }

    /** The selector of a v1 DeviceTaintRule; null when the rule has none. */
    public static Selector of(io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintSelector s) {
      return s == null ? null : new Selector(s.getDriver(), s.getPool(), s.getDevice());
    }
  }

  /** Whether the selector (null: none) selects the device. */
  public static boolean matches(Selector selector, DeviceId device) {
    return matches(selector, device.driver(), device.pool(), device.device());
  }

  /** Whether the selector (null: none) selects the device {@code driver/pool/device}. */
  public static boolean matches(Selector selector, String driver, String pool, String device) {
    if (selector == null) {
      return false;
    }
    return (selector.driver() == null || selector.driver().equals(driver))
        && (selector.pool() == null || selector.pool().equals(pool))
        && (selector.device() == null || selector.device().equals(device));
  }

  /**
   * The taint of a v1beta2 DeviceTaintRule in the v1 shape that {@link DeviceTolerations} works on
   * (the fields are the same in every version).
   */
  public static DeviceTaint taint(
      io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaint taint) {
    return new DeviceTaint(
        taint.getEffect(), taint.getKey(), taint.getTimeAdded(), taint.getValue());
  }
}
