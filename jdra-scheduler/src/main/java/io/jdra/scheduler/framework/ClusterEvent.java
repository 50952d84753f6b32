package io.jdra.scheduler.framework;

/**
 * A change in the cluster that may make pods schedulable (upstream {@code fwk.ClusterEvent}): which
 * kind of object and what happened, as a bit set of actions.
 *
 * @param resource the kind of object
 * @param actions bit set of {@code ADD}, {@code UPDATE_*}, {@code DELETE}
 * @param label short label for metrics and logs, e.g. {@code NodeAdd}
 */
public record ClusterEvent(EventResource resource, int actions, String label) {
  public static final int ADD = 1;
  public static final int DELETE = 1 << 1;
  public static final int UPDATE_NODE_ALLOCATABLE = 1 << 2;
  public static final int UPDATE_NODE_LABEL = 1 << 3;
  public static final int UPDATE_NODE_TAINT = 1 << 4;
  public static final int UPDATE_NODE_CONDITION = 1 << 5;
  public static final int UPDATE_NODE_ANNOTATION = 1 << 6;
  public static final int UPDATE_POD_LABEL = 1 << 7;
  public static final int UPDATE_POD_SCALE_DOWN = 1 << 8;
  public static final int UPDATE_POD_TOLERATIONS = 1 << 9;
  public static final int UPDATE_POD_SCHEDULING_GATES_ELIMINATED = 1 << 10;
  public static final int UPDATE_POD_GENERATED_RESOURCE_CLAIM = 1 << 11;

  /** Any other update. */
  public static final int UPDATE_OTHER = 1 << 12;

  public static final int UPDATE =
      UPDATE_NODE_ALLOCATABLE
          | UPDATE_NODE_LABEL
          | UPDATE_NODE_TAINT
          | UPDATE_NODE_CONDITION
          | UPDATE_NODE_ANNOTATION
          | UPDATE_POD_LABEL
          | UPDATE_POD_SCALE_DOWN
          | UPDATE_POD_TOLERATIONS
          | UPDATE_POD_SCHEDULING_GATES_ELIMINATED
          | UPDATE_POD_GENERATED_RESOURCE_CLAIM
          | UPDATE_OTHER;
  public static final int ALL = ADD | DELETE | UPDATE;

  /** Object kinds events are about (upstream {@code fwk.EventResource}). */
  public enum EventResource {
    /** The pod being scheduled itself (upstream UnschedulablePod / TargetPod). */
    TARGET_POD,
    /** Other pods already assigned to nodes. */
    ASSIGNED_POD,
    NODE,
    RESOURCE_CLAIM,
    RESOURCE_SLICE,
    DEVICE_CLASS,
    DEVICE_TAINT_RULE,
    /** Upstream's wildcard: every event matches it. */
    WILDCARD
  }

  public static ClusterEvent of(EventResource r, int actions, String label) {
    return new ClusterEvent(r, actions, label);
  }

  /** Whether this registered event covers {@code incoming} (same kind, overlapping actions). */
  public boolean matches(ClusterEvent incoming) {
    if (resource == EventResource.WILDCARD || incoming.resource == EventResource.WILDCARD) {
      return true;
    }
    return resource == incoming.resource && (actions & incoming.actions) != 0;
  }

  /** Pods that failed for reasons no event can fix (and the 5 minute flush). */
  public static final ClusterEvent UNSCHEDULABLE_TIMEOUT =
      of(EventResource.WILDCARD, ALL, "UnschedulableTimeout");

  /** Everything may have changed (the scheduler started, a forced move). */
  public static final ClusterEvent FORCE_ACTIVATE =
      of(EventResource.WILDCARD, ALL, "ForceActivate");
}
