package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.List;
import java.util.Map;

/**
 * One resource pool as seen from a node: the slices of its newest generation that target the node
 * (sorted by name), the others (for counters), its counter sets, and whether it is usable.
 */
final class PoolInfo {
  final String driver;
  final String name;
  final boolean incomplete;
  final String invalidReason;
  final List<ResourceSlice> slicesTargetingNode;
  final List<ResourceSlice> slicesNotTargetingNode;
  final Map<String, CounterSet> counterSets;

  PoolInfo(
      String driver,
      String name,
      boolean incomplete,
      String invalidReason,
      List<ResourceSlice> slicesTargetingNode,
      List<ResourceSlice> slicesNotTargetingNode,
      Map<String, CounterSet> counterSets) {
    this.driver = driver;
    this.name = name;
    this.incomplete = incomplete;
    this.invalidReason = invalidReason;
    this.slicesTargetingNode = slicesTargetingNode;
    this.slicesNotTargetingNode = slicesNotTargetingNode;
    this.counterSets = counterSets;
  }

  static PoolInfo incomplete(String driver, String name) {
    return new PoolInfo(driver, name, true, null, List.of(), List.of(), Map.of());
  }

  static PoolInfo invalid(String driver, String name, String reason) {
    return new PoolInfo(driver, name, false, reason, List.of(), List.of(), Map.of());
  }

  boolean invalid() {
    return invalidReason != null;
  }

  /** {@code driver/pool}, as upstream prints a pool ID. */
  public String id() {
    return driver + "/" + name;
  }

  @Override
  public String toString() {
    return id();
  }
}
