package io.jdra.scheduler;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.allocator.Explanation;
import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import io.jdra.api.versions.DeviceTaintRuleVersions;
import io.jdra.runtime.Ctx;
import io.jdra.scheduler.cache.SchedulerCache;
import io.jdra.scheduler.cache.Snapshot;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.Framework;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.Parallelizer;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.PreFilterPlugin;
import io.jdra.scheduler.framework.Status;
import io.jdra.scheduler.plugins.dynamicresources.DraManager;
import io.jdra.scheduler.plugins.dynamicresources.DynamicResources;
import io.jdra.scheduler.plugins.dynamicresources.DynamicResourcesArgs;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code jdra explain pod}: runs the scheduler's PreFilter and Filter (the same plugins and the
 * same allocator) for one pod on the cluster's current state, read-only, and says per node why the
 * pod fits or not; for DRA, per claim and request. Nothing is written: no Reserve, no PreBind.
 */
public final class PodExplainer {
  private PodExplainer() {}

  /** The report, or an IllegalArgumentException when the pod does not exist. */
  public static String explain(
      Ctx ctx, KubernetesClient client, String ns, String name, FeatureGates gates) {
    Pod pod = client.pods().inNamespace(ns).withName(name).get();
    if (pod == null) {
      throw new IllegalArgumentException("pod " + ns + "/" + name + " not found");
    }
    DraManager dra = Profiles.draManager(gates);
    client
        .resources(ResourceClaim.class)
        .inAnyNamespace()
        .list()
        .getItems()
        .forEach(dra::claimChanged);
    client.resources(ResourceSlice.class).list().getItems().forEach(dra::sliceChanged);
    client.resources(DeviceClass.class).list().getItems().forEach(dra::classChanged);
    if (gates.enabled(Feature.DRA_DEVICE_TAINT_RULES)) {
      client
          .resources(io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRule.class)
          .list()
          .getItems()
          .forEach(r -> dra.taintRuleChanged(DeviceTaintRuleVersions.toV1(r)));
    }
    SchedulerCache cache = new SchedulerCache();
    for (Node n : client.nodes().list().getItems()) {
      cache.addNode(n);
    }
    for (Pod p : client.pods().inAnyNamespace().list().getItems()) {
      if (Scheduler.isBound(p)
          && !SchedulerCache.isTerminal(p)
          && !p.getMetadata().getUid().equals(pod.getMetadata().getUid())) {
        cache.addPod(p);
      }
    }
    ExtendedResources ext =
        new ExtendedResources(dra, gates.enabled(Feature.DRA_EXTENDED_RESOURCE));
    ext.classChanged();
    try (Parallelizer par = new Parallelizer(1)) {
      Framework fw =
          Profiles.defaultProfile(
              SchedulerOptions.DEFAULT_SCHEDULER_NAME,
              gates,
              DynamicResourcesArgs.defaults(),
              new Profiles.Dra(dra, null, System::nanoTime),
              new io.jdra.scheduler.plugins.defaultbinder.DefaultBinder(client),
              par,
              ext::classFor);
      return report(ctx, fw, new PodInfo(pod), cache.snapshot());
    }
  }

  static String report(Ctx ctx, Framework fw, PodInfo pod, Snapshot snap) {
    StringBuilder out = new StringBuilder();
    out.append("Pod ").append(pod.key());
    if (Scheduler.isBound(pod.pod())) {
      out.append(" is bound to node ")
          .append(pod.pod().getSpec().getNodeName())
          .append("; explaining as if it were pending");
    }
    out.append('\n');
    Status gate = fw.runPreEnqueuePlugins(pod.pod());
    if (!Status.ok(gate)) {
      out.append("Waits before scheduling (")
          .append(gate.plugin())
          .append("): ")
          .append(gate.message())
          .append('\n');
      return out.toString();
    }
    CycleState state = new CycleState();
    List<NodeInfo> nodes = snap.nodes();
    PreFilterPlugin.Result pre = fw.runPreFilterPlugins(ctx, state, pod, nodes);
    if (!Status.ok(pre.status())) {
      out.append("Does not fit any node (")
          .append(pre.status().plugin())
          .append("): ")
          .append(pre.status().message())
          .append('\n');
      return out.toString();
    }
    DynamicResources dr = null;
    for (var p : fw.plugins()) {
      if (p instanceof DynamicResources d) {
        dr = d;
      }
    }
    Map<String, Status> rejected = new LinkedHashMap<>();
    int fits = 0;
    for (NodeInfo n : nodes) {
      Status s = fw.runFilterPlugins(ctx, state, pod, n);
      if (Status.ok(s)) {
        fits++;
        out.append("node ").append(n.name()).append(": fits");
        appendAllocation(out, dr, state, n.name());
        out.append('\n');
      } else {
        rejected.put(n.name(), s);
        out.append("node ")
            .append(n.name())
            .append(": does not fit (")
            .append(s.plugin())
            .append("): ")
            .append(s.message())
            .append('\n');
        Explanation e = dr == null ? null : dr.explanations(state).get(n.name());
        if (e != null) {
          for (String line : e.render().split("\n")) {
            out.append("    ").append(line).append('\n');
          }
        }
      }
    }
    if (fits == 0) {
      io.jdra.scheduler.framework.Diagnosis d = new io.jdra.scheduler.framework.Diagnosis(rejected);
      out.append(d.fitErrorMessage(nodes.size())).append('\n');
    } else {
      out.append(fits).append('/').append(nodes.size()).append(" nodes fit\n");
    }
    return out.toString();
  }

  private static void appendAllocation(
      StringBuilder out, DynamicResources dr, CycleState state, String node) {
    if (dr == null) {
      return;
    }
    List<AllocationResult> results = dr.allocations(state).get(node);
    List<ResourceClaim> claims = dr.claimsToAllocate(state);
    if (results == null) {
      return;
    }
    out.append("; would allocate");
    for (int i = 0; i < results.size(); i++) {
      ResourceClaim c = claims.get(i);
      out.append(i == 0 ? " " : "; ")
          .append("claim ")
          .append(c.getMetadata().getNamespace())
          .append('/')
          .append(c.getMetadata().getName())
          .append(':');
      for (DeviceRequestAllocationResult r : results.get(i).getDevices().getResults()) {
        out.append(' ')
            .append(r.getRequest())
            .append('=')
            .append(r.getDriver())
            .append('/')
            .append(r.getPool())
            .append('/')
            .append(r.getDevice());
      }
    }
  }
}
