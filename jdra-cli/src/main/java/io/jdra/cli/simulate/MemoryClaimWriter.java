package io.jdra.cli.simulate;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.runtime.Ctx;
import io.jdra.scheduler.plugins.dynamicresources.ClaimWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The simulation's API for claims: the store of every claim, with resourceVersions, written by the
 * scheduler's DynamicResources plugin through {@link ClaimWriter} with the same checks as the API
 * writer, and by the simulated ResourceClaim controller. Each write is also queued as an informer
 * event ({@link #drainEvents}), delivered to the scheduler after the attempt that made it, as a
 * watch would deliver it. Single-threaded, as the whole simulation.
 */
final class MemoryClaimWriter implements ClaimWriter {
  /** A write as an informer sees it: old null for an add, new null for a delete. */
  record Change(ResourceClaim oldClaim, ResourceClaim newClaim) {}

  private final Map<String, ResourceClaim> claims = new LinkedHashMap<>();
  private final List<Change> events = new ArrayList<>();
  private long resourceVersion = 1;

  static String key(ResourceClaim c) {
    return c.getMetadata().getNamespace() + "/" + c.getMetadata().getName();
  }

  ResourceClaim get(String key) {
    return claims.get(key);
  }

  ResourceClaim create(ResourceClaim c) {
    ResourceClaim stored = withVersion(c);
    claims.put(key(stored), stored);
    events.add(new Change(null, stored));
    return stored;
  }

  ResourceClaim update(ResourceClaim c) {
    ResourceClaim old = claims.get(key(c));
    if (old == null) {
      throw new IllegalStateException("claim " + key(c) + " not found");
    }
    if (!Objects.equals(
        old.getMetadata().getResourceVersion(), c.getMetadata().getResourceVersion())) {
      throw new IllegalStateException("claim " + key(c) + " was modified (conflict)");
    }
    ResourceClaim stored = withVersion(c);
    claims.put(key(stored), stored);
    events.add(new Change(old, stored));
    return stored;
  }

  void delete(String key) {
    ResourceClaim old = claims.remove(key);
    if (old != null) {
      events.add(new Change(old, null));
    }
  }

  /** The writes since the last call, in order. */
  List<Change> drainEvents() {
    List<Change> out = List.copyOf(events);
    events.clear();
    return out;
  }

  private ResourceClaim withVersion(ResourceClaim c) {
    return new ResourceClaimBuilder(c)
        .editMetadata()
        .withResourceVersion(Long.toString(++resourceVersion))
        .endMetadata()
        .build();
  }

  @Override
  public ResourceClaim bindClaim(
      Ctx ctx, ResourceClaim claim, ResourceClaim allocated, Pod pod, PodResourceClaim podClaim) {
    ResourceClaim cur = claims.get(key(claim));
    if (cur == null) {
      throw new IllegalStateException("claim was deleted");
    }
    if (ResourceClaims.isReservedForPod(pod, cur)) {
      return cur;
    }
    if (allocated != null) {
      boolean has = cur.getStatus() != null && cur.getStatus().getAllocation() != null;
      if (has
          && !Objects.equals(
              cur.getStatus().getAllocation(), allocated.getStatus().getAllocation())) {
        throw new IllegalStateException("claim got allocated elsewhere in the meantime");
      }
      List<String> fins = cur.getMetadata().getFinalizers();
      if (fins == null || !fins.contains(ResourceClaims.FINALIZER)) {
        cur =
            update(
                new ResourceClaimBuilder(cur)
                    .editMetadata()
                    .addToFinalizers(ResourceClaims.FINALIZER)
                    .endMetadata()
                    .build());
      }
    } else if (cur.getStatus() == null || cur.getStatus().getAllocation() == null) {
      throw new IllegalStateException("claim is not allocated any more");
    }
    if (!ResourceClaims.canBeReserved(cur)) {
      throw new IllegalStateException("claim cannot be reserved for more pods");
    }
    List<ResourceClaimConsumerReference> reserved =
        new ArrayList<>(ResourceClaims.reservedFor(cur));
    reserved.add(ResourceClaims.bindTo(pod, podClaim));
    ResourceClaimBuilder b = new ResourceClaimBuilder(cur);
    if (allocated != null) {
      b.editOrNewStatus().withAllocation(allocated.getStatus().getAllocation()).endStatus();
    }
    return update(b.editOrNewStatus().withReservedFor(reserved).endStatus().build());
  }

  @Override
  public ResourceClaim createClaim(Ctx ctx, ResourceClaim claim) {
    String name = claim.getMetadata().getGenerateName() + "x" + (resourceVersion + 1);
    return create(
        new ResourceClaimBuilder(claim)
            .editMetadata()
            .withName(name)
            .withUid(java.util.UUID.randomUUID().toString())
            .endMetadata()
            .withStatus(null)
            .build());
  }

  @Override
  public void deleteClaim(Ctx ctx, ResourceClaim claim) {
    delete(key(claim));
  }

  /** Simulated nodes read no pod status, so there is nothing to record. */
  @Override
  public void setExtendedResourceClaimStatus(
      Ctx ctx,
      Pod pod,
      String claimName,
      List<io.fabric8.kubernetes.api.model.ContainerExtendedResourceRequest> mappings) {}

  /** Simulated nodes read no pod status, so there is nothing to record. */
  @Override
  public void setNodeAllocatableResourceClaimStatuses(
      Ctx ctx,
      Pod pod,
      List<io.jdra.scheduler.plugins.dynamicresources.NodeAllocatableClaims.ClaimStatus>
          statuses) {}

  @Override
  public void removeReservation(Ctx ctx, ResourceClaim claim, Pod pod) {
    ResourceClaim cur = claims.get(key(claim));
    if (cur == null || !ResourceClaims.isReservedForPod(pod, cur)) {
      return;
    }
    List<ResourceClaimConsumerReference> keep = new ArrayList<>();
    for (ResourceClaimConsumerReference r : ResourceClaims.reservedFor(cur)) {
      if (!Objects.equals(r.getUid(), pod.getMetadata().getUid())) {
        keep.add(r);
      }
    }
    update(new ResourceClaimBuilder(cur).editStatus().withReservedFor(keep).endStatus().build());
  }

  @Override
  public void deallocate(Ctx ctx, ResourceClaim claim) {
    ResourceClaim cur = claims.get(key(claim));
    if (cur == null) {
      return;
    }
    update(
        new ResourceClaimBuilder(cur)
            .editOrNewStatus()
            .withAllocation(null)
            .withReservedFor(new ArrayList<>())
            .withDevices(new ArrayList<>())
            .endStatus()
            .build());
  }
}
