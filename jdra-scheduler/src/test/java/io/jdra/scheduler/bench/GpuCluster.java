package io.jdra.scheduler.bench;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.scheduler.cache.SchedulerCache;
import io.jdra.scheduler.cache.Snapshot;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.plugins.dynamicresources.DraManager;
import io.jdra.testing.objects.Make;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

/**
 * The cluster of scheduler_perf's claim-template workloads as the scheduler's benchmarks build it:
 * nodes {@code node-0...} with the allocatable of scheduler_perf's node template, each publishing
 * one pool of devices {@code gpu-0...} of one driver, some of them allocated to existing claims;
 * and the pod those benchmarks schedule, with one claim for one device.
 */
final class GpuCluster {
  static final String DRIVER = "gpu.example.com";

  private GpuCluster() {}

  /**
   * Adds the nodes to a new cache and their slices and allocated claims to {@code dra}.
   *
   * @param device makes device {@code d} of a node
   * @param allocated how many of node {@code i}'s first devices are allocated
   */
  static Snapshot build(
      DraManager dra,
      int nodes,
      int devices,
      IntFunction<Device> device,
      IntUnaryOperator allocated) {
    SchedulerCache cache = new SchedulerCache();
    for (int i = 0; i < nodes; i++) {
      String name = "node-" + i;
      cache.addNode(node(name));
      Device[] devs = new Device[devices];
      for (int d = 0; d < devices; d++) {
        devs[d] = device.apply(d);
      }
      dra.sliceChanged(
          Make.slice(name + "-gpu", name, DRIVER).pool(name, 1, 1).devices(devs).obj());
      for (int d = 0; d < allocated.applyAsInt(i); d++) {
        String used = "used-" + i + "-" + d;
        dra.claimChanged(
            Make.claim(used)
                .namespace("ns")
                .uid(used)
                .resourceVersion("1")
                .request(DRIVER)
                .allocatedOn(name, DRIVER, "gpu-" + d)
                .obj());
      }
    }
    return cache.snapshot();
  }

  private static Node node(String name) {
    return new NodeBuilder(Make.node(name).labels("kubernetes.io/hostname", name).obj())
        .withNewStatus()
        .withAllocatable(
            Map.of(
                "cpu", new Quantity("32"),
                "memory", new Quantity("128Gi"),
                "pods", new Quantity("110")))
        .endStatus()
        .build();
  }

  /** An unallocated claim for one device of the driver, at resourceVersion 1. */
  static ResourceClaim claim(String name) {
    return Make.claim(name).namespace("ns").uid(name).resourceVersion("1").request(DRIVER).obj();
  }

  /** The pod the benchmarks schedule: one container using claim {@code pod-claim}. */
  static PodInfo pod() {
    return new PodInfo(
        Make.pod("p")
            .namespace("ns")
            .uid("p")
            .claim("gpu", "pod-claim")
            .container("c", "gpu")
            .obj());
  }
}
