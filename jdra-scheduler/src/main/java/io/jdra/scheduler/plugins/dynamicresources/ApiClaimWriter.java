package io.jdra.scheduler.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.ContainerExtendedResourceRequest;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodExtendedResourceClaimStatus;
import io.fabric8.kubernetes.api.model.PodExtendedResourceClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.jdra.api.resourceclaim.PodGroupClaims;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.client.ApiRequests;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@link ClaimWriter} over a fabric8 client: Update and UpdateStatus with the resourceVersion
 * precondition, retried on conflict with a fresh GET (upstream {@code retry.RetryOnConflict} with
 * its default backoff of 5 steps).
 */
public final class ApiClaimWriter implements ClaimWriter {
  private static final int RETRIES = 5;

  private final KubernetesClient client;
  private final boolean workloadClaims;

  /**
   * PreBind's two writes per claim (finalizer, then allocation and reservation) go through these,
   * which send what the client's DSL sends without its per-request overhead (see {@link
   * ApiRequests}); they fail with the DSL's exceptions, so conflicts are retried the same way.
   */
  private final ApiRequests.Resource<ResourceClaim> claims;

  private final ApiRequests.Resource<ResourceClaim> claimStatus;

  public ApiClaimWriter(KubernetesClient client) {
    this(client, false);
  }

  /**
   * @param workloadClaims DRAWorkloadResourceClaims: a PodGroup's claim is reserved for the
   *     PodGroup, not for each of its pods
   */
  public ApiClaimWriter(KubernetesClient client, boolean workloadClaims) {
    this.client = client;
    this.workloadClaims = workloadClaims;
    this.claims =
        new ApiRequests(client)
            .resource("resource.k8s.io/v1", "resourceclaims", ResourceClaim.class);
    this.claimStatus = claims.subresource("status");
  }

