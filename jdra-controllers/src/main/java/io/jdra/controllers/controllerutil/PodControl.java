package io.jdra.controllers.controllerutil;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

/**
 * Creates and deletes pods for a controller (upstream's {@code PodControlInterface}). The real
 * implementation records upstream's events about the controller object: {@code SuccessfulCreate}
 * ("Created pod: NAME"), {@code FailedCreate} ("Error creating: ERR"), {@code SuccessfulDelete}
 * ("Deleted pod: NAME"), {@code FailedDelete} ("Error deleting: ERR").
 */
public interface PodControl {
  String SUCCESSFUL_CREATE_POD_REASON = "SuccessfulCreate";
  String FAILED_CREATE_POD_REASON = "FailedCreate";
  String SUCCESSFUL_DELETE_POD_REASON = "SuccessfulDelete";
  String FAILED_DELETE_POD_REASON = "FailedDelete";

  /**
   * Creates a pod from {@code template} in {@code namespace}, named {@code generateName} plus a
   * random suffix, owned by {@code controllerRef}; {@code finalizers} are added to the template's.
   *
   * @return the created pod
   * @throws RuntimeException the API error (the event is already recorded)
   */
  Pod createPod(
      String namespace,
      PodTemplateSpec template,
      HasMetadata controller,
      OwnerReference controllerRef,
      String generateName,
      java.util.List<String> finalizers);

  /**
   * Deletes the pod.
   *
   * @throws NotFoundException when it is gone already (no event)
   * @throws RuntimeException the API error (the event is already recorded)
   */
  void deletePod(String namespace, String name, HasMetadata controller);

  /** The pod to delete did not exist any more. */
  final class NotFoundException extends RuntimeException {
    public NotFoundException(String message) {
      super(message);
    }
  }
}
