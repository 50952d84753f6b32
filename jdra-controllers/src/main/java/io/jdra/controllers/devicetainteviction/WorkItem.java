package io.jdra.controllers.devicetainteviction;

/**
 * What the controller's single work queue carries: a pod that may have to be deleted, or a
 * DeviceTaintRule whose status may have to be updated. Items are only hints: the controller's own
 * state ({@code deletePodAt}, the tracked rules) decides whether and when work is due, so stale
 * items are harmless. Immutable, usable as queue keys.
 */
sealed interface WorkItem {
  /** A pod which may need to be deleted now or later. */
  record PodItem(PodRef pod) implements WorkItem {}

  /** A DeviceTaintRule (cluster-scoped, by name and UID) whose status may need an update. */
  record RuleItem(String name, String uid) implements WorkItem {}
}
