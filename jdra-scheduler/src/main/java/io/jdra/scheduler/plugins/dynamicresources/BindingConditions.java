package io.jdra.scheduler.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.runtime.Ctx;
import io.jdra.scheduler.framework.Status;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/**
 * DRADeviceBindingConditions (with DRAResourceClaimDeviceStatus), as upstream: a device allocated
 * with {@code bindingConditions} may be used only once a driver set each of them True in {@code
 * status.devices[].conditions}; any of its {@code bindingFailureConditions} True fails the binding.
 *
 * <ul>
 *   <li>PreBind writes {@code allocation.allocationTimestamp} with the allocation, then polls every
 *       5 s (the first check at once) until all conditions are True, a failure condition is True,
 *       {@code allocationTimestamp + bindingTimeout} passed, or {@code bindingTimeout} passed since
 *       PreBind began; the last three are errors, so the scheduler unreserves the claim.
 *   <li>In the next attempt Filter finds such a claim (failed, or timed out and not ready)
 *       unavailable on every node, and PostFilter deallocates it, so its devices are tried anew.
 * </ul>
 */
final class BindingConditions {
  static final Duration POLL_INTERVAL = Duration.ofSeconds(5);

  /** What {@link #check} returns (compared by identity) while conditions are still pending. */
  private static final Status WAIT = Status.unschedulable("waiting for binding conditions");

  private BindingConditions() {}

