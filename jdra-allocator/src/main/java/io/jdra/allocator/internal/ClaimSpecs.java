package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One token per distinct list of claim specs. An allocation reads nothing of a claim it allocates
 * but its spec, except for the claim's name in errors and explanations and its UID in share IDs
 * (see {@link NodeMemo} for how those are kept out), so claims with equal specs get the same
 * devices in the same state; the scheduler's pods of one template have such claims. Comparing
 * tokens by identity then spares a deep comparison of the specs per node.
 */
final class ClaimSpecs {
  /**
   * Distinct spec lists kept; past that the table starts over (tokens then change: misses only).
   */
  private static final int MAX_ENTRIES = 1024;

  private static final ConcurrentHashMap<List<Object>, Object> TOKENS = new ConcurrentHashMap<>();

  private ClaimSpecs() {}

  /** The token of these claims' specs, in order; equal specs (fabric8's equals) share it. */
  static Object token(List<ResourceClaim> claims) {
    // An ArrayList, which allows the null spec of a claim without one.
    List<Object> specs = new ArrayList<>(claims.size());
    for (ResourceClaim c : claims) {
      specs.add(c.getSpec());
    }
    Object token = TOKENS.get(specs);
    if (token == null) {
      if (TOKENS.size() >= MAX_ENTRIES) {
        TOKENS.clear();
      }
      token = TOKENS.computeIfAbsent(specs, k -> new Object());
    }
    return token;
  }
}
