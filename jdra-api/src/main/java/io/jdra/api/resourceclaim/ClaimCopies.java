package io.jdra.api.resourceclaim;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;

/**
 * Shallow copies of claims for writes: new claim and status objects that share everything they do
 * not replace with the claim they come from. An informer's claims are never changed, so a write
 * that replaces a field needs new objects only along the path to it; a builder's deep copy of the
 * whole claim cost the scheduler's binding and the ResourceClaim controller's release more than the
 * rest of their work outside the API call.
 */
public final class ClaimCopies {
  private ClaimCopies() {}

  /**
   * A new status with {@code old}'s allocation, devices, reservedFor and unknown properties (the
   * same objects, not copies); an empty status when {@code old} is null.
   */
  public static ResourceClaimStatus status(ResourceClaimStatus old) {
    if (old == null) {
      return new ResourceClaimStatus();
    }
    ResourceClaimStatus out =
        new ResourceClaimStatus(old.getAllocation(), old.getDevices(), old.getReservedFor());
    old.getAdditionalProperties().forEach(out::setAdditionalProperty);
    return out;
  }

  /**
   * A new claim with this metadata and status, and {@code claim}'s apiVersion, kind, spec and
   * unknown properties (the same objects, not copies).
   */
  public static ResourceClaim with(
      ResourceClaim claim, ObjectMeta metadata, ResourceClaimStatus status) {
    ResourceClaim out =
        new ResourceClaim(
            claim.getApiVersion(), claim.getKind(), metadata, claim.getSpec(), status);
    claim.getAdditionalProperties().forEach(out::setAdditionalProperty);
    return out;
  }
}
