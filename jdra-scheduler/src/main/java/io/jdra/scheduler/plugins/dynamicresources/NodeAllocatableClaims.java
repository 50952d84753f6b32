package io.jdra.scheduler.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.NodeAllocatableResourceClaimStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.api.quantity.Quantity;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.Resource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Node-allocatable resources backed by DRA (DRANodeAllocatableResources, KEP 5517), as upstream's
 * {@code buildNodeAllocatableDRAInfo}: a device's {@code nodeAllocatableResourceMappings} say how
 * much of the node's cpu, memory or hugepages each allocation of it takes, either the capacity a
 * result consumed ({@code capacityKey}, times {@code allocationMultiplier} if set) or a fixed
 * amount per device ({@code allocationMultiplier} alone). The amounts are summed per claim and
 * become the pod's {@code status.nodeAllocatableResourceClaimStatuses}, which NodeResourcesFit adds
 * to the pod's requests. The 1.36 fields travel in fabric8's additional properties (its model
 * follows a later draft).
 */
public final class NodeAllocatableClaims {
  /** The 1.36 device field. */
  public static final String MAPPINGS = "nodeAllocatableResourceMappings";

  /** The 1.36 field of a {@code NodeAllocatableResourceClaimStatus}. */
  public static final String RESOURCES = "resources";

  private NodeAllocatableClaims() {}

  /**
   * One entry of {@code pod.status.nodeAllocatableResourceClaimStatuses}.
   *
   * @param resourceClaimName the claim's real name (a generated claim's, not the pod's name for it)
   * @param containers the containers (init first) that reference the claim
   * @param resources resource name to amount, sorted by name
   */
  public record ClaimStatus(
      String resourceClaimName, List<String> containers, Map<String, Quantity> resources) {
    public ClaimStatus {
      containers = List.copyOf(containers);
      resources = Map.copyOf(resources);
    }

    /** As the API writes it: quantities in their canonical form. */
    public Map<String, Object> toJson() {
      Map<String, String> res = new TreeMap<>();
      resources.forEach((k, v) -> res.put(k, v.toString()));
      return Map.of(
          "resourceClaimName", resourceClaimName, "containers", containers, RESOURCES, res);
    }

    /** The fabric8 form, with the 1.36 {@code resources} map in its additional properties. */
    public NodeAllocatableResourceClaimStatus toFabric8() {
      NodeAllocatableResourceClaimStatus s = new NodeAllocatableResourceClaimStatus();
      s.setResourceClaimName(resourceClaimName);
      s.setContainers(new ArrayList<>(containers));
      Map<String, String> res = new TreeMap<>();
      resources.forEach((k, v) -> res.put(k, v.toString()));
      s.setAdditionalProperty(RESOURCES, res);
      return s;
    }
  }

  /**
   * The statuses for claims allocated in this cycle, sorted by claim name; claims whose devices map
   * nothing onto the node are left out.
   *
   * @param claims the pod's claims (name in the pod spec, claim) that got an allocation now
   * @param device finds a result's device in the published slices, or null
   */
  public static List<ClaimStatus> statuses(
      Pod pod,
      List<Map.Entry<String, ResourceClaim>> claims,
      Map<String, AllocationResult> allocations,
      Function<DeviceRequestAllocationResult, Device> device) {
    List<ClaimStatus> out = new ArrayList<>();
    for (Map.Entry<String, ResourceClaim> e : claims) {
      ResourceClaim claim = e.getValue();
      AllocationResult alloc = allocations.get(claim.getMetadata().getUid());
      if (alloc == null || alloc.getDevices() == null) {
        continue;
      }
      Map<String, Quantity> resources = resources(claim, alloc, device);
      if (!resources.isEmpty()) {
        out.add(
            new ClaimStatus(
                claim.getMetadata().getName(), containersUsing(pod, e.getKey()), resources));
      }
    }
    out.sort(Comparator.comparing(ClaimStatus::resourceClaimName));
    return out;
  }

  private static Map<String, Quantity> resources(
      ResourceClaim claim,
      AllocationResult alloc,
      Function<DeviceRequestAllocationResult, Device> device) {
    Map<String, Quantity> sum = new TreeMap<>();
    for (DeviceRequestAllocationResult r : alloc.getDevices().getResults()) {
      Device d = device.apply(r);
      Map<String, Map<String, Object>> mappings = d == null ? null : mappings(d);
      if (mappings == null) {
        continue;
      }
      for (Map.Entry<String, Map<String, Object>> m : new TreeMap<>(mappings).entrySet()) {
        Quantity q = amount(claim, r, m.getKey(), m.getValue());
        if (q != null) {
          sum.merge(m.getKey(), q, Quantity::add);
        }
      }
    }
    return sum;
  }