  @Override
  public ResourceClaim bindClaim(
      Ctx ctx, ResourceClaim claim, ResourceClaim allocated, Pod pod, PodResourceClaim podClaim)
      throws Exception {
    ResourceClaim cur = claim;
    for (int attempt = 0; ; attempt++) {
      try {
        return bindOnce(ctx, cur, allocated, pod, podClaim);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt >= RETRIES) {
          throw e;
        }
        cur = get(claim);
        if (cur == null) {
          throw new IllegalStateException("claim was deleted");
        }
      }
    }
  }

  private ResourceClaim bindOnce(
      Ctx ctx, ResourceClaim claim, ResourceClaim allocated, Pod pod, PodResourceClaim podClaim) {
    ResourceClaimConsumerReference consumer = consumer(pod, podClaim);
    if (ResourceClaims.reservedFor(claim).stream()
        .anyMatch(r -> Objects.equals(r.getUid(), consumer.getUid()))) {
      return claim;
    }
    ResourceClaim cur = claim;
    if (allocated != null) {
      boolean hasAllocation = cur.getStatus() != null && cur.getStatus().getAllocation() != null;
      if (hasAllocation
          && !Objects.equals(
              cur.getStatus().getAllocation(), allocated.getStatus().getAllocation())) {
        throw new IllegalStateException("claim got allocated elsewhere in the meantime");
      }
      List<String> fins = cur.getMetadata().getFinalizers();
      if (fins == null || !fins.contains(ResourceClaims.FINALIZER)) {
        ResourceClaim withFinalizer =
            new ResourceClaimBuilder(cur)
                .editMetadata()
                .addToFinalizers(ResourceClaims.FINALIZER)
                .endMetadata()
                .build();
        cur =
            claims.update(
                withFinalizer.getMetadata().getNamespace(),
                withFinalizer.getMetadata().getName(),
                withFinalizer);
        ctx.logger().v(5).info("Added finalizer to claim", "claim", DraManager.key(cur));
      }
    } else if (cur.getStatus() == null || cur.getStatus().getAllocation() == null) {
      throw new IllegalStateException("claim is not allocated any more");
    }
    if (!ResourceClaims.canBeReserved(cur)) {
      throw new IllegalStateException("claim cannot be reserved for more pods");
    }
    List<ResourceClaimConsumerReference> reserved =
        new ArrayList<>(ResourceClaims.reservedFor(cur));
    reserved.add(consumer);
    ResourceClaimBuilder b = new ResourceClaimBuilder(cur);
    if (allocated != null) {
      b.editOrNewStatus().withAllocation(allocated.getStatus().getAllocation()).endStatus();
    }
    ResourceClaim update = b.editOrNewStatus().withReservedFor(reserved).endStatus().build();
    ResourceClaim written =
        claimStatus.update(
            update.getMetadata().getNamespace(), update.getMetadata().getName(), update);
    ctx.logger()
        .v(5)
        .info(
            "Reserved claim for pod",
            "claim",
            DraManager.key(written),
            "pod",
            pod.getMetadata().getName());
    return written;
  }

  /**
   * Whom the claim is reserved for: the pod, or its PodGroup when the PodGroup lists the pod's
   * claim (DRAWorkloadResourceClaims, upstream's BindTo). The PodGroup is read from the API server
   * (its UID is part of the reference).
   */
  private ResourceClaimConsumerReference consumer(Pod pod, PodResourceClaim podClaim) {
    String group = PodGroupClaims.podGroupName(pod);
    if (workloadClaims && podClaim != null && group != null) {
      GenericKubernetesResource pg =
          client
              .genericKubernetesResources(PodGroupClaims.API_VERSION, PodGroupClaims.KIND)
              .inNamespace(pod.getMetadata().getNamespace())
              .withName(group)
              .get();
      if (pg != null && PodGroupClaims.matches(pg, podClaim)) {
        return PodGroupClaims.reference(group, pg.getMetadata().getUid());
      }
    }
    return ResourceClaims.bindTo(pod, podClaim);
  }

  @Override
  public void removeReservation(Ctx ctx, ResourceClaim claim, Pod pod) throws Exception {
    ResourceClaim cur = claim;
    for (int attempt = 0; ; attempt++) {
      if (cur == null || !ResourceClaims.isReservedForPod(pod, cur)) {
        return;
      }
      List<ResourceClaimConsumerReference> keep = new ArrayList<>();
      for (ResourceClaimConsumerReference r : ResourceClaims.reservedFor(cur)) {
        if (!Objects.equals(r.getUid(), pod.getMetadata().getUid())) {
          keep.add(r);
        }
      }
      try {
        client
            .resource(
                new ResourceClaimBuilder(cur)
                    .editStatus()
                    .withReservedFor(keep)
                    .endStatus()
                    .build())
            .updateStatus();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() == 404) {
          return;
        }
        if (e.getCode() != 409 || attempt >= RETRIES) {
          throw e;
        }
        cur = get(claim);
      }
    }
  }

  @Override
  public void deallocate(Ctx ctx, ResourceClaim claim) throws Exception {
    ResourceClaim update =
        new ResourceClaimBuilder(claim)
            .editOrNewStatus()
            .withAllocation(null)
            .withReservedFor(new ArrayList<>())
            .withDevices(new ArrayList<>())
            .endStatus()
            .build();
    client.resource(update).updateStatus();
    ctx.logger().v(2).info("Deallocated claim", "claim", DraManager.key(claim));
  }

  @Override
  public ResourceClaim createClaim(Ctx ctx, ResourceClaim claim) {
    ResourceClaim fresh =
        new ResourceClaimBuilder()
            .withNewMetadata()
            .withNamespace(claim.getMetadata().getNamespace())
            .withGenerateName(claim.getMetadata().getGenerateName())
            .withOwnerReferences(claim.getMetadata().getOwnerReferences())
            .withAnnotations(claim.getMetadata().getAnnotations())
            .endMetadata()
            .withSpec(claim.getSpec())
            .build();
    return client.resource(fresh).create();
  }

  @Override
  public void deleteClaim(Ctx ctx, ResourceClaim claim) {
    client
        .resources(ResourceClaim.class)
        .inNamespace(claim.getMetadata().getNamespace())
        .withName(claim.getMetadata().getName())
        .delete();
    ctx.logger().v(5).info("Deleted claim", "claim", DraManager.key(claim));
  }

  @Override
  public void setExtendedResourceClaimStatus(
      Ctx ctx, Pod pod, String claimName, List<ContainerExtendedResourceRequest> mappings) {
    PodExtendedResourceClaimStatus st =
        new PodExtendedResourceClaimStatusBuilder()
            .withResourceClaimName(claimName)
            .withRequestMappings(mappings)
            .build();
    String patch =
        Serialization.asJson(Map.of("status", Map.of("extendedResourceClaimStatus", st)));
    client
        .pods()
        .inNamespace(pod.getMetadata().getNamespace())
        .withName(pod.getMetadata().getName())
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
  }

  @Override
  public void setNodeAllocatableResourceClaimStatuses(
      Ctx ctx, Pod pod, List<NodeAllocatableClaims.ClaimStatus> statuses) {
    List<Map<String, Object>> list =
        statuses.stream().map(NodeAllocatableClaims.ClaimStatus::toJson).toList();
    String patch =
        Serialization.asJson(
            Map.of("status", Map.of("nodeAllocatableResourceClaimStatuses", list)));
    client
        .pods()
        .inNamespace(pod.getMetadata().getNamespace())
        .withName(pod.getMetadata().getName())
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
  }

  private ResourceClaim get(ResourceClaim c) {
    return client
        .resources(ResourceClaim.class)
        .inNamespace(c.getMetadata().getNamespace())
        .withName(c.getMetadata().getName())
        .get();
  }
}
