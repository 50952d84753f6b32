package io.jdra.api.versions;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleSpec;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleStatus;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintSelector;
import java.util.ArrayList;

/**
 * DeviceTaintRule between the version Kubernetes 1.36 serves ({@code resource.k8s.io/v1beta2}, the
 * one clients read and watch) and the {@code v1} model the allocator works on. The two versions
 * have the same fields; {@code v1} is served only from 1.37 on.
 */
public final class DeviceTaintRuleVersions {
  private DeviceTaintRuleVersions() {}

  /** The rule as the allocator's {@code v1} model (a copy); null stays null. */
  public static DeviceTaintRule toV1(
      io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRule rule) {
    if (rule == null) {
      return null;
    }
    DeviceTaintRule v1 = new DeviceTaintRule();
    v1.setMetadata(rule.getMetadata());
    if (rule.getSpec() != null) {
      v1.setSpec(
          new DeviceTaintRuleSpec(
              selector(rule.getSpec().getDeviceSelector()), taint(rule.getSpec().getTaint())));
    }
    if (rule.getStatus() != null && rule.getStatus().getConditions() != null) {
      v1.setStatus(new DeviceTaintRuleStatus(new ArrayList<>(rule.getStatus().getConditions())));
    }
    return v1;
  }

  private static DeviceTaintSelector selector(
      io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintSelector s) {
    return s == null ? null : new DeviceTaintSelector(s.getDevice(), s.getDriver(), s.getPool());
  }

  private static DeviceTaint taint(io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaint t) {
    return t == null
        ? null
        : new DeviceTaint(t.getEffect(), t.getKey(), t.getTimeAdded(), t.getValue());
  }
}
