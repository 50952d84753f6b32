package io.jdra.scheduler.plugins.dynamicresources;

import io.jdra.allocator.AllocationOutcome;
import io.jdra.allocator.Explanation;
import java.util.Map;
import java.util.TreeMap;

/**
 * The short "why" for FailedScheduling (a jdra addition): from the explanation of the first
 * rejected node by name, the first request that has too few usable devices, e.g. {@code claim
 * default/pod0-gpu-x7k2p request gpu: wants 2, 1 usable (1 already allocated)}.
 */
final class Explanations {
  private Explanations() {}

  static String summary(Map<String, AllocationOutcome.Unschedulable> byNode) {
    Explanation e = new TreeMap<>(byNode).firstEntry().getValue().explanation();
    for (Explanation.ClaimReport c : e.claims()) {
      for (Explanation.RequestReport r : c.requests()) {
        if (r.verdict().startsWith("enough")) {
          continue;
        }
        return "claim " + c.claim() + " request " + r.request() + ": " + line(r);
      }
      if (!c.notes().isEmpty()) {
        return "claim " + c.claim() + ": " + c.notes().get(0);
      }
    }
    if (!e.notes().isEmpty()) {
      return e.notes().get(0);
    }
    return null;
  }

  static String line(Explanation.RequestReport r) {
    StringBuilder sb = new StringBuilder();
    sb.append("wants ").append(r.wanted()).append(", ").append(r.usable()).append(" usable");
    if (!r.rejected().isEmpty()) {
      sb.append(" (");
      boolean first = true;
      for (Map.Entry<String, Integer> x : new TreeMap<>(r.rejected()).entrySet()) {
        sb.append(first ? "" : ", ").append(x.getValue()).append(' ').append(x.getKey());
        first = false;
      }
      sb.append(')');
    }
    return sb.toString();
  }
}
