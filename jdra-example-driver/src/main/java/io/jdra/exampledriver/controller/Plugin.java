package io.jdra.exampledriver.controller;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.Ctx;

/**
 * Upstream dra-example-controller's {@code Plugin}: one piece of work on a ResourceClaim that is
 * allocated (at least in part) for the controller's driver. Each plugin writes what it changes
 * itself, so plugins stay independent of each other.
 *
 * <p>Contract: {@link #reconcile} is called from the reconciler's worker with the claim as the
 * informer cache holds it; the claim must not be modified (copy before changing). It runs again for
 * every change of the claim, so it must be idempotent and do nothing when nothing is left to do.
 * Throwing has the claim retried with backoff (a 409 Conflict included: the next attempt sees the
 * newer claim).
 */
public interface Plugin {
  /** The name {@code --enable-plugin} selects it by. */
  String name();

  void reconcile(Ctx ctx, KubernetesClient client, ResourceClaim claim);
}
