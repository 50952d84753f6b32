package io.jdra.kubelet.dra;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.kubelet.dra.state.ClaimInfoState;
import io.jdra.kubelet.dra.state.Device;
import io.jdra.kubelet.dra.state.DriverState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One claim as the kubelet tracks it (upstream ClaimInfo): the checkpointed state plus whether the
 * drivers prepared it in this process. {@code prepared} is deliberately not checkpointed: after a
 * restart every claim is prepared again, which drivers must treat idempotently, so a crash between
 * the two checkpoint writes of a prepare can never leave a claim marked prepared that was not.
 * Immutable; the cache replaces entries.
 */
public record ClaimInfo(ClaimInfoState state, boolean prepared) {

  /**
   * The entry for a claim about to be prepared: one (still empty) driver state per driver in the
   * allocation.
   *
   * @throws IllegalArgumentException when the claim is not allocated
   */
  public static ClaimInfo fromClaim(ResourceClaim claim) {
    var allocation = claim.getStatus() == null ? null : claim.getStatus().getAllocation();
    if (allocation == null) {
      throw new IllegalArgumentException("not allocated");
    }
    Map<String, DriverState> drivers = new TreeMap<>();
    if (allocation.getDevices() != null && allocation.getDevices().getResults() != null) {
      for (DeviceRequestAllocationResult r : allocation.getDevices().getResults()) {
        drivers.put(r.getDriver(), DriverState.EMPTY);
      }
    }
    var meta = claim.getMetadata();
    return new ClaimInfo(
        new ClaimInfoState(
            meta.getUid(),
            meta.getName(),
            meta.getNamespace(),
            new TreeSet<>(),
            new TreeMap<>(drivers)),
        false);
  }

  public static ClaimInfo fromState(ClaimInfoState state) {
    return new ClaimInfo(state, false);
  }

  public String claimUid() {
    return state.claimUid();
  }

  public String claimName() {
    return state.claimName();
  }

  public String namespace() {
    return state.namespace();
  }

  public Set<String> podUids() {
    return state.podUids();
  }

  public boolean hasPodReference(String podUid) {
    return state.podUids().contains(podUid);
  }

  public ClaimInfo withPodReference(String podUid) {
    var uids = new TreeSet<>(state.podUids());
    uids.add(podUid);
    return new ClaimInfo(state.withPodUids(uids), prepared);
  }

  public ClaimInfo withoutPodReference(String podUid) {
    var uids = new TreeSet<>(state.podUids());
    uids.remove(podUid);
    return new ClaimInfo(state.withPodUids(uids), prepared);
  }

  /** A copy with {@code device} reported by {@code driver} appended. */
  public ClaimInfo withDevice(String driver, Device device) {
    Map<String, DriverState> drivers = new HashMap<>(state.driverState());
    drivers.put(driver, drivers.getOrDefault(driver, DriverState.EMPTY).with(device));
    return new ClaimInfo(state.withDriverState(drivers), prepared);
  }

  /** A copy with {@code driver}'s devices replaced by {@code devices}. */
  public ClaimInfo withDriverDevices(String driver, List<Device> devices) {
    Map<String, DriverState> drivers = new HashMap<>(state.driverState());
    drivers.put(driver, new DriverState(devices));
    return new ClaimInfo(state.withDriverState(drivers), prepared);
  }

  /** A copy with every driver's devices cleared, for a prepare that starts over. */
  public ClaimInfo withoutDevices() {
    Map<String, DriverState> drivers = new HashMap<>();
    state.driverState().keySet().forEach(d -> drivers.put(d, DriverState.EMPTY));
    return new ClaimInfo(state.withDriverState(drivers), prepared);
  }

  public ClaimInfo asPrepared() {
    return new ClaimInfo(state, true);
  }

  /**
   * The CDI device IDs a container gets for {@code requestName} of this claim: every device whose
   * request names contain it; an empty request name (the container uses the whole claim) selects
   * all devices, and a device without request names serves every request.
   */
  public List<String> cdiDevices(String requestName) {
    List<String> out = new ArrayList<>();
    for (DriverState driver : state.driverState().values()) {
      for (Device d : driver.devices()) {
        if (requestName == null
            || requestName.isEmpty()
            || d.requestNames().isEmpty()
            || d.requestNames().contains(requestName)) {
          out.addAll(d.cdiDeviceIds());
        }
      }
    }
    return out;
  }
}
