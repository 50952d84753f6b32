package io.jdra.cli.simulate;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.runtime.Ctx;
import io.jdra.scheduler.cache.SchedulerCache;
import io.jdra.scheduler.cache.Snapshot;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.Framework;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.PreFilterPlugin;
import io.jdra.scheduler.framework.Status;
import io.jdra.scheduler.plugins.dynamicresources.DraManager;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Asks the scheduler, read-only, on which nodes a pod would fit now: PreFilter and Filter (the
 * allocator included) for a probe pod whose claims are known to the DRA manager only for the
 * duration of the call. Nothing is reserved or written. Used to measure fragmentation.
 */
final class Probe {
  private final Framework framework;
  private final DraManager dra;
  private final SchedulerCache cache;
  private final Ctx ctx;

  Probe(Framework framework, DraManager dra, SchedulerCache cache, Ctx ctx) {
    this.framework = framework;
    this.dra = dra;
    this.cache = cache;
    this.ctx = ctx;
  }

  /** Of {@code candidates}, the nodes where the pod with these (unallocated) claims fits. */
  Set<String> fits(Pod pod, List<ResourceClaim> claims, Set<String> candidates) {
    Set<String> out = new TreeSet<>();
    claims.forEach(dra::claimChanged);
    try {
      Snapshot snap = cache.snapshot();
      CycleState state = new CycleState();
      PodInfo info = new PodInfo(pod);
      PreFilterPlugin.Result pre = framework.runPreFilterPlugins(ctx, state, info, snap.nodes());
      if (!Status.ok(pre.status())) {
        return out;
      }
      for (NodeInfo n : snap.nodes()) {
        if (!candidates.contains(n.name())) {
          continue;
        }
        if (pre.nodeNames() != null && !pre.nodeNames().contains(n.name())) {
          continue;
        }
        if (Status.ok(framework.runFilterPlugins(ctx, state, info, n))) {
          out.add(n.name());
        }
      }
      return out;
    } finally {
      claims.forEach(dra::claimDeleted);
    }
  }

  /** A pending copy of {@code pod} under another name and UID (claims named in its status). */
  static Pod probePod(Pod template, String name) {
    return new PodBuilder(template)
        .editMetadata()
        .withName(name)
        .withUid(Ids.uid("probe", name))
        .endMetadata()
        .build();
  }
}
