package io.jdra.cli.simulate;

import io.jdra.allocator.Explanation;
import io.jdra.scheduler.framework.Diagnosis;
import io.jdra.scheduler.framework.Status;
import io.jdra.scheduler.plugins.dynamicresources.DynamicResources;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * Why one attempt found no node, as groupable reasons: per rejected node the plugin and its
 * message; for DynamicResources the allocator's explanation of that node, reduced to the first
 * request that fails, with the claim named as in the pod and without the counts that differ from
 * node to node ({@code DynamicResources: claim gpu request gpu: needs 4 devices, too few usable
 * (rejected: already allocated)}).
 */
final class Reasons {
  /** The allocator's reason for a device another node has. */
  static final String OTHER_NODE = "node does not match";

  /** The allocator's reasons for devices that are not what the request asks for. */
  static final Set<String> MISMATCH =
      Set.of(OTHER_NODE, "class selector false", "request selector false");

  private Reasons() {}

  /** Reason to the number of nodes it rejected. */
  static Map<String, Integer> of(
      Diagnosis d, Map<String, Explanation> explanations, UnaryOperator<String> podClaimName) {
    Map<String, Integer> out = new TreeMap<>();
    if (d.preFilterMsg() != null && !d.preFilterMsg().isEmpty()) {
      out.put("PreFilter: " + d.preFilterMsg(), d.nodeToStatus().size());
      return out;
    }
    for (Map.Entry<String, Status> e : d.nodeToStatus().entrySet()) {
      Status s = e.getValue();
      String reason;
      Explanation x = explanations.get(e.getKey());
      if (DynamicResources.NAME.equals(s.plugin()) && x != null) {
        reason = DynamicResources.NAME + ": " + dra(x, podClaimName);
      } else {
        reason = (s.plugin() == null ? "" : s.plugin() + ": ") + s.message();
      }
      out.merge(reason, 1, Integer::sum);
    }
    return out;
  }

  static String dra(Explanation e, UnaryOperator<String> podClaimName) {
    for (Explanation.ClaimReport c : e.claims()) {
      String claim = podClaimName.apply(c.claim());
      for (Explanation.RequestReport r : c.requests()) {
        if (r.verdict().startsWith("enough")) {
          continue;
        }
        StringBuilder sb = new StringBuilder();
        sb.append("claim ").append(claim).append(" request ").append(r.request()).append(": ");
        sb.append(r.verdict().replaceAll(", only \\d+ usable$", ", too few usable"));
        Set<String> rejected = new TreeSet<>(r.rejected().keySet());
        // Devices of other nodes are "rejected" on every node of a multi-node cluster, and devices
        // the request does not select are rejected whenever the node has other kinds: noise when
        // a busy reason (allocated, counters, taints) is there, the answer when nothing else is.
        if (rejected.size() > 1) {
          rejected.remove(OTHER_NODE);
        }
        if (!MISMATCH.containsAll(rejected)) {
          rejected.removeAll(MISMATCH);
        }
        if (!rejected.isEmpty()) {
          sb.append(" (rejected: ").append(String.join(", ", rejected)).append(')');
        }
        return sb.toString();
      }
      if (!c.notes().isEmpty()) {
        return "claim " + claim + ": " + c.notes().get(0).replaceAll("\\d+", "N");
      }
    }
    if (!e.notes().isEmpty()) {
      return e.notes().get(0).replaceAll("\\d+", "N");
    }
    return "cannot allocate all claims";
  }
}
