package io.jdra.controllers.devicetainteviction;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.Optional;

/**
 * The API calls the controller's workers make. Every method blocks and may throw a {@link
 * RuntimeException} for a failed call (the work item is then retried with backoff); "not found"
 * outcomes are results, not exceptions. Implementations are thread-safe.
 */
interface EvictionClient {
  /** The pod as the API server has it now (not from a cache), empty when it does not exist. */
  Optional<Pod> getPod(String namespace, String name);

  /**
   * Sets the condition in the pod's status (merged by type, as a strategic merge patch does) with
   * the pod's UID as precondition.
   */
  void setPodCondition(Pod pod, PodCondition condition);

  /**
   * Deletes the pod with a UID precondition. Returns false when there is nothing to delete: the pod
   * is gone or the name now belongs to another pod.
   */
  boolean deletePod(PodRef pod);

  /**
   * Writes the condition into the DeviceTaintRule's status by server-side apply as {@code
   * fieldManager} (forced), with the rule's UID in the applied object so that a re-created rule of
   * the same name is not touched. Returns false when the rule is gone or replaced.
   */
  boolean applyRuleCondition(String name, String uid, Condition condition, String fieldManager);
}
