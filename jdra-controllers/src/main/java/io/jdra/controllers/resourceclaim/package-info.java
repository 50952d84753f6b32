/**
 * The ResourceClaim controller of kube-controller-manager (upstream {@code
 * pkg/controller/resourceclaim}, Kubernetes 1.36).
 *
 * <p>Map: {@link io.jdra.controllers.resourceclaim.ResourceClaimController} wires informers,
 * indexes ({@code pod-resource-claim-index}, {@code claim-pod-owner-index}), event handlers and
 * workers over one queue ({@code resource_claim}, keys {@code pod:ns/name} and {@code
 * claim:ns/name}); {@code SyncPod} creates claims from templates, records them in {@code
 * pod.status.resourceClaimStatuses} by server-side apply (field manager {@code
 * ResourceClaimController}) and reserves claims for pods that bypassed the scheduler; {@code
 * SyncClaim} cleans {@code status.reservedFor}, deallocates and removes the finalizer {@code
 * resource.kubernetes.io/delete-protection}, and deletes generated claims of finished pods; {@code
 * GeneratedClaims} says what a generated claim looks like; {@code UidCache} remembers deleted pods;
 * {@link io.jdra.controllers.resourceclaim.ResourceClaimMetrics} has upstream's metrics.
 *
 * <p>Decisions about which claim a pod uses come from jdra-api's {@link
 * io.jdra.api.resourceclaim.ResourceClaims}; they are not re-derived here.
 */
package io.jdra.controllers.resourceclaim;
