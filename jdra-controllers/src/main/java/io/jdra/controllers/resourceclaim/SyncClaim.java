package io.jdra.controllers.resourceclaim;

import static io.jdra.runtime.logging.Klog.kobj;
import static io.jdra.runtime.logging.Klog.kref;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jdra.api.resourceclaim.ClaimCopies;
import io.jdra.api.resourceclaim.PodGroupClaims;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.client.ApiRequests;
import io.jdra.runtime.client.Clients;
import io.jdra.runtime.logging.Logger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Upstream syncClaim: drops {@code reservedFor} entries of pods that are gone, replaced or done;
 * deallocates a claim whose last consumer left (or that is being deleted unused) and removes the
 * finalizer; deletes a generated claim whose pod will not run. Runs in a worker.
 */
final class SyncClaim {
  private final Deps deps;
  private final PodGroupClaim podGroupClaim;

  /**
   * The release writes (status, then finalizer: two per pod of a template) bypass the client's DSL
   * as SyncPod's do (see ApiRequests): the status answer is read without managedFields, which the
   * controller never reads, and the finalizer answer is not read at all.
   */
  private final ApiRequests.Resource<ResourceClaim> claimStatus;

  private final ApiRequests.Resource<Void> claimWrites;

  SyncClaim(Deps deps) {
    this.deps = deps;
    this.podGroupClaim = new PodGroupClaim(deps);
    this.claimStatus =
        new ApiRequests(Clients.withoutManagedFields(deps.client()))
            .resource("resource.k8s.io/v1", "resourceclaims", ResourceClaim.class)
            .subresource("status");
    this.claimWrites =
        new ApiRequests(deps.client()).resource("resource.k8s.io/v1", "resourceclaims", Void.class);
  }

  void sync(Ctx ctx, String namespace, String name) {
    Optional<ResourceClaim> found = deps.claims().get(namespace, name);
    if (found.isEmpty()) {
      ctx.logger().v(5).info("Claim not found");
      return;
    }
    ResourceClaim claim = found.get();
    List<ResourceClaimConsumerReference> reserved = ResourceClaims.reservedFor(claim);
    List<ResourceClaimConsumerReference> valid = new ArrayList<>(reserved.size());
    for (ResourceClaimConsumerReference ref : reserved) {
      if (deps.features().workloadClaims() && PodGroupClaims.isPodGroupReference(ref)) {
        if (keepPodGroupEntry(ctx, claim, ref)) {
          valid.add(ref);
        }
        continue;
      }
      // Consumers that are not pods are opaque here: keep them, still clean up the pods
      // (upstream #136406 made a single such entry block every cleanup).
      if (!ResourceClaims.isPodReference(ref) || keepPodEntry(ctx, claim, ref)) {
        valid.add(ref);
      }
    }
    boolean finalizer = finalizers(claim).contains(ResourceClaims.FINALIZER);
    Logger v5 = ctx.logger().v(5);
    if (v5.enabled()) { // every claim event comes here: no boxing or arrays when off
      v5.info(
          "Claim reserved for counts",
          "currentCount",
          reserved.size(),
          "updatedCount",
          valid.size(),
          "builtinController",
          finalizer);
    }
    if (valid.size() < reserved.size()) {
      release(ctx, claim, valid);
    } else if (finalizer && isDeleting(claim) && valid.isEmpty()) {
      deallocateDeleted(ctx, claim);
    }
    if (valid.isEmpty()) {
      deleteIfPodDone(ctx, claim);
    }
  }

