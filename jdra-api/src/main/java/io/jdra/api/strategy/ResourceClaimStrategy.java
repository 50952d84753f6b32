package io.jdra.api.strategy;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpecBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatusBuilder;
import io.jdra.api.features.FeatureGates;
import java.util.Objects;

/**
 * What the API server does to a ResourceClaim write before validating and storing it (upstream
 * {@code pkg/registry/resource/resourceclaim/strategy.go}, {@code PrepareForCreate} and {@code
 * PrepareForUpdate} of the main and the {@code /status} strategy).
 *
 * <p>Pure functions: each returns a new claim and never modifies its arguments. Apply {@link
 * io.jdra.api.defaulting.Defaults#resourceClaim} to the request body first. Stateless and
 * thread-safe. The generation of claims is not managed (as upstream).
 */
public final class ResourceClaimStrategy {
  private ResourceClaimStrategy() {}

  /** Create: the status is reset (users cannot set it) and disabled spec fields are dropped. */
  public static ResourceClaim prepareForCreate(ResourceClaim claim, FeatureGates gates) {
    Objects.requireNonNull(claim, "claim");
    ResourceClaim copy =
        new ResourceClaimBuilder(claim).withStatus(new ResourceClaimStatus()).build();
    return DropDisabledFields.forCreate(copy, gates);
  }

  /**
   * {@link #prepareForCreate} without the copy: modifies and returns {@code claim}. For callers
   * that own a freshly decoded object (the API server's admission).
   */
  public static ResourceClaim prepareForCreateInPlace(ResourceClaim claim, FeatureGates gates) {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(gates, "gates");
    claim.setStatus(new ResourceClaimStatus());
    ClaimSpecFields.dropInPlace(claim.getSpec(), null, gates);
    ClaimStatusFields.dropInPlace(claim, null, gates);
    return claim;
  }

  /**
   * Update of the main resource: the stored status is kept (status changes only go through {@code
   * /status}) and disabled spec fields are dropped unless the stored claim used them.
   */
  public static ResourceClaim prepareForUpdate(
      ResourceClaim claim, ResourceClaim old, FeatureGates gates) {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(old, "old");
    ResourceClaimStatus oldStatus =
        old.getStatus() == null
            ? new ResourceClaimStatus()
            : new ResourceClaimStatusBuilder(old.getStatus()).build();
    ResourceClaim copy = new ResourceClaimBuilder(claim).withStatus(oldStatus).build();
    return DropDisabledFields.forUpdate(copy, old, gates);
  }

  /**
   * Update through {@code /status}: the stored spec and the metadata a status write cannot change
   * are kept; disabled status fields are dropped unless the stored claim used them; then {@code
   * status.devices} entries of devices that are no longer allocated are removed.
   */
  public static ResourceClaim prepareForStatusUpdate(
      ResourceClaim claim, ResourceClaim old, FeatureGates gates) {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(old, "old");
    ResourceClaimBuilder b = new ResourceClaimBuilder(claim);
    b.withSpec(old.getSpec() == null ? null : new ResourceClaimSpecBuilder(old.getSpec()).build());
    b.withMetadata(Meta.resetForStatus(claim.getMetadata(), old.getMetadata()));
    ResourceClaim dropped = DropDisabledFields.forUpdate(b.build(), old, gates);
    ClaimStatusFields.dropDeallocatedDevicesInPlace(dropped, old, gates);
    return dropped;
  }

  /**
   * {@link #prepareForUpdate} with {@code claim} modified and returned instead of copied (the
   * stored status is still copied, so {@code old} is not modified). For callers that own freshly
   * decoded objects (the API server's admission).
   */
  public static ResourceClaim prepareForUpdateInPlace(
      ResourceClaim claim, ResourceClaim old, FeatureGates gates) {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(old, "old");
    Objects.requireNonNull(gates, "gates");
    claim.setStatus(
        old.getStatus() == null
            ? new ResourceClaimStatus()
            : new ResourceClaimStatusBuilder(old.getStatus()).build());
    ClaimSpecFields.dropInPlace(claim.getSpec(), old.getSpec(), gates);
    ClaimStatusFields.dropInPlace(claim, old, gates);
    return claim;
  }

  /**
   * {@link #prepareForStatusUpdate} with {@code claim} modified and returned instead of copied: it
   * gets the stored spec and the stored metadata a status write cannot change ({@code old} is not
   * modified, though {@code claim} may then share metadata values with it). The spec is a copy when
   * a disabled gate may drop fields of it, else the stored spec itself (nothing here changes it
   * then): callers must not modify the returned claim's spec. For callers that own freshly decoded
   * objects (the API server's admission).
   */
  public static ResourceClaim prepareForStatusUpdateInPlace(
      ResourceClaim claim, ResourceClaim old, FeatureGates gates) {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(old, "old");
    Objects.requireNonNull(gates, "gates");
    claim.setMetadata(Meta.resetForStatusInPlace(claim.getMetadata(), old.getMetadata()));
    if (old.getSpec() == null || ClaimSpecFields.dropsNothing(gates)) {
      // the status writes of every claim: copying the spec through builders cost more than the
      // rest of this method
      claim.setSpec(old.getSpec());
    } else {
      claim.setSpec(new ResourceClaimSpecBuilder(old.getSpec()).build());
      ClaimSpecFields.dropInPlace(claim.getSpec(), old.getSpec(), gates);
    }
    ClaimStatusFields.dropInPlace(claim, old, gates);
    ClaimStatusFields.dropDeallocatedDevicesInPlace(claim, old, gates);
    return claim;
  }
}
