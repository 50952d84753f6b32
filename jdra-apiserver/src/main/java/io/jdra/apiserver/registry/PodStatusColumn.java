package io.jdra.apiserver.registry;

import tools.jackson.databind.JsonNode;

/**
 * The STATUS column of {@code kubectl get pods}, computed as upstream's pod printer does: the
 * phase, or the pod's reason, then {@code SchedulingGated}, then the first init container that has
 * not finished ({@code Init:N/M}, {@code Init:<reason>}), then the last container's waiting or
 * terminated reason ({@code Completed}, {@code Error}, {@code CrashLoopBackOff}, {@code
 * ExitCode:N}), {@code Running}/{@code NotReady} for a completed container beside running ones, and
 * finally {@code Terminating} (or {@code Unknown} on a lost node) for a deleted pod that has not
 * ended. Stateless; the object in the storage version.
 */
final class PodStatusColumn {
  private PodStatusColumn() {}

  static String of(JsonNode pod) {
    JsonNode status = pod.path("status");
    String reason = orElse(text(status.path("reason")), text(status.path("phase")));
    if (hasCondition(status, "PodScheduled", null, "SchedulingGated")) {
      reason = "SchedulingGated";
    }
    String init = initReason(pod);
    if (init != null) {
      reason = init;
    }
    if (init == null || hasCondition(status, "Initialized", "True", null)) {
      reason = containersReason(status, reason);
    }
    boolean deleted = text(pod.at("/metadata/deletionTimestamp")) != null;
    if (deleted && "NodeLost".equals(text(status.path("reason")))) {
      return "Unknown";
    }
    String phase = text(status.path("phase"));
    if (deleted && !"Succeeded".equals(phase) && !"Failed".equals(phase)) {
      return "Terminating";
    }
    return reason == null ? "Unknown" : reason;
  }

  /** The reason of the first init container still initializing the pod, or null when none is. */
  private static String initReason(JsonNode pod) {
    JsonNode statuses = pod.at("/status/initContainerStatuses");
    int total = pod.at("/spec/initContainers").size();
    for (int i = 0; i < statuses.size(); i++) {
      JsonNode c = statuses.get(i);
      JsonNode terminated = c.at("/state/terminated");
      if (terminated.isObject() && terminated.path("exitCode").asInt(0) == 0) {
        continue;
      }
      if (isSidecar(pod, c) && c.path("started").asBoolean(false)) {
        continue;
      }
      if (terminated.isObject()) {
        String r = text(terminated.path("reason"));
        return "Init:" + (r != null ? r : exitText(terminated));
      }
      String waiting = text(c.at("/state/waiting/reason"));
      if (waiting != null && !"PodInitializing".equals(waiting)) {
        return "Init:" + waiting;
      }
      return "Init:" + i + "/" + total;
    }
    return null;
  }

  /** The last container's waiting or terminated reason wins; running ready ones are counted. */
  private static String containersReason(JsonNode status, String reason) {
    JsonNode statuses = status.path("containerStatuses");
    boolean hasRunning = false;
    for (int i = statuses.size() - 1; i >= 0; i--) {
      JsonNode c = statuses.get(i);
      String waiting = text(c.at("/state/waiting/reason"));
      JsonNode terminated = c.at("/state/terminated");
      if (waiting != null) {
        reason = waiting;
      } else if (terminated.isObject()) {
        String r = text(terminated.path("reason"));
        reason = r != null ? r : exitText(terminated);
      } else if (c.path("ready").asBoolean(false) && c.at("/state/running").isObject()) {
        hasRunning = true;
      }
    }
    if ("Completed".equals(reason) && hasRunning) {
      return hasCondition(status, "Ready", "True", null) ? "Running" : "NotReady";
    }
    return reason;
  }

  private static boolean isSidecar(JsonNode pod, JsonNode initStatus) {
    String name = initStatus.path("name").asString("");
    for (JsonNode c : pod.at("/spec/initContainers")) {
      if (name.equals(c.path("name").asString(null))) {
        return "Always".equals(c.path("restartPolicy").asString(""));
      }
    }
    return false;
  }

  private static String exitText(JsonNode terminated) {
    int signal = terminated.path("signal").asInt(0);
    return signal != 0 ? "Signal:" + signal : "ExitCode:" + terminated.path("exitCode").asInt(0);
  }

  private static boolean hasCondition(JsonNode status, String type, String value, String reason) {
    for (JsonNode c : status.path("conditions")) {
      if (type.equals(c.path("type").asString(""))
          && (value == null || value.equals(c.path("status").asString("")))
          && (reason == null || reason.equals(c.path("reason").asString("")))) {
        return true;
      }
    }
    return false;
  }

  private static String orElse(String a, String b) {
    return a != null ? a : b;
  }

  private static String text(JsonNode n) {
    return n.isMissingNode() || n.isNull() || n.isContainer() || n.asString("").isEmpty()
        ? null
        : n.asString();
  }
}
