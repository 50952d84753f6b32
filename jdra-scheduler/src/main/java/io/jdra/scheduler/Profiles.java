package io.jdra.scheduler;

import io.jdra.allocator.AllocatorFeatures;
import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import io.jdra.scheduler.framework.BindPlugin;
import io.jdra.scheduler.framework.Framework;
import io.jdra.scheduler.framework.Parallelizer;
import io.jdra.scheduler.framework.Plugin;
import io.jdra.scheduler.plugins.dynamicresources.ClaimWriter;
import io.jdra.scheduler.plugins.dynamicresources.DraManager;
import io.jdra.scheduler.plugins.dynamicresources.DynamicResources;
import io.jdra.scheduler.plugins.dynamicresources.DynamicResourcesArgs;
import io.jdra.scheduler.plugins.dynamicresources.PodEvents;
import io.jdra.scheduler.plugins.nodeaffinity.NodeAffinity;
import io.jdra.scheduler.plugins.nodename.NodeName;
import io.jdra.scheduler.plugins.nodeports.NodePorts;
import io.jdra.scheduler.plugins.noderesources.Fit;
import io.jdra.scheduler.plugins.nodeunschedulable.NodeUnschedulable;
import io.jdra.scheduler.plugins.queuesort.PrioritySort;
import io.jdra.scheduler.plugins.schedulinggates.SchedulingGates;
import io.jdra.scheduler.plugins.tainttoleration.TaintToleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The default profile: upstream's default plugins in upstream's order, minus volume, topology
 * spread, inter-pod affinity, preemption, balanced allocation and image locality (not part of
 * jdra). Score weights as upstream: TaintToleration 3, NodeAffinity 2, the others 1.
 */
public final class Profiles {
  private Profiles() {}

  /** The DRA pieces a profile needs; {@code events} receives DynamicResources' pod events. */
  public record Dra(
      DraManager manager, ClaimWriter writer, LongSupplier nanoClock, PodEvents events) {
    /** Without events (tools and tests). */
    public Dra(DraManager manager, ClaimWriter writer, LongSupplier nanoClock) {
      this(manager, writer, nanoClock, PodEvents.NONE);
    }
  }

  /** A DraManager for these gates. */
  public static DraManager draManager(FeatureGates gates) {
    return new DraManager(
        AllocatorFeatures.from(gates), gates.enabled(Feature.DRA_DEVICE_TAINT_RULES));
  }

  public static Framework defaultProfile(
      String name,
      FeatureGates gates,
      DynamicResourcesArgs args,
      Dra dra,
      BindPlugin binder,
      Parallelizer parallelizer,
      Function<String, String> draBackedClass) {
    List<Plugin> plugins = new ArrayList<>();
    plugins.add(new SchedulingGates());
    plugins.add(new PrioritySort());
    plugins.add(new NodeUnschedulable());
    plugins.add(new NodeName());
    plugins.add(new TaintToleration());
    plugins.add(new NodeAffinity());
    plugins.add(new NodePorts());
    plugins.add(new Fit(resource -> draBackedClass.apply(resource) != null));
    if (gates.enabled(Feature.DYNAMIC_RESOURCE_ALLOCATION)) {
      plugins.add(
          DynamicResources.builder(dra.manager(), args)
              .filterTimeoutEnabled(gates.enabled(Feature.DRA_SCHEDULER_FILTER_TIMEOUT))
              .nanoClock(dra.nanoClock())
              .writer(dra.writer())
              .extendedResourceClass(draBackedClass)
              .events(dra.events())
              .nodeAllocatable(gates.enabled(Feature.DRA_NODE_ALLOCATABLE_RESOURCES))
              .build());
    }
    plugins.add(binder);
    return new Framework(
        name, plugins, Map.of(TaintToleration.NAME, 3, NodeAffinity.NAME, 2), parallelizer);
  }
}
