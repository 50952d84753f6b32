package io.jdra.allocator;

import java.util.List;
import java.util.Map;

/**
 * Why claims cannot be allocated on a node: per claim and request, how many devices were considered
 * and why groups of them were rejected. Built only when allocation fails. Immutable.
 *
 * @param node the node name
 * @param claims one report per claim, in input order
 * @param notes pool- and slice-level findings (incomplete, invalid or obsolete pools, ...)
 */
public record Explanation(String node, List<ClaimReport> claims, List<String> notes) {
  public Explanation {
    claims = List.copyOf(claims);
    notes = List.copyOf(notes);
  }

  /**
   * One claim.
   *
   * @param claim {@code namespace/name}
   * @param requests one report per request (and per subrequest of firstAvailable)
   * @param notes findings about the claim as a whole (constraints, conflicts between requests)
   */
  public record ClaimReport(String claim, List<RequestReport> requests, List<String> notes) {
    public ClaimReport {
      requests = List.copyOf(requests);
      notes = List.copyOf(notes);
    }
  }

  /**
   * One request or subrequest.
   *
   * @param request {@code request} or {@code request/subrequest}
   * @param wanted how many devices it needs ({@code all} for allocationMode All)
   * @param considered devices of the pools the node can reach
   * @param usable devices that pass every per-device check on their own
   * @param rejected why the others were rejected: reason -> number of devices, in check order
   * @param verdict one sentence: why this request fails, or that it fits alone
   */
  public record RequestReport(
      String request,
      String wanted,
      int considered,
      int usable,
      Map<String, Integer> rejected,
      String verdict) {
    public RequestReport {
      rejected = Map.copyOf(rejected);
    }
  }

  /** Short readable text, a few lines per claim. */
  public String render() {
    StringBuilder sb = new StringBuilder();
    sb.append("cannot allocate all claims on node ").append(node.isEmpty() ? "(none)" : node);
    sb.append('\n');
    for (String n : notes) {
      sb.append("  note: ").append(n).append('\n');
    }
    for (ClaimReport c : claims) {
      sb.append("  claim ").append(c.claim()).append(":\n");
      for (RequestReport r : c.requests()) {
        sb.append("    request ").append(r.request()).append(": ").append(r.verdict()).append('\n');
        sb.append("      wants ")
            .append(r.wanted())
            .append(", ")
            .append(r.considered())
            .append(" devices considered, ")
            .append(r.usable())
            .append(" usable");
        if (!r.rejected().isEmpty()) {
          sb.append("; rejected: ");
          boolean first = true;
          for (Map.Entry<String, Integer> e : RenderOrder.sorted(r.rejected())) {
            sb.append(first ? "" : ", ").append(e.getValue()).append(' ').append(e.getKey());
            first = false;
          }
        }
        sb.append('\n');
      }
      for (String n : c.notes()) {
        sb.append("    ").append(n).append('\n');
      }
    }
    return sb.toString();
  }

  /** Keeps rendering stable: most frequent reason first, then by name. */
  private static final class RenderOrder {
    static List<Map.Entry<String, Integer>> sorted(Map<String, Integer> m) {
      return m.entrySet().stream()
          .sorted(
              Map.Entry.<String, Integer>comparingByValue()
                  .reversed()
                  .thenComparing(Map.Entry.comparingByKey()))
          .toList();
    }
  }
}
