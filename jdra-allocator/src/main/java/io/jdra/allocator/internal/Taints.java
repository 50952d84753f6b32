package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import java.util.List;

/** Device taints and request tolerations (DRADeviceTaints). */
final class Taints {
  private Taints() {}

  /** The first NoSchedule/NoExecute taint none of the tolerations tolerates, or null. */
  static DeviceTaint untolerated(List<DeviceTaint> taints, List<DeviceToleration> tolerations) {
    if (taints == null) {
      return null;
    }
    for (DeviceTaint taint : taints) {
      String effect = taint.getEffect();
      if (!"NoSchedule".equals(effect) && !"NoExecute".equals(effect)) {
        continue;
      }
      boolean tolerated = false;
      for (DeviceToleration t : tolerations) {
        if (tolerates(t, taint)) {
          tolerated = true;
          break;
        }
      }
      if (!tolerated) {
        return taint;
      }
    }
    return null;
  }

  /** Upstream {@code resourceclaim.ToleratesTaint}. */
  static boolean tolerates(DeviceToleration toleration, DeviceTaint taint) {
    String effect = NodeMatcher.nz(toleration.getEffect());
    if (!effect.isEmpty() && !effect.equals(taint.getEffect())) {
      return false;
    }
    String key = NodeMatcher.nz(toleration.getKey());
    if (!key.isEmpty() && !key.equals(taint.getKey())) {
      return false;
    }
    return switch (NodeMatcher.nz(toleration.getOperator())) {
      case "", "Equal" ->
          NodeMatcher.nz(toleration.getValue()).equals(NodeMatcher.nz(taint.getValue()));
      case "Exists" -> true;
      default -> false;
    };
  }
}