  /**
   * Upstream's three cases for a pod entry: seen deleted (drop), in the informer (drop when
   * replaced or done), unknown to the informer (ask the API server: the scheduler may have reserved
   * the claim for a pod the informer has not delivered yet).
   */
  private boolean keepPodEntry(Ctx ctx, ResourceClaim claim, ResourceClaimConsumerReference ref) {
    String uid = Objects.requireNonNullElse(ref.getUid(), "");
    if (deps.deletedPods().has(uid)) {
      ctx.logger()
          .v(6)
          .info("Remove reservation because pod is known to be deleted", "pod", ref.getName());
      return false;
    }
    String ns = claim.getMetadata().getNamespace();
    Optional<Pod> cached = deps.pods().get(ns, ref.getName());
    if (cached.isEmpty()) {
      Pod live = livePod(ns, ref.getName());
      if (live == null || !uid.equals(Pods.uid(live))) {
        ctx.logger()
            .v(6)
            .info(
                "Remove reservation because pod is gone or got replaced",
                "pod",
                kref(ns, ref.getName()));
        return false;
      }
      return true;
    }
    Pod pod = cached.get();
    if (!uid.equals(Pods.uid(pod))) {
      ctx.logger()
          .v(6)
          .info("Remove reservation because pod got replaced with new instance", "pod", kobj(pod));
      return false;
    }
    if (Pods.isDone(pod)) {
      ctx.logger()
          .v(6)
          .info("Remove reservation because pod will not run anymore", "pod", kobj(pod));
      return false;
    }
    return true;
  }

  /**
   * A PodGroup's reservation (KEP 5729) stays while a pod of the group that may still run uses the
   * claim; once the last one is done or gone the claim can be deallocated (it is deleted with its
   * PodGroup).
   */
  private boolean keepPodGroupEntry(
      Ctx ctx, ResourceClaim claim, ResourceClaimConsumerReference ref) {
    String ns = claim.getMetadata().getNamespace();
    if (podGroupClaim.groupStillUses(ns, ref.getName(), claim.getMetadata().getName())) {
      return true;
    }
    ctx.logger()
        .v(6)
        .info(
            "Remove reservation because no pod of the PodGroup uses the claim any more",
            "podGroup",
            kref(ns, ref.getName()));
    return false;
  }

  private Pod livePod(String namespace, String name) {
    try {
      return deps.client().pods().inNamespace(namespace).withName(name).get();
    } catch (KubernetesClientException e) {
      throw SyncException.wrap("get pod " + namespace + "/" + name, e);
    }
  }

  /**
   * Writes the shorter {@code reservedFor} (an update, so that it fails if anything changed
   * meanwhile). When no consumer is left, the allocation goes in the same write: the claim can be
   * allocated afresh for its next consumer and its devices are free for others. Then the finalizer
   * goes, as nothing protects an unallocated claim.
   */
  private void release(Ctx ctx, ResourceClaim claim, List<ResourceClaimConsumerReference> valid) {
    boolean deallocate = valid.isEmpty() && finalizers(claim).contains(ResourceClaims.FINALIZER);
    ResourceClaim updated = updateStatus(released(claim, valid, deallocate));
    ctx.logger()
        .v(2)
        .info(
            deallocate ? "Deallocated claim" : "Removed reservations",
            "claim",
            kobj(claim),
            "reservedFor",
            valid.size());
    if (updated.getStatus() == null || updated.getStatus().getAllocation() == null) {
      removeFinalizer(ctx, updated);
    }
  }

  /**
   * The claim with only {@code valid} in {@code reservedFor} and, when {@code deallocate}, without
   * allocation and device statuses: new claim and status objects sharing the rest with the
   * informer's claim, which nobody changes (a builder's deep copy of the whole claim cost more than
   * the rest of a release outside the API call).
   */
  static ResourceClaim released(
      ResourceClaim claim, List<ResourceClaimConsumerReference> valid, boolean deallocate) {
    ResourceClaimStatus status = ClaimCopies.status(claim.getStatus());
    status.setReservedFor(new ArrayList<>(valid));
    if (deallocate) {
      status.setAllocation(null);
      status.setDevices(new ArrayList<>());
    }
    return ClaimCopies.with(claim, claim.getMetadata(), status);
  }

  /**
   * A claim being deleted with no consumer: clear a left-over allocation (a claim that stopped
   * being used but stayed allocated), then unblock its removal.
   */
  private void deallocateDeleted(Ctx ctx, ResourceClaim claim) {
    ResourceClaim current = claim;
    if (claim.getStatus() != null && claim.getStatus().getAllocation() != null) {
      current = updateStatus(released(claim, ResourceClaims.reservedFor(claim), true));
      ctx.logger().v(2).info("Deallocated claim being deleted", "claim", kobj(claim));
    }
    removeFinalizer(ctx, current);
  }

