package io.jdra.exampledriver.profiles;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.jdra.kubeletplugin.cdi.CdiSpec.ContainerEdits;
import io.jdra.kubeletplugin.resourceslice.DriverResources;
import io.jdra.kubeletplugin.resourceslice.Pool;
import io.jdra.kubeletplugin.resourceslice.Slice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Simulated NUMA nodes of CPUs (upstream internal/profiles/cpu): {@code numa-<i>} with attribute
 * {@code numaNodeID} and consumable capacity {@code <driver>/cpu}, mapped onto the node's
 * allocatable {@code cpu} ({@code nodeAllocatableResourceMappings: {cpu: {capacityKey:
 * <driver>/cpu}}}, KEP 5517), so that a scheduler with DRANodeAllocatableResources counts the CPUs
 * a claim consumes against the node. The fabric8 8.0 model follows a later draft of that alpha
 * field, so the 1.36 field travels in the device's additional properties. Accepts no configuration.
 */
public final class CpuProfile implements Profile {
  public static final String NAME = "cpu";

  private final String nodeName;
  private final String driverName;
  private final int numaNodes;
  private final int cpusPerNumaNode;

  public CpuProfile(String nodeName, String driverName, int numaNodes, int cpusPerNumaNode) {
    this.nodeName = nodeName;
    this.driverName = driverName;
    this.numaNodes = numaNodes;
    this.cpusPerNumaNode = cpusPerNumaNode;
  }

  /** The 1.36 device field (fabric8's model has a later draft's shape, so it is set by name). */
  static final String NODE_ALLOCATABLE_MAPPINGS = "nodeAllocatableResourceMappings";

  /** The capacity name, {@code <driver>/cpu}. */
  public String capacityKey() {
    return driverName + "/cpu";
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public DriverResources enumerateDevices() {
    List<Device> devices = new ArrayList<>();
    for (int i = 0; i < numaNodes; i++) {
      Device d = new Device();
      d.setName("numa-" + i);
      d.setAllowMultipleAllocations(true);
      d.setAttributes(Map.of("numaNodeID", Devices.intAttr(i)));
      d.setCapacity(
          Map.of(capacityKey(), Devices.capacity(new Quantity(Integer.toString(cpusPerNumaNode)))));
      d.setAdditionalProperty(
          NODE_ALLOCATABLE_MAPPINGS, Map.of("cpu", Map.of("capacityKey", capacityKey())));
      devices.add(d);
    }
    return DriverResources.ofNodePool(nodeName, Pool.of(List.of(Slice.of(devices))));
  }

  @Override
  public Object decodeConfig(Map<String, Object> parameters) {
    throw new IllegalArgumentException("configuration not allowed");
  }

  @Override
  public Map<String, ContainerEdits> applyConfig(
      Object config, List<DeviceRequestAllocationResult> results) {
    if (config != null) {
      throw new IllegalArgumentException("configuration not allowed");
    }
    Map<String, ContainerEdits> edits = new LinkedHashMap<>();
    for (DeviceRequestAllocationResult r : results) {
      String id = r.getDevice().substring("numa-".length());
      List<String> env = new ArrayList<>();
      env.add("CPU_DEVICE_" + id + "=" + r.getDevice());
      Quantity cpu =
          r.getConsumedCapacity() == null ? null : r.getConsumedCapacity().get(capacityKey());
      if (cpu != null) {
        env.add("CPU_DEVICE_" + id + "_CONSUMED_CPU=" + cpu);
      }
      edits.put(Profile.cdiDeviceId(r.getDevice(), r.getShareID()), ContainerEdits.env(env));
    }
    return edits;
  }
}
