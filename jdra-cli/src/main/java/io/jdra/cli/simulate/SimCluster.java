package io.jdra.cli.simulate;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourcePool;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.jdra.cli.up.DeviceClasses;
import io.jdra.cli.up.DriverFlags;
import io.jdra.exampledriver.Flags;
import io.jdra.kubeletplugin.resourceslice.DriverResources;
import io.jdra.kubeletplugin.resourceslice.Pool;
import io.jdra.kubeletplugin.resourceslice.Slice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulated cluster's objects: Nodes, the ResourceSlices the example drivers would publish on
 * them (the driver's own profile code enumerates the devices, so they equal what {@code jdra up}
 * publishes), and the DeviceClasses the upstream chart installs plus the scenario's own.
 */
record SimCluster(List<Node> nodes, List<ResourceSlice> slices, List<DeviceClass> classes) {

  static SimCluster build(Scenario s, DriverFlags.Parser parser) {
    List<Node> nodes = new ArrayList<>();
    List<ResourceSlice> slices = new ArrayList<>();
    Map<String, DeviceClass> classes = new LinkedHashMap<>();
    for (Scenario.NodeGroup g : s.nodes()) {
      for (int i = 1; i <= g.count(); i++) {
        String name = g.name() + "-" + i;
        nodes.add(node(name, g));
        for (Scenario.Driver d : g.drivers()) {
          Flags flags = ScenarioReader.driverFlags(parser, d, name);
          slices.addAll(slices(flags.driverName(), name, flags.newProfile().enumerateDevices()));
          DeviceClass c = DeviceClasses.forProfile(d.profile(), "");
          classes.putIfAbsent(c.getMetadata().getName(), c);
        }
      }
    }
    for (DeviceClass c : s.deviceClasses()) {
      classes.put(c.getMetadata().getName(), c);
    }
    return new SimCluster(nodes, slices, List.copyOf(classes.values()));
  }

  private static Node node(String name, Scenario.NodeGroup g) {
    Map<String, String> labels = new LinkedHashMap<>(g.labels());
    labels.put("kubernetes.io/hostname", name);
    return new NodeBuilder()
        .withNewMetadata()
        .withName(name)
        .withUid(Ids.uid("node", name))
        .withResourceVersion("1")
        .withLabels(labels)
        .endMetadata()
        .withNewStatus()
        .withCapacity(g.capacity())
        .withAllocatable(g.capacity())
        .addNewCondition()
        .withType("Ready")
        .withStatus("True")
        .endCondition()
        .endStatus()
        .build();
  }

  /**
   * The slices as the ResourceSliceController writes them: one per {@link Slice}, names starting
   * with the slice's index (the allocator's preference order), pool generation 1.
   */
  static List<ResourceSlice> slices(String driver, String node, DriverResources resources) {
    List<ResourceSlice> out = new ArrayList<>();
    for (Map.Entry<String, Pool> e : resources.pools().entrySet()) {
      Pool pool = e.getValue();
      for (int i = 0; i < pool.slices().size(); i++) {
        Slice sl = pool.slices().get(i);
        ResourcePool rp = new ResourcePool();
        rp.setName(e.getKey());
        rp.setGeneration(1L);
        rp.setResourceSliceCount((long) pool.slices().size());
        ResourceSliceSpec spec = new ResourceSliceSpec();
        spec.setDriver(driver);
        spec.setPool(rp);
        spec.setNodeName(pool.nodeSelector() == null && !pool.allNodes() ? node : null);
        spec.setNodeSelector(pool.nodeSelector());
        spec.setAllNodes(pool.allNodes() ? Boolean.TRUE : null);
        spec.setDevices(new ArrayList<>(sl.devices()));
        spec.setSharedCounters(
            sl.sharedCounters().isEmpty() ? null : new ArrayList<>(sl.sharedCounters()));
        spec.setPerDeviceNodeSelection(sl.perDeviceNodeSelection());
        String name = String.format("%05x-%s-%s", i, driver, node);
        out.add(
            new ResourceSliceBuilder()
                .withNewMetadata()
                .withName(name)
                .withUid(Ids.uid("slice", name))
                .withResourceVersion("1")
                .endMetadata()
                .withSpec(spec)
                .build());
      }
    }
    return out;
  }
}
