package io.jdra.testing.objects;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a ResourceSlice (upstream {@code MakeResourceSlice(nodeName, driverName)}): node-local
 * when a node name is given, else for all nodes; pool named after the node (or the driver),
 * generation 1, one slice in the pool.
 */
public final class SliceWrapper {
  private final ResourceSliceBuilder b = new ResourceSliceBuilder();
  private final List<Device> devices = new ArrayList<>();
  private final List<CounterSet> counters = new ArrayList<>();
  private String nodeName;
  private NodeSelector nodeSelector;
  private boolean allNodes;

  SliceWrapper(String name, String nodeName, String driver) {
    this.nodeName = nodeName;
    this.allNodes = nodeName == null;
    b.withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withDriver(driver)
        .withNewPool()
        .withName(nodeName != null ? nodeName : driver)
        .withGeneration(1L)
        .withResourceSliceCount(1L)
        .endPool()
        .endSpec();
  }

  public SliceWrapper pool(String name, long generation, long sliceCount) {
    b.editSpec()
        .editPool()
        .withName(name)
        .withGeneration(generation)
        .withResourceSliceCount(sliceCount)
        .endPool()
        .endSpec();
    return this;
  }

  /** {@code metadata.generation}, as the API server would have set it. */
  public SliceWrapper generation(long generation) {
    b.editMetadata().withGeneration(generation).endMetadata();
    return this;
  }

  public SliceWrapper uid(String uid) {
    b.editMetadata().withUid(uid).endMetadata();
    return this;
  }

  /** Devices available on the nodes the selector picks, instead of one node. */
  public SliceWrapper nodeSelector(NodeSelector selector) {
    this.nodeName = null;
    this.allNodes = false;
    this.nodeSelector = selector;
    return this;
  }

  public SliceWrapper allNodes() {
    this.nodeName = null;
    this.nodeSelector = null;
    this.allNodes = true;
    return this;
  }

  /** A device with no attributes. */
  public SliceWrapper device(String name) {
    return devices(Make.device(name).obj());
  }

  public SliceWrapper devices(Device... d) {
    devices.addAll(List.of(d));
    return this;
  }

  public SliceWrapper sharedCounters(CounterSet... sets) {
    counters.addAll(List.of(sets));
    return this;
  }

  public ResourceSlice obj() {
    ResourceSlice s = b.build();
    s.getSpec().setNodeName(nodeName);
    s.getSpec().setNodeSelector(nodeSelector);
    s.getSpec().setAllNodes(allNodes ? Boolean.TRUE : null);
    s.getSpec().setDevices(new ArrayList<>(devices));
    s.getSpec().setSharedCounters(new ArrayList<>(counters));
    return new ResourceSliceBuilder(s).build();
  }
}