  private void removeFinalizer(Ctx ctx, ResourceClaim claim) {
    List<String> finalizers = new ArrayList<>(finalizers(claim));
    if (!finalizers.remove(ResourceClaims.FINALIZER)) {
      return;
    }
    ResourceClaim updated = withoutFinalizer(claim, finalizers);
    try {
      claimWrites.update(
          claim.getMetadata().getNamespace(), claim.getMetadata().getName(), updated);
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        // Deleted meanwhile (by its owner's garbage collection, say): nothing left to release.
        ctx.logger().v(5).info("Claim already gone", "claim", kobj(claim));
        return;
      }
      throw SyncException.wrap("remove finalizer of claim " + kobj(claim), e);
    }
    ctx.logger()
        .v(2)
        .info("Removed finalizer", "claim", kobj(claim), "finalizer", ResourceClaims.FINALIZER);
  }

  /**
   * The claim with these finalizers: new metadata, the rest shared with {@code claim} (the answer
   * of the status write or the informer's claim, which nobody changes).
   */
  static ResourceClaim withoutFinalizer(ResourceClaim claim, List<String> finalizers) {
    ObjectMeta meta = new ObjectMetaBuilder(claim.getMetadata()).withFinalizers(finalizers).build();
    return ClaimCopies.with(claim, meta, claim.getStatus());
  }

  private ResourceClaim updateStatus(ResourceClaim claim) {
    try {
      return claimStatus.update(
          claim.getMetadata().getNamespace(), claim.getMetadata().getName(), claim);
    } catch (KubernetesClientException e) {
      throw SyncException.wrap("update status of claim " + kobj(claim), e);
    }
  }

  /**
   * An unreserved claim generated for a pod (from a template, or for extended resources) is deleted
   * once that pod, as the informer has it, will not run: replaced, terminated or deleted before
   * scheduling. A pod missing from the informer (not arrived yet, or already removed) is left to
   * the garbage collector, as upstream: the claim of a removed pod is its owner's dependent, and
   * deleting it here too would cost a DELETE per pod (and a second, failing one whenever the
   * informer still holds the claim) that upstream's controller does not make.
   */
  private void deleteIfPodDone(Ctx ctx, ResourceClaim claim) {
    OwnerReference owner = ResourceClaims.owningPod(claim);
    if (owner == null) {
      ctx.logger().v(5).info("Claim not generated for a pod", "claim", kobj(claim));
      return;
    }
    String ns = claim.getMetadata().getNamespace();
    Optional<Pod> pod = deps.pods().get(ns, owner.getName());
    if (pod.isEmpty()) {
      ctx.logger()
          .v(5)
          .info("Pod for claim not found", "claim", kobj(claim), "pod", kref(ns, owner.getName()));
      return;
    }
    boolean done = !Objects.equals(Pods.uid(pod.get()), owner.getUid()) || Pods.isDone(pod.get());
    if (!done) {
      ctx.logger()
          .v(6)
          .info(
              "Pod may still use the claim, not deleting it",
              "claim",
              kobj(claim),
              "pod",
              kref(ns, owner.getName()));
      return;
    }
    if (isDeleting(claim)) {
      return;
    }
    ctx.logger()
        .v(5)
        .info(
            "Deleting unused generated claim",
            "claim",
            kobj(claim),
            "pod",
            kref(ns, owner.getName()));
    try {
      deps.client()
          .resources(ResourceClaim.class)
          .inNamespace(ns)
          .withName(claim.getMetadata().getName())
          .delete();
    } catch (KubernetesClientException e) {
      throw SyncException.wrap("delete claim " + kobj(claim), e);
    }
  }

  private static boolean isDeleting(ResourceClaim claim) {
    return claim.getMetadata().getDeletionTimestamp() != null;
  }

  private static List<String> finalizers(ResourceClaim claim) {
    List<String> f = claim.getMetadata().getFinalizers();
    return f == null ? List.of() : f;
  }
}
