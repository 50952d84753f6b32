package io.jdra.controllers.controllerutil;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Pod state as upstream's {@code podutil} and {@code controller_utils.go} read it. Stateless. */
public final class PodUtil {
  /** Upstream's pod deletion cost annotation (lower cost: deleted first on scale-down). */
  public static final String POD_DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";

  private PodUtil() {}

  public static String phase(Pod p) {
    return p.getStatus() == null || p.getStatus().getPhase() == null
        ? ""
        : p.getStatus().getPhase();
  }

  public static boolean isTerminating(Pod p) {
    return p.getMetadata().getDeletionTimestamp() != null;
  }

  /** Upstream's {@code IsPodActive}: not finished and not being deleted. */
  public static boolean isPodActive(Pod p) {
    String phase = phase(p);
    return !phase.equals("Succeeded") && !phase.equals("Failed") && !isTerminating(p);
  }

  /** Upstream's {@code IsPodTerminal}. */
  public static boolean isPodTerminal(Pod p) {
    String phase = phase(p);
    return phase.equals("Succeeded") || phase.equals("Failed");
  }

  /** The pod's condition of this type, or null. */
  public static PodCondition condition(Pod p, String type) {
    if (p.getStatus() == null || p.getStatus().getConditions() == null) {
      return null;
    }
    for (PodCondition c : p.getStatus().getConditions()) {
      if (type.equals(c.getType())) {
        return c;
      }
    }
    return null;
  }

  /** Upstream's {@code IsPodReady}: condition Ready is True. */
  public static boolean isPodReady(Pod p) {
    PodCondition c = condition(p, "Ready");
    return c != null && "True".equals(c.getStatus());
  }

  /** When the pod became ready, or null when it is not ready or the time is unknown. */
  public static Instant podReadyTime(Pod p) {
    PodCondition c = condition(p, "Ready");
    if (c == null || !"True".equals(c.getStatus())) {
      return null;
    }
    return time(c.getLastTransitionTime());
  }

  /**
   * Upstream's {@code IsPodAvailable}: ready, and (with {@code minReadySeconds}) ready for longer
   * than that at {@code now}.
   */
  public static boolean isPodAvailable(Pod p, int minReadySeconds, Instant now) {
    if (!isPodReady(p)) {
      return false;
    }
    if (minReadySeconds == 0) {
      return true;
    }
    Instant ready = podReadyTime(p);
    return ready != null && ready.plus(Duration.ofSeconds(minReadySeconds)).isBefore(now);
  }

  /** An API time ({@code metav1.Time}): RFC 3339 in whole seconds, as upstream serialises it. */
  public static String format(Instant t) {
    return t.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
  }

  /** An RFC 3339 time of the API, or null. */
  public static Instant time(String s) {
    return s == null || s.isEmpty() ? null : Instant.parse(s);
  }

  /** Upstream's deletion cost: the annotation as int32, 0 when absent or malformed. */
  public static int deletionCost(Pod p) {
    Map<String, String> a = p.getMetadata().getAnnotations();
    String v = a == null ? null : a.get(POD_DELETION_COST);
    if (v == null) {
      return 0;
    }
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  static int maxContainerRestarts(Pod p) {
    int max = 0;
    List<ContainerStatus> statuses =
        p.getStatus() == null ? null : p.getStatus().getContainerStatuses();
    if (statuses != null) {
      for (ContainerStatus s : statuses) {
        if (s.getRestartCount() != null) {
          max = Math.max(max, s.getRestartCount());
        }
      }
    }
    return max;
  }

  /** "namespace/name", the key of pods in expectations and queues. */
  public static String key(Pod p) {
    return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
  }
}
