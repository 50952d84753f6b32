package io.jdra.cli.bench;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** The objects scheduler_perf makes without a template: plain nodes, driver slices, a base pod. */
final class Nodes {
  private Nodes() {}

  /** A node as scheduler_perf's default node: 110 pods, 4 CPUs, 32Gi, Ready. */
  static Node plain(String name) {
    Map<String, Quantity> cap =
        Map.of(
            "pods", new Quantity("110"), "cpu", new Quantity("4"), "memory", new Quantity("32Gi"));
    return new NodeBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewStatus()
        .withCapacity(cap)
        .withAllocatable(cap)
        .addNewCondition()
        .withType("Ready")
        .withStatus("True")
        .endCondition()
        .endStatus()
        .build();
  }

  // A real API server copies capacity into an empty allocatable (Node status defaulting); the
  // embedded one stores what it is given, so the benchmark does it for the template's nodes.
  static void defaultAllocatable(Node n) {
    if (n.getStatus() != null
        && n.getStatus().getCapacity() != null
        && (n.getStatus().getAllocatable() == null || n.getStatus().getAllocatable().isEmpty())) {
      n.getStatus().setAllocatable(new HashMap<>(n.getStatus().getCapacity()));
    }
  }

  /** A pod without claims, for createPods without a template. */
  static Pod basePod() {
    return new PodBuilder()
        .withNewMetadata()
        .withGenerateName("pod-")
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("pause")
        .withImage("registry.k8s.io/pause:3.10.1")
        .endContainer()
        .endSpec()
        .build();
  }

  /** One slice per node, shaped as scheduler_perf's createResourceDriver publishes it. */
  static ResourceSlice driverSlice(String driver, String nodeName, int capacity) {
    List<Device> devices = new ArrayList<>();
    for (int i = 0; i < capacity; i++) {
      Map<String, DeviceAttribute> attrs = new HashMap<>();
      attrs.put("model", attr(a -> a.setString("A100")));
      attrs.put("family", attr(a -> a.setString("GPU")));
      attrs.put("driverVersion", attr(a -> a.setVersion("1.2.3")));
      final long numa = i;
      attrs.put("dra.example.com/numa", attr(a -> a.setInt(numa)));
      Device d = new Device();
      d.setName("instance-" + i);
      d.setAttributes(attrs);
      d.setCapacity(Map.of("memory", new DeviceCapacity(null, new Quantity("1Gi"))));
      devices.add(d);
    }
    return new ResourceSliceBuilder()
        .withNewMetadata()
        .withName(nodeName + "-" + driver)
        .endMetadata()
        .withNewSpec()
        .withDriver(driver)
        .withNodeName(nodeName)
        .withNewPool()
        .withName(nodeName)
        .withGeneration(1L)
        .withResourceSliceCount(1L)
        .endPool()
        .withDevices(devices)
        .endSpec()
        .build();
  }

  private static DeviceAttribute attr(Consumer<DeviceAttribute> set) {
    DeviceAttribute a = new DeviceAttribute();
    set.accept(a);
    return a;
  }
}