  /** What one result takes of one resource, or null when the mapping does not apply to it. */
  private static Quantity amount(
      ResourceClaim claim,
      DeviceRequestAllocationResult r,
      String resource,
      Map<String, Object> mapping) {
    Object key = mapping.get("capacityKey");
    Quantity multiplier =
        mapping.get("allocationMultiplier") == null
            ? null
            : Quantity.parse(mapping.get("allocationMultiplier").toString());
    if (key != null && !key.toString().isEmpty()) {
      if (r.getConsumedCapacity() == null || r.getConsumedCapacity().isEmpty()) {
        throw new IllegalStateException(
            String.format(
                "claim %s/%s, device %s: ConsumedCapacity is nil, but Capacity key '%s' is set in NodeAllocatableResourceMappings for resource %s",
                claim.getMetadata().getNamespace(),
                claim.getMetadata().getName(),
                r.getDevice(),
                key,
                resource));
      }
      io.fabric8.kubernetes.api.model.Quantity consumed =
          r.getConsumedCapacity().get(key.toString());
      if (consumed == null) {
        return null;
      }
      Quantity q = Quantity.of(consumed);
      return multiplier == null
          ? q
          : Quantity.of(q.toBigDecimal().multiply(multiplier.toBigDecimal()), q.format());
    }
    return multiplier;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Map<String, Object>> mappings(Device d) {
    Object m = d.getAdditionalProperties().get(MAPPINGS);
    return m instanceof Map<?, ?> map && !map.isEmpty()
        ? (Map<String, Map<String, Object>>) map
        : null;
  }

  /** Whether the device maps anything onto the node's allocatable resources. */
  public static boolean hasMappings(Device d) {
    return d != null && mappings(d) != null;
  }

  /** Init containers first, then containers, that list the pod claim in resources.claims. */
  private static List<String> containersUsing(Pod pod, String podClaimName) {
    List<String> out = new ArrayList<>();
    List<Container> all = new ArrayList<>();
    if (pod.getSpec().getInitContainers() != null) {
      all.addAll(pod.getSpec().getInitContainers());
    }
    all.addAll(pod.getSpec().getContainers());
    for (Container c : all) {
      if (c.getResources() != null
          && c.getResources().getClaims() != null
          && c.getResources().getClaims().stream()
              .anyMatch(rc -> podClaimName.equals(rc.getName()))) {
        out.add(c.getName());
      }
    }
    return out;
  }

  /**
   * Upstream's {@code nodeFitsResources}: the reasons the pod's requests plus the claims' amounts
   * do not fit what the node's pods leave (cpu, memory, ephemeral-storage, then hugepages and other
   * scalars by name); empty when they fit.
   */
  public static List<String> insufficient(
      Resource podRequest, List<ClaimStatus> statuses, NodeInfo node) {
    Resource demand = podRequest;
    for (ClaimStatus st : statuses) {
      Map<String, io.fabric8.kubernetes.api.model.Quantity> list = new TreeMap<>();
      st.resources().forEach((k, v) -> list.put(k, v.toFabric8()));
      demand = demand.plus(Resource.of(list));
    }
    Resource alloc = node.allocatable();
    Resource used = node.requested();
    List<String> out = new ArrayList<>(0);
    if (demand.milliCpu() > 0 && demand.milliCpu() > alloc.milliCpu() - used.milliCpu()) {
      out.add("Insufficient cpu");
    }
    if (demand.memory() > 0 && demand.memory() > alloc.memory() - used.memory()) {
      out.add("Insufficient memory");
    }
    if (demand.ephemeralStorage() > 0
        && demand.ephemeralStorage() > alloc.ephemeralStorage() - used.ephemeralStorage()) {
      out.add("Insufficient ephemeral-storage");
    }
    for (Map.Entry<String, Long> e : new TreeMap<>(demand.scalar()).entrySet()) {
      if (e.getValue() > 0 && e.getValue() > alloc.scalar(e.getKey()) - used.scalar(e.getKey())) {
        out.add("Insufficient " + e.getKey());
      }
    }
    return out;
  }

  /** Finds a result's device (driver, pool, name) in the slices; null when it is gone. */
  public static Device find(List<ResourceSlice> slices, DeviceRequestAllocationResult r) {
    for (ResourceSlice s : slices) {
      if (!r.getDriver().equals(s.getSpec().getDriver())
          || !r.getPool().equals(s.getSpec().getPool().getName())) {
        continue;
      }
      for (Device d : s.getSpec().getDevices()) {
        if (r.getDevice().equals(d.getName())) {
          return d;
        }
      }
    }
    return null;
  }
}
