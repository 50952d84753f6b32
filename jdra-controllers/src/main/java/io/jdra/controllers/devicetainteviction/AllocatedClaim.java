package io.jdra.controllers.devicetainteviction;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;

/**
 * An allocated ResourceClaim and, if its devices carry NoExecute taints that its tolerations do not
 * tolerate forever, when pods using it must be evicted (null: never). The allocation is immutable,
 * so the eviction only changes with taints. Immutable.
 */
record AllocatedClaim(ResourceClaim claim, Eviction eviction) {}
