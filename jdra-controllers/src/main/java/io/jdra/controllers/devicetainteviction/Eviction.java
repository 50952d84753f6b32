package io.jdra.controllers.devicetainteviction;

import java.time.Instant;
import java.util.List;
import java.util.TreeSet;

/**
 * When pods using a claim (or a pod) must be evicted, and every taint that causes it, sorted.
 * Immutable; compares by value.
 */
record Eviction(Instant when, List<TrackedTaint> reasons) {
  Eviction {
    reasons = List.copyOf(new TreeSet<>(reasons));
  }

  /** The earlier time of both, with the union of their reasons. */
  Eviction merge(Eviction other) {
    if (other == null) {
      return this;
    }
    TreeSet<TrackedTaint> all = new TreeSet<>(reasons);
    all.addAll(other.reasons);
    Instant earliest = when.isBefore(other.when) ? when : other.when;
    return new Eviction(earliest, List.copyOf(all));
  }

  /** Whether a DeviceTaintRule with this UID is among the reasons. */
  boolean causedByRule(String ruleUid) {
    return reasons.stream().anyMatch(r -> r.isRule() && r.ruleUid().equals(ruleUid));
  }

  @Override
  public String toString() {
    return when + " (" + String.join(", ", reasons.stream().map(Object::toString).toList()) + ")";
  }
}
