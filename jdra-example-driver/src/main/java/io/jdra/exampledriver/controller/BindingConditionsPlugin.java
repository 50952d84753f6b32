package io.jdra.exampledriver.controller;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.Ctx;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Upstream's {@code BindingConditionsPlugin}: satisfies the binding conditions of the devices
 * allocated from its driver by setting each of them True in the claim's {@code status.devices}
 * entry of that device (driver, pool, device), with reason {@code Ready} and message {@code Device
 * is ready}. The example devices need no preparation before binding, so there is nothing to wait
 * for; a real driver would check the device first (attach it to the node, for instance).
 *
 * <p>Entries and conditions already there are kept; only a condition that is not True yet is
 * written, so a claim whose conditions are all True causes no API call.
 */
public final class BindingConditionsPlugin implements Plugin {
  static final String REASON = "Ready";
  static final String MESSAGE = "Device is ready";

  private final String driverName;

  public BindingConditionsPlugin(String driverName) {
    this.driverName = Objects.requireNonNull(driverName, "driver name");
  }

  @Override
  public String name() {
    return Plugins.BINDING_CONDITIONS;
  }

  @Override
  public void reconcile(Ctx ctx, KubernetesClient client, ResourceClaim claim) {
    Change change = satisfy(claim, ctx.clock().now());
    if (change == null) {
      return;
    }
    for (SetCondition s : change.set()) {
      ctx.logger().info("Set binding condition", "device", s.device(), "condition", s.condition());
    }
    ctx.logger().info("Updating ResourceClaim status", "name", claim.getMetadata().getName());
    // The cached resourceVersion makes this a compare-and-swap: a 409 retries on the newer claim.
    client.resource(change.claim()).updateStatus();
  }

  /** A condition the plugin sets True. */
  record SetCondition(String device, String condition) {}

  /** The claim to write and what changed in it. */
  record Change(ResourceClaim claim, List<SetCondition> set) {}

  /**
   * The claim with every binding condition of this driver's devices True, or null when they all are
   * already (or the claim is not allocated). {@code claim} is not modified.
   */
  Change satisfy(ResourceClaim claim, Instant now) {
    if (claim.getStatus() == null || claim.getStatus().getAllocation() == null) {
      return null;
    }
    List<AllocatedDeviceStatus> devices = copy(claim.getStatus().getDevices());
    List<SetCondition> set = new ArrayList<>();
    String time = DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
    for (DeviceRequestAllocationResult r : results(claim)) {
      if (!driverName.equals(r.getDriver()) || nullToEmpty(r.getBindingConditions()).isEmpty()) {
        continue;
      }
      for (String type : r.getBindingConditions()) {
        AllocatedDeviceStatus entry = entryFor(devices, r);
        if (entry != null && isTrue(entry, type)) {
          continue;
        }
        if (entry == null) {
          entry = newEntry(r);
          devices.add(entry);
        }
        setTrue(entry, type, time);
        set.add(new SetCondition(r.getDevice(), type));
      }
    }
    if (set.isEmpty()) {
      return null;
    }
    ResourceClaim updated =
        new ResourceClaimBuilder(claim).editStatus().withDevices(devices).endStatus().build();
    return new Change(updated, List.copyOf(set));
  }

  private static List<DeviceRequestAllocationResult> results(ResourceClaim claim) {
    var devices = claim.getStatus().getAllocation().getDevices();
    return devices == null ? List.of() : nullToEmpty(devices.getResults());
  }

  /** Deep copies, so the cached claim's entries stay untouched when ours change. */
  private static List<AllocatedDeviceStatus> copy(List<AllocatedDeviceStatus> devices) {
    List<AllocatedDeviceStatus> out = new ArrayList<>();
    for (AllocatedDeviceStatus d : nullToEmpty(devices)) {
      out.add(new AllocatedDeviceStatusBuilder(d).build());
    }
    return out;
  }

  /** The entry of the result's device, matched on driver, pool and device as upstream. */
  private static AllocatedDeviceStatus entryFor(
      List<AllocatedDeviceStatus> devices, DeviceRequestAllocationResult r) {
    for (AllocatedDeviceStatus d : devices) {
      if (Objects.equals(d.getDriver(), r.getDriver())
          && Objects.equals(d.getPool(), r.getPool())
          && Objects.equals(d.getDevice(), r.getDevice())) {
        return d;
      }
    }
    return null;
  }

  private static AllocatedDeviceStatus newEntry(DeviceRequestAllocationResult r) {
    return new AllocatedDeviceStatusBuilder()
        .withDriver(r.getDriver())
        .withPool(r.getPool())
        .withDevice(r.getDevice())
        .withConditions(new ArrayList<>())
        .build();
  }

  private static boolean isTrue(AllocatedDeviceStatus d, String type) {
    for (Condition c : nullToEmpty(d.getConditions())) {
      if (type.equals(c.getType()) && "True".equals(c.getStatus())) {
        return true;
      }
    }
    return false;
  }

  private static void setTrue(AllocatedDeviceStatus d, String type, String time) {
    List<Condition> conditions = new ArrayList<>(nullToEmpty(d.getConditions()));
    Condition c =
        new ConditionBuilder()
            .withType(type)
            .withStatus("True")
            .withReason(REASON)
            .withMessage(MESSAGE)
            .withLastTransitionTime(time)
            .build();
    int i = indexOf(conditions, type);
    if (i >= 0) {
      conditions.set(i, c);
    } else {
      conditions.add(c);
    }
    d.setConditions(conditions);
  }

  private static int indexOf(List<Condition> conditions, String type) {
    for (int i = 0; i < conditions.size(); i++) {
      if (type.equals(conditions.get(i).getType())) {
        return i;
      }
    }
    return -1;
  }

  private static <T> List<T> nullToEmpty(List<T> l) {
    return l == null ? List.of() : l;
  }
}
