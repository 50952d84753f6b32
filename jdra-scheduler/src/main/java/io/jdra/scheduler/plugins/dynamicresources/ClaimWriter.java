package io.jdra.scheduler.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.runtime.Ctx;

/**
 * The API writes of DynamicResources. Each call retries on 409 Conflict with a fresh read and
 * throws when it finally fails; none holds a lock of the caller. Called from binding threads
 * (bindClaim, removeReservation) and the scheduling thread (deallocate).
 */
public interface ClaimWriter {
  /**
   * Makes the claim reserved for the pod: when {@code allocated} is non-null first adds the
   * finalizer {@code resource.kubernetes.io/delete-protection} (Update), then writes {@code
   * status.allocation} and appends the pod to {@code status.reservedFor} (UpdateStatus). A claim
   * already reserved for the pod is returned as is. Fails when the claim got another allocation in
   * the meantime.
   *
   * @return the claim as written (for the assume cache)
   */
  ResourceClaim bindClaim(
      Ctx ctx, ResourceClaim claim, ResourceClaim allocated, Pod pod, PodResourceClaim podClaim)
      throws Exception;

  /** Removes the pod from {@code status.reservedFor} (Unreserve). */
  void removeReservation(Ctx ctx, ResourceClaim claim, Pod pod) throws Exception;

  /** Clears allocation, reservedFor and device status (PostFilter). */
  void deallocate(Ctx ctx, ResourceClaim claim) throws Exception;

  /**
   * Creates {@code claim} (its metadata and spec; name from {@code generateName}, no status): the
   * extended-resource claim of a pod.
   *
   * @return the claim as created
   */
  ResourceClaim createClaim(Ctx ctx, ResourceClaim claim) throws Exception;

  /** Deletes the claim if it still exists (an extended-resource claim that did not bind). */
  void deleteClaim(Ctx ctx, ResourceClaim claim) throws Exception;

  /**
   * Writes {@code pod.status.extendedResourceClaimStatus}: the claim's name and which container and
   * resource each of its requests serves.
   */
  void setExtendedResourceClaimStatus(
      Ctx ctx,
      Pod pod,
      String claimName,
      java.util.List<io.fabric8.kubernetes.api.model.ContainerExtendedResourceRequest> mappings)
      throws Exception;

  /**
   * Writes {@code pod.status.nodeAllocatableResourceClaimStatuses} (DRANodeAllocatableResources):
   * what the pod's claims take of the node's cpu, memory and hugepages.
   */
  void setNodeAllocatableResourceClaimStatuses(
      Ctx ctx, Pod pod, java.util.List<NodeAllocatableClaims.ClaimStatus> statuses)
      throws Exception;
}
