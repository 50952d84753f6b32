package io.jdra.controllers.devicetainteviction;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import java.util.Comparator;

/**
 * A NoExecute taint together with where it comes from: a DeviceTaintRule (name, UID) or the taint
 * at {@code taintIndex} of a device in a ResourceSlice. Ordered rules first (by name), then slice
 * taints by driver, pool, device and index, so that the reasons of an eviction compare and print
 * deterministically. Immutable.
 */
record TrackedTaint(
    String ruleName,
    String ruleUid,
    String sliceName,
    String driver,
    String pool,
    String device,
    int taintIndex,
    DeviceTaint taint)
    implements Comparable<TrackedTaint> {

  private static final Comparator<TrackedTaint> ORDER =
      Comparator.comparing((TrackedTaint t) -> t.ruleName == null)
          .thenComparing(t -> t.ruleName == null ? "" : t.ruleName)
          .thenComparing(t -> t.driver == null ? "" : t.driver)
          .thenComparing(t -> t.pool == null ? "" : t.pool)
          .thenComparing(t -> t.device == null ? "" : t.device)
          .thenComparingInt(TrackedTaint::taintIndex);

  static TrackedTaint fromRule(String ruleName, String ruleUid, DeviceTaint taint) {
    return new TrackedTaint(ruleName, ruleUid, null, null, null, null, 0, taint);
  }

  static TrackedTaint fromSlice(
      String sliceName, String driver, String pool, String device, int index, DeviceTaint taint) {
    return new TrackedTaint(null, null, sliceName, driver, pool, device, index, taint);
  }

  boolean isRule() {
    return ruleName != null;
  }

  @Override
  public int compareTo(TrackedTaint o) {
    return ORDER.compare(this, o);
  }

  @Override
  public String toString() {
    if (isRule()) {
      return "DeviceTaintRule " + ruleName;
    }
    return "ResourceSlice "
        + sliceName
        + " "
        + driver
        + "/"
        + pool
        + "/"
        + device
        + " taint #"
        + taintIndex;
  }
}
