package io.jdra.exampledriver.profiles;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.jdra.kubeletplugin.cdi.CdiSpec.ContainerEdits;
import io.jdra.kubeletplugin.resourceslice.DriverResources;
import io.jdra.kubeletplugin.resourceslice.Pool;
import io.jdra.kubeletplugin.resourceslice.Slice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Simulated GPUs (upstream internal/profiles/gpu): {@code gpu-<i>} with 80Gi memory and 100
 * compute, or with {@code --gpu-partitions N} per GPU a counter set {@code gpu-<i>-counters}, N
 * partitions {@code gpu-<i>-partition-<j>} and a {@code gpu-<i>-full} device that all draw from it.
 */
public final class GpuProfile implements Profile {
  public static final String NAME = "gpu";
  public static final String BINDING_CONDITIONS = "BindingConditions";
  public static final String BINDING_FAILURE_CONDITIONS = "BindingFailureConditions";

  private static final long GI = 1L << 30;
  private static final long MEMORY = 80 * GI;
  private static final long COMPUTE = 100;

  private final String nodeName;
  private final int numGpus;
  private final int partitions;
  private final boolean bindingConditions;
  private final boolean allowMultipleAllocations;

  public GpuProfile(
      String nodeName,
      int numGpus,
      int partitions,
      boolean bindingConditions,
      boolean allowMultipleAllocations) {
    this.nodeName = nodeName;
    this.numGpus = numGpus;
    this.partitions = partitions;
    this.bindingConditions = bindingConditions;
    this.allowMultipleAllocations = allowMultipleAllocations;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public DriverResources enumerateDevices() {
    List<String> uuids = Devices.uuids(nodeName, "gpu", numGpus);
    List<Device> devices = new ArrayList<>();
    List<CounterSet> counterSets = new ArrayList<>();
    for (int i = 0; i < numGpus; i++) {
      Map<String, DeviceAttribute> attrs = new TreeMap<>();
      attrs.put("index", Devices.intAttr(i));
      attrs.put("uuid", Devices.stringAttr(uuids.get(i)));
      attrs.put("model", Devices.stringAttr("LATEST-GPU-MODEL"));
      attrs.put("driverVersion", Devices.versionAttr("1.0.0"));
      if (partitions <= 0) {
        devices.add(device("gpu-" + i, attrs, MEMORY, COMPUTE, null));
        continue;
      }
      String set = "gpu-" + i + "-counters";
      CounterSet cs = new CounterSet();
      cs.setName(set);
      cs.setCounters(Devices.counters(binarySi(MEMORY), decimal(COMPUTE)));
      counterSets.add(cs);
      long partMemory = MEMORY / partitions;
      long partCompute = COMPUTE / partitions;
      for (int j = 0; j < partitions; j++) {
        Map<String, DeviceAttribute> pa = new TreeMap<>(attrs);
        pa.put("partition", Devices.intAttr(j));
        pa.put("partitionable", Devices.boolAttr(true));
        devices.add(device("gpu-" + i + "-partition-" + j, pa, partMemory, partCompute, set));
      }
      Map<String, DeviceAttribute> fa = new TreeMap<>(attrs);
      fa.put("partitionable", Devices.boolAttr(true));
      fa.put("full", Devices.boolAttr(true));
      devices.add(device("gpu-" + i + "-full", fa, MEMORY, COMPUTE, set));
    }
    if (bindingConditions) {
      for (Device d : devices) {
        d.setBindingConditions(List.of(BINDING_CONDITIONS));
        d.setBindingFailureConditions(List.of(BINDING_FAILURE_CONDITIONS));
      }
    }
    List<Slice> slices =
        counterSets.isEmpty()
            ? List.of(Slice.of(devices))
            : List.of(Slice.counters(counterSets), Slice.of(devices));
    return DriverResources.ofNodePool(nodeName, Pool.of(slices));
  }

  private Device device(
      String name,
      Map<String, DeviceAttribute> attrs,
      long memory,
      long compute,
      String counterSet) {
    Device d = new Device();
    d.setName(name);
    d.setAttributes(attrs);
    d.setAllowMultipleAllocations(allowMultipleAllocations);
    Map<String, DeviceCapacity> capacity = new TreeMap<>();
    capacity.put("memory", memoryCapacity(binarySi(memory)));
    capacity.put("compute", computeCapacity(decimal(compute)));
    d.setCapacity(capacity);
    if (counterSet != null) {
      DeviceCounterConsumption c = new DeviceCounterConsumption();
      c.setCounterSet(counterSet);
      c.setCounters(Devices.counters(binarySi(memory), decimal(compute)));
      d.setConsumesCounters(List.of(c));
    }
    return d;
  }

  // With multiple allocations, consumers may ask for any 1Gi step of memory (any unit of compute).
  private DeviceCapacity memoryCapacity(Quantity value) {
    if (!allowMultipleAllocations) {
      return Devices.capacity(value);
    }
    return Devices.capacity(value, value, new Quantity("1Gi"), new Quantity("1Gi"), value);
  }

  private DeviceCapacity computeCapacity(Quantity value) {
    if (!allowMultipleAllocations) {
      return Devices.capacity(value);
    }
    return Devices.capacity(value, value, new Quantity("1"), new Quantity("1"), value);
  }

  @Override
  public Object decodeConfig(Map<String, Object> parameters) {
    Profiles.checkKind(parameters, GpuConfig.API_VERSION, GpuConfig.KIND);
    return GpuConfig.decode(parameters);
  }

  @Override
  public Map<String, ContainerEdits> applyConfig(
      Object config, List<DeviceRequestAllocationResult> results) {
    GpuConfig c = config == null ? GpuConfig.defaults() : (GpuConfig) config;
    c = c.normalize();
    try {
      c.validate();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("error validating GPU config: " + e.getMessage(), e);
    }
    Map<String, ContainerEdits> edits = new LinkedHashMap<>();
    for (DeviceRequestAllocationResult r : results) {
      // Device names start with "gpu-": gpu-0, gpu-0-partition-1, gpu-0-full.
      String id = r.getDevice().substring(4).replace('-', '_').toUpperCase(Locale.ROOT);
      List<String> env = new ArrayList<>();
      env.add("GPU_DEVICE_" + id + "=" + r.getDevice());
      GpuConfig.Sharing s = c.sharing();
      env.add("GPU_DEVICE_" + id + "_SHARING_STRATEGY=" + s.strategy());
      if (GpuConfig.TIME_SLICING.equals(s.strategy())) {
        env.add("GPU_DEVICE_" + id + "_TIMESLICE_INTERVAL=" + s.timeSlicingConfig().interval());
      } else {
        env.add(
            "GPU_DEVICE_"
                + id
                + "_PARTITION_COUNT="
                + s.spacePartitioningConfig().partitionCount());
      }
      Map<String, Quantity> consumed =
          r.getConsumedCapacity() == null ? Map.of() : r.getConsumedCapacity();
      if (consumed.containsKey("memory")) {
        env.add("GPU_DEVICE_" + id + "_MEMORY=" + consumed.get("memory").toString());
      }
      if (consumed.containsKey("compute")) {
        env.add("GPU_DEVICE_" + id + "_COMPUTE=" + consumed.get("compute").toString());
      }
      edits.put(Profile.cdiDeviceId(r.getDevice(), r.getShareID()), ContainerEdits.env(env));
    }
    return edits;
  }

  /** A byte count as Go's BinarySI quantity prints it: the largest exact Ki/Mi/Gi/... unit. */
  static Quantity binarySi(long bytes) {
    String[] units = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    int u = 0;
    long v = bytes;
    while (v != 0 && v % 1024 == 0 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return new Quantity(v + units[u]);
  }

  static Quantity decimal(long v) {
    return new Quantity(Long.toString(v));
  }
}