  static boolean any(List<ResourceClaim> claims) {
    for (ResourceClaim c : claims) {
      for (DeviceRequestAllocationResult r : results(c)) {
        if (hasConditions(r)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The allocation to write, stamped with the time it is made (upstream's bindClaim): new claim,
   * status and allocation objects sharing everything else with {@code allocated}, which nobody
   * changes (a builder's deep copy of the whole claim was most of this on every binding).
   */
  static ResourceClaim withAllocationTimestamp(ResourceClaim allocated, Instant now) {
    AllocationResult old = allocated.getStatus().getAllocation();
    if (old.getAllocationTimestamp() != null) {
      return allocated;
    }
    String time = DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
    AllocationResult stamped = new AllocationResult(time, old.getDevices(), old.getNodeSelector());
    old.getAdditionalProperties().forEach(stamped::setAdditionalProperty);
    return DynamicResources.withAllocation(allocated, stamped);
  }

  /**
   * Waits in PreBind, re-reading the claims from the informer cache. Null when every claim is
   * ready; an error status otherwise.
   */
  static Status await(Ctx ctx, DraManager manager, List<ResourceClaim> claims, Duration timeout) {
    Instant end = ctx.clock().now().plus(timeout);
    while (true) {
      Status s = check(ctx.clock().now(), manager, claims, timeout);
      if (s != WAIT) {
        return s;
      }
      if (!ctx.clock().now().isBefore(end)) {
        return Status.error("device binding timeout");
      }
      try {
        if (!ctx.sleep(POLL_INTERVAL)) {
          return Status.error("binding cancelled");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Status.error("binding interrupted");
      }
    }
  }

  /** Upstream's isPodReadyForBinding: null (ready), WAIT, or the error. */
  private static Status check(
      Instant now, DraManager manager, List<ResourceClaim> claims, Duration timeout) {
    for (ResourceClaim written : claims) {
      String ns = written.getMetadata().getNamespace();
      String name = written.getMetadata().getName();
      ResourceClaim c = manager.getClaim(ns, name).orElse(null);
      if (c == null) {
        return Status.error("resourceclaim.resource.k8s.io \"" + name + "\" not found");
      }
      String failed = failure(c);
      if (failed != null) {
        return Status.error(failed);
      }
      if (!ready(c)) {
        return timedOut(c, now, timeout)
            ? Status.error("claim " + name + " binding timeout")
            : WAIT;
      }
    }
    return null;
  }

  /**
   * Filter's test for an allocated claim (upstream: binding failed, or not ready and timed out):
   * such a claim is unavailable on every node, so PostFilter may deallocate it.
   */
  static boolean unavailable(ResourceClaim c, Instant now, Duration timeout) {
    return failure(c) != null || (!ready(c) && timedOut(c, now, timeout));
  }

  /**
   * Upstream's isClaimReadyForBinding, ready half: every binding condition of every result is True.
   * A result whose device has no status entry yet is not ready.
   */
  static boolean ready(ResourceClaim c) {
    for (DeviceRequestAllocationResult r : results(c)) {
      if (!hasConditions(r)) {
        continue;
      }
      AllocatedDeviceStatus d = deviceStatus(c, r);
      if (d == null) {
        return false;
      }
      for (String want : r.getBindingConditions()) {
        Condition cond = find(d, want);
        if (cond == null || !"True".equals(cond.getStatus())) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Upstream's isClaimReadyForBinding, failure half: the message for the first binding failure
   * condition that is True, or null.
   */
  static String failure(ResourceClaim c) {
    for (DeviceRequestAllocationResult r : results(c)) {
      AllocatedDeviceStatus d = hasConditions(r) ? deviceStatus(c, r) : null;
      if (d == null || r.getBindingFailureConditions() == null) {
        continue;
      }
      for (String f : r.getBindingFailureConditions()) {
        Condition cond = find(d, f);
        if (cond != null && "True".equals(cond.getStatus())) {
          return "claim "
              + c.getMetadata().getName()
              + " binding failed: reason="
              + cond.getReason()
              + ", message=\""
              + Objects.toString(cond.getMessage(), "")
              + "\"";
        }
      }
    }
    return null;
  }

  /**
   * Upstream's isClaimTimeout: a result has binding conditions and {@code allocationTimestamp +
   * timeout} is before {@code now}. A claim without timestamp never times out here.
   */
  static boolean timedOut(ResourceClaim c, Instant now, Duration timeout) {
    if (c.getStatus() == null || c.getStatus().getAllocation() == null) {
      return false;
    }
    String ts = c.getStatus().getAllocation().getAllocationTimestamp();
    if (ts == null || results(c).stream().noneMatch(BindingConditions::hasConditions)) {
      return false;
    }
    try {
      return Instant.parse(ts).plus(timeout).isBefore(now);
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  /** The drivers of the claims' devices that have binding conditions, each once. */
  static java.util.Set<String> drivers(List<ResourceClaim> claims) {
    java.util.Set<String> out = new java.util.TreeSet<>();
    for (ResourceClaim c : claims) {
      for (DeviceRequestAllocationResult r : results(c)) {
        if (hasConditions(r)) {
          out.add(r.getDriver());
        }
      }
    }
    return out;
  }

  private static boolean hasConditions(DeviceRequestAllocationResult r) {
    return r.getBindingConditions() != null && !r.getBindingConditions().isEmpty();
  }

  /** Upstream's getAllocatedDeviceStatus (jdra also matches the share ID of a shared device). */
  private static AllocatedDeviceStatus deviceStatus(
      ResourceClaim c, DeviceRequestAllocationResult r) {
    if (c.getStatus() == null || c.getStatus().getDevices() == null) {
      return null;
    }
    for (AllocatedDeviceStatus d : c.getStatus().getDevices()) {
      if (Objects.equals(d.getDriver(), r.getDriver())
          && Objects.equals(d.getPool(), r.getPool())
          && Objects.equals(d.getDevice(), r.getDevice())
          && Objects.equals(d.getShareID(), r.getShareID())) {
        return d;
      }
    }
    return null;
  }

  private static Condition find(AllocatedDeviceStatus d, String type) {
    if (d.getConditions() == null) {
      return null;
    }
    for (Condition c : d.getConditions()) {
      if (type.equals(c.getType())) {
        return c;
      }
    }
    return null;
  }

  private static List<DeviceRequestAllocationResult> results(ResourceClaim c) {
    if (c.getStatus() == null
        || c.getStatus().getAllocation() == null
        || c.getStatus().getAllocation().getDevices() == null
        || c.getStatus().getAllocation().getDevices().getResults() == null) {
      return List.of();
    }
    return c.getStatus().getAllocation().getDevices().getResults();
  }
}
