package io.jdra.controllers.controllerutil;

import static io.jdra.controllers.controllerutil.PodUtil.deletionCost;
import static io.jdra.controllers.controllerutil.PodUtil.isPodReady;
import static io.jdra.controllers.controllerutil.PodUtil.maxContainerRestarts;
import static io.jdra.controllers.controllerutil.PodUtil.phase;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which a scale-down deletes pods (upstream's {@code ActivePodsWithRanks}, with {@code
 * LogarithmicScaleDown} and {@code PodDeletionCost} on as in 1.36): the first pods of the sorted
 * list go first. Earlier criteria win:
 *
 * <ol>
 *   <li>not assigned to a node before assigned;
 *   <li>Pending before Unknown before Running;
 *   <li>not ready before ready;
 *   <li>lower {@code controller.kubernetes.io/pod-deletion-cost} first;
 *   <li>more related pods on the same node ("doubled up") first;
 *   <li>ready for a shorter time first, compared in log2 buckets of the time since;
 *   <li>more container restarts first;
 *   <li>created more recently first, in the same log2 buckets;
 *   <li>by UID, so the choice among equals is random but stable.
 * </ol>
 */
public final class ActivePodsWithRanks {
  private ActivePodsWithRanks() {}

  /**
   * The pods sorted for deletion; the rank of a pod is the number of {@code related} pods on its
   * node (upstream's {@code getPodsRankedByRelatedPodsOnSameNode}).
   */
  public static List<Pod> sortForDeletion(List<Pod> pods, List<Pod> related, Instant now) {
    Map<String, Integer> perNode = new HashMap<>();
    for (Pod p : related) {
      if (PodUtil.isPodActive(p) && p.getSpec().getNodeName() != null) {
        perNode.merge(p.getSpec().getNodeName(), 1, Integer::sum);
      }
    }
    record Ranked(Pod pod, int rank) {}
    List<Ranked> ranked = new ArrayList<>();
    for (Pod p : pods) {
      String node = p.getSpec().getNodeName();
      ranked.add(new Ranked(p, node == null ? 0 : perNode.getOrDefault(node, 0)));
    }
    Comparator<Ranked> order = (a, b) -> compare(a.pod(), a.rank(), b.pod(), b.rank(), now, true);
    ranked.sort(order);
    return ranked.stream().map(Ranked::pod).toList();
  }

  /**
   * Upstream's {@code ActivePods} order (the Job controller's): as {@link #sortForDeletion} without
   * deletion cost, ranks and log2 buckets (ready time and age compared exactly, newer first).
   */
  public static List<Pod> sortActivePods(List<Pod> pods) {
    List<Pod> sorted = new ArrayList<>(pods);
    sorted.sort((a, b) -> compare(a, 0, b, 0, null, false));
    return sorted;
  }

  private static int ordinal(Pod p) {
    return switch (phase(p)) {
      case "Pending" -> 0;
      case "Unknown" -> 1;
      case "Running" -> 2;
      default -> 0; // upstream's map yields 0 for other phases
    };
  }

  static int compare(Pod a, int rankA, Pod b, int rankB, Instant now, boolean withCost) {
    boolean assignedA = !empty(a.getSpec().getNodeName());
    boolean assignedB = !empty(b.getSpec().getNodeName());
    if (assignedA != assignedB) {
      return assignedA ? 1 : -1;
    }
    if (ordinal(a) != ordinal(b)) {
      return Integer.compare(ordinal(a), ordinal(b));
    }
    if (isPodReady(a) != isPodReady(b)) {
      return isPodReady(a) ? 1 : -1;
    }
    if (withCost && deletionCost(a) != deletionCost(b)) {
      return Integer.compare(deletionCost(a), deletionCost(b));
    }
    if (rankA != rankB) {
      return Integer.compare(rankB, rankA);
    }
    if (isPodReady(a) && isPodReady(b)) {
      int c = compareTimes(PodUtil.podReadyTime(a), PodUtil.podReadyTime(b), a, b, now);
      if (c != 0) {
        return c;
      }
    }
    int restartsA = maxContainerRestarts(a);
    int restartsB = maxContainerRestarts(b);
    if (restartsA != restartsB) {
      return Integer.compare(restartsB, restartsA);
    }
    int created =
        compareTimes(
            PodUtil.time(a.getMetadata().getCreationTimestamp()),
            PodUtil.time(b.getMetadata().getCreationTimestamp()),
            a,
            b,
            now);
    if (created != 0 || now == null) {
      return created;
    }
    return String.valueOf(a.getMetadata().getUid())
        .compareTo(String.valueOf(b.getMetadata().getUid()));
  }

  /**
   * Newer (or unknown) first. With {@code now}, in log2 buckets of the age: pods in one bucket tie
   * here and are ordered by the later criteria, then by UID. (Upstream decides a tie within a
   * bucket by UID at once; Go's sort tolerates that order not being transitive, Java's does not, so
   * the UID comes last here, which keeps the order total.)
   */
  private static int compareTimes(Instant ta, Instant tb, Pod a, Pod b, Instant now) {
    if (ta == null && tb == null || ta != null && ta.equals(tb)) {
      return 0;
    }
    if (ta == null || tb == null) {
      return ta == null ? -1 : 1;
    }
    if (now == null) {
      return tb.compareTo(ta); // newer first, exactly
    }
    return Long.compare(logRank(Duration.between(ta, now)), logRank(Duration.between(tb, now)));
  }

  private static long logRank(Duration d) {
    long nanos = d.toNanos();
    return nanos > 0 ? (long) (Math.log(nanos) / Math.log(2)) : -1;
  }

  private static boolean empty(String s) {
    return s == null || s.isEmpty();
  }
}
