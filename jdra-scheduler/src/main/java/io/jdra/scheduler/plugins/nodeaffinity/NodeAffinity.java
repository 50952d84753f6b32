package io.jdra.scheduler.plugins.nodeaffinity;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.jdra.api.nodeaffinity.NodeSelectors;
import io.jdra.runtime.Ctx;
import io.jdra.scheduler.framework.ClusterEvent;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.EnqueueExtensions;
import io.jdra.scheduler.framework.FilterPlugin;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.QueueingHint;
import io.jdra.scheduler.framework.ScorePlugin;
import io.jdra.scheduler.framework.Status;
import java.util.List;
import java.util.Map;

/**
 * {@code spec.nodeSelector} and node affinity (upstream NodeAffinity): required terms filter,
 * preferred terms score by the sum of matching weights, normalised to 0..100.
 */
public final class NodeAffinity implements FilterPlugin, ScorePlugin, EnqueueExtensions {
  public static final String NAME = "NodeAffinity";
  public static final String ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status filter(Ctx ctx, CycleState state, PodInfo pod, NodeInfo node) {
    Pod p = pod.pod();
    // Decoded pods carry an empty nodeSelector map rather than none: both select every node.
    Map<String, String> selector = p.getSpec().getNodeSelector();
    if ((selector == null || selector.isEmpty()) && p.getSpec().getAffinity() == null) {
      return null;
    }
    return NodeSelectors.requiredNodeAffinityMatches(p, node.node())
        ? null
        : Status.unresolvable(ERR_REASON_POD);
  }

  @Override
  public long score(Ctx ctx, CycleState state, PodInfo pod, NodeInfo node) {
    List<PreferredSchedulingTerm> terms = preferred(pod.pod());
    return terms == null ? 0 : NodeSelectors.preferredScore(terms, node.node());
  }

  @Override
  public Status preScore(Ctx ctx, CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    return preferred(pod.pod()) == null ? Status.skip() : Status.success();
  }

  @Override
  public void normalizeScore(CycleState state, PodInfo pod, long[] scores) {
    ScorePlugin.defaultNormalize(scores, false);
  }

  private static List<PreferredSchedulingTerm> preferred(Pod p) {
    var a = p.getSpec().getAffinity();
    if (a == null || a.getNodeAffinity() == null) {
      return null;
    }
    List<PreferredSchedulingTerm> t =
        a.getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution();
    return t == null || t.isEmpty() ? null : t;
  }

  @Override
  public List<QueueingHint.EventWithHint> eventsToRegister() {
    return List.of(
        new QueueingHint.EventWithHint(
            ClusterEvent.of(
                ClusterEvent.EventResource.NODE,
                ClusterEvent.ADD | ClusterEvent.UPDATE_NODE_LABEL,
                "NodeLabelChange"),
            (pod, o, n) ->
                NodeSelectors.requiredNodeAffinityMatches(
                        pod, (io.fabric8.kubernetes.api.model.Node) n)
                    ? QueueingHint.QUEUE
                    : QueueingHint.SKIP));
  }
}
