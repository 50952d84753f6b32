package io.jdra.scheduler.framework;

/**
 * jdra addition (not upstream): a plugin that can say in one sentence why the pod did not fit, for
 * the FailedScheduling event and the PodScheduled condition (DynamicResources summarises the
 * allocator's explanation). Called on the scheduling thread after Filter rejected every node.
 */
public interface ExplainsFailure extends Plugin {
  /** A short explanation, or null when this plugin did not reject the pod. */
  String explainFailure(CycleState state, PodInfo pod);
}
