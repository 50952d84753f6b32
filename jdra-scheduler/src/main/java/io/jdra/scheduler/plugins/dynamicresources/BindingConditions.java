package io.jdra.scheduler.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.runtime.Ctx;
import io.jdra.scheduler.framework.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * DRADeviceBindingConditions in PreBind: a device allocated with {@code bindingConditions} may be
 * used only once a driver set each of them True in {@code status.devices[].conditions}; any of its
 * {@code bindingFailureConditions} True fails the binding; {@code bindingTimeout} bounds the wait.
 * Polled every 5 seconds, as upstream.
 */
final class BindingConditions {
  static final Duration POLL_INTERVAL = Duration.ofSeconds(5);

  private BindingConditions() {}

  static boolean any(List<ResourceClaim> claims) {
    for (ResourceClaim c : claims) {
      for (DeviceRequestAllocationResult r : results(c)) {
        if (r.getBindingConditions() != null && !r.getBindingConditions().isEmpty()) {
          return true;
        }
      }
    }
    return false;
  }

  static Status await(Ctx ctx, DraManager manager, List<ResourceClaim> claims, Duration timeout) {
    Instant end = ctx.clock().now().plus(timeout);
    while (true) {
      boolean ready = true;
      for (ResourceClaim written : claims) {
        ResourceClaim c =
            manager
                .getClaim(written.getMetadata().getNamespace(), written.getMetadata().getName())
                .orElse(null);
        if (c == null) {
          return Status.error("claim " + DraManager.key(written) + " was deleted");
        }
        Boolean r = check(c);
        if (r == null) {
          return Status.error(
              "claim "
                  + DraManager.key(c)
                  + ": binding failed (a binding failure condition is True)");
        }
        ready &= r;
      }
      if (ready) {
        return null;
      }
      if (!ctx.clock().now().isBefore(end)) {
        return Status.error("binding timeout: device binding conditions are not met");
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

  /** True: every binding condition met; false: not yet; null: a failure condition is True. */
  static Boolean check(ResourceClaim c) {
    boolean all = true;
    for (DeviceRequestAllocationResult r : results(c)) {
      List<String> conds = r.getBindingConditions();
      if (conds == null || conds.isEmpty()) {
        continue;
      }
      List<Condition> have = conditions(c, r);
      if (r.getBindingFailureConditions() != null) {
        for (String f : r.getBindingFailureConditions()) {
          if (isTrue(have, f)) {
            return null;
          }
        }
      }
      for (String want : conds) {
        all &= isTrue(have, want);
      }
    }
    return all;
  }

  private static List<Condition> conditions(ResourceClaim c, DeviceRequestAllocationResult r) {
    if (c.getStatus() == null || c.getStatus().getDevices() == null) {
      return List.of();
    }
    for (AllocatedDeviceStatus d : c.getStatus().getDevices()) {
      if (Objects.equals(d.getDriver(), r.getDriver())
          && Objects.equals(d.getPool(), r.getPool())
          && Objects.equals(d.getDevice(), r.getDevice())
          && Objects.equals(d.getShareID(), r.getShareID())) {
        return d.getConditions() == null ? List.of() : d.getConditions();
      }
    }
    return List.of();
  }

  private static boolean isTrue(List<Condition> conds, String type) {
    for (Condition c : conds) {
      if (type.equals(c.getType())) {
        return "True".equals(c.getStatus());
      }
    }
    return false;
  }

  private static List<DeviceRequestAllocationResult> results(ResourceClaim c) {
    if (c.getStatus() == null
        || c.getStatus().getAllocation() == null
        || c.getStatus().getAllocation().getDevices() == null) {
      return List.of();
    }
    return c.getStatus().getAllocation().getDevices().getResults();
  }
}
