package io.jdra.allocator.bench;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.allocator.AllocatedState;
import io.jdra.allocator.Allocator;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.allocator.Deadline;
import io.jdra.allocator.DeviceClassLister;
import io.jdra.allocator.NodeCache;
import io.jdra.allocator.SliceIndex;
import io.jdra.testing.objects.Make;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * Thread CPU per node of what Filter asks the allocator in scheduler_perf's empty_500nodes: one
 * allocator per pod (one claim of one device) over 230 of 500 nodes with a slice of 8 devices each,
 * the node's view found by name, through a {@link NodeCache} without its kept outcome, or through a
 * {@link NodeCache} that hands the node's last outcome out again (nothing changes between pods
 * here, so every node after the first pod is served that way). Between pods a 64 MiB walk evicts
 * the caches, as the API server's and informers' work does between two pods of the benchmark (JMH
 * keeps every node's objects hot). Modes alternate pod by pod. Run: {@code java -cp <test
 * classpath> io.jdra.allocator.bench.NodeCacheProbe}.
 */
public final class NodeCacheProbe {
  private NodeCacheProbe() {}

  static final String DRIVER = "gpu.example.com";

  public static void main(String[] args) throws Exception {
    int nodes = 500;
    int perPod = 230;
    List<ResourceSlice> slices = new ArrayList<>();
    List<Node> nodeList = new ArrayList<>();
    List<NodeCache> caches = new ArrayList<>();
    for (int n = 0; n < nodes; n++) {
      String name = "node-" + n;
      Device[] devs = new Device[8];
      for (int d = 0; d < devs.length; d++) {
        devs[d] = Make.device("gpu-" + d).obj();
      }
      slices.add(Make.slice(name + "-gpu", name, DRIVER).pool(name, 1, 1).devices(devs).obj());
      nodeList.add(Make.node(name).labels("kubernetes.io/hostname", name).obj());
      caches.add(new NodeCache());
    }
    SliceIndex index = SliceIndex.of(AllocatorFeatures.defaults(), slices);
    DeviceClassLister classes =
        DeviceClassLister.of(List.of(Make.deviceClass(DRIVER).driver(DRIVER).obj()));
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long[] evict = new long[8 << 20];
    long[] cpu = new long[3];
    long[] pods = new long[3];
    long sink = 0;
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 6000;
    Deadline none = Deadline.none();
    for (int pod = 0; pod < rounds; pod++) {
      int mode = pod % 3;
      for (int i = 0; i < evict.length; i += 8) {
        sink += evict[i]++;
      }
      List<ResourceClaim> claims =
          List.of(Make.claim("c-" + pod).namespace("ns").uid("u-" + pod).request(DRIVER).obj());
      Allocator a = Allocator.create(AllocatedState.empty(), classes, index);
      int first = (pod * 37) % nodes;
      long t0 = mx.getCurrentThreadCpuTime();
      for (int k = 0; k < perPod; k++) {
        int n = (first + k) % nodes;
        Object o =
            switch (mode) {
              case 0 -> a.allocate(nodeList.get(n), claims, Deadline.none());
              case 1 -> a.allocate(nodeList.get(n), viewOnly(caches.get(n)), claims, none);
              default -> a.allocate(nodeList.get(n), caches.get(n), claims, none);
            };
        sink += o.hashCode() & 1;
      }
      long t = mx.getCurrentThreadCpuTime() - t0;
      if (pod >= rounds / 4) { // the first quarter warms up
        cpu[mode] += t;
        pods[mode]++;
      }
    }
    System.out.printf(
        "thread CPU per node: by name %.3f us, NodeCache's view only %.3f us, NodeCache with the"
            + " kept outcome %.3f us (%d pods each; %d)%n",
        cpu[0] / 1000.0 / pods[0] / perPod,
        cpu[1] / 1000.0 / pods[1] / perPod,
        cpu[2] / 1000.0 / pods[2] / perPod,
        pods[0],
        sink & 1);
  }

  /**
   * A cache with the node's view and no kept outcome: the allocation searches as before the outcome
   * was kept (one small object more per node than that).
   */
  private static NodeCache viewOnly(NodeCache kept) {
    NodeCache c = new NodeCache();
    c.view(kept.view());
    return c;
  }
}
