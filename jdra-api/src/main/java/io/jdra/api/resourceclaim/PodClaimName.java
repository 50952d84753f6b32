package io.jdra.api.resourceclaim;

/**
 * The outcome of {@link ResourceClaims#name}: which ResourceClaim a pod's {@code
 * spec.resourceClaims} entry refers to. Mirrors upstream {@code resourceclaim.Name}'s three
 * outcomes (name, nil name, error). Immutable.
 */
public sealed interface PodClaimName {

  /**
   * The claim exists under {@code name}. When {@code mustCheckOwner} is true the claim was
   * generated from a template, and callers must confirm with {@link ResourceClaims#isForPod} that
   * the claim they fetched was created for this pod before using it.
   */
  record Named(String name, boolean mustCheckOwner) implements PodClaimName {}

  /**
   * The ResourceClaim was intentionally not created (the pod status lists the entry without a claim
   * name); the pod's claim entry can be ignored.
   */
  record NotNeeded() implements PodClaimName {}

  /**
   * No name can be determined: the claim was not created yet, or the entry sets none of the
   * supported fields. {@code message} is upstream's error text, e.g. {@code Pod default/p1:
   * ResourceClaim not created yet}.
   */
  record Unavailable(Reason reason, String message) implements PodClaimName {}

  /** Why no claim name is available; the messages are upstream's sentinel errors. */
  enum Reason {
    /** Upstream {@code ErrClaimNotFound}: the claim for a template has not been created yet. */
    CLAIM_NOT_FOUND("ResourceClaim not created yet"),
    /** Upstream {@code ErrAPIUnsupported}: the entry sets none of the supported fields. */
    API_UNSUPPORTED("none of the supported fields are set");

    private final String text;

    Reason(String text) {
      this.text = text;
    }

    /** The sentinel error text. */
    public String text() {
      return text;
    }
  }
}
