package io.jdra.scheduler.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.ContainerExtendedResourceRequest;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodExtendedResourceClaimStatus;
import io.fabric8.kubernetes.api.model.PodExtendedResourceClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.jdra.api.resourceclaim.ClaimCopies;
import io.jdra.api.resourceclaim.PodGroupClaims;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.client.ApiRequests;
import io.jdra.runtime.client.JsonMember;
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

  /**
   * The finalizer write, whose answer is kept as JSON text for the status write that follows (see
   * {@link #withStatus(String, String)}).
   */
  private final ApiRequests.Resource<String> claimTexts;

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
    this.claimTexts =
        new ApiRequests(client).resource("resource.k8s.io/v1", "resourceclaims", String.class);
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
    // The claim as stored after the finalizer write, as JSON; null when none was needed.
    String stored = null;
    if (allocated != null) {
      boolean hasAllocation =
          claim.getStatus() != null && claim.getStatus().getAllocation() != null;
      if (hasAllocation
          && !Objects.equals(
              claim.getStatus().getAllocation(), allocated.getStatus().getAllocation())) {
        throw new IllegalStateException("claim got allocated elsewhere in the meantime");
      }
      List<String> fins = claim.getMetadata().getFinalizers();
      if (fins == null || !fins.contains(ResourceClaims.FINALIZER)) {
        stored = claimTexts.update(namespace(claim), name(claim), withFinalizer(claim));
        ctx.logger().v(5).info("Added finalizer to claim", "claim", DraManager.key(claim));
      }
    } else if (claim.getStatus() == null || claim.getStatus().getAllocation() == null) {
      throw new IllegalStateException("claim is not allocated any more");
    }
    // A write of the claim itself leaves its status as it was (the API server keeps the stored
    // status, which was this claim's: the write carried its resourceVersion).
    if (!ResourceClaims.canBeReserved(claim)) {
      throw new IllegalStateException("claim cannot be reserved for more pods");
    }
    List<ResourceClaimConsumerReference> reserved =
        new ArrayList<>(ResourceClaims.reservedFor(claim));
    reserved.add(consumer);
    ResourceClaimStatus status =
        status(
            claim.getStatus(),
            allocated != null
                ? allocated.getStatus().getAllocation()
                : claim.getStatus().getAllocation(),
            reserved);
    Object body;
    if (stored != null) {
      body = withStatus(stored, client.getKubernetesSerialization().asJson(status));
    } else {
      body = withStatus(claim, status);
    }
    ResourceClaim written = claimStatus.update(namespace(claim), name(claim), body);
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

  private static String namespace(ResourceClaim claim) {
    return claim.getMetadata().getNamespace();
  }

  private static String name(ResourceClaim claim) {
    return claim.getMetadata().getName();
  }

  /**
   * The claim with the scheduler's finalizer added: new metadata, the rest shared with the
   * informer's claim (nobody changes those objects); a builder copied the whole claim.
   */
  static ResourceClaim withFinalizer(ResourceClaim claim) {
    ObjectMeta meta = new ObjectMetaBuilder(claim.getMetadata()).build();
    List<String> fins =
        new ArrayList<>(meta.getFinalizers() == null ? List.of() : meta.getFinalizers());
    fins.add(ResourceClaims.FINALIZER);
    meta.setFinalizers(fins);
    ResourceClaim out =
        new ResourceClaim(
            claim.getApiVersion(), claim.getKind(), meta, claim.getSpec(), claim.getStatus());
    claim.getAdditionalProperties().forEach(out::setAdditionalProperty);
    return out;
  }

  /** The claim with this status, sharing everything else with it. */
  static ResourceClaim withStatus(ResourceClaim claim, ResourceClaimStatus status) {
    ResourceClaim out =
        new ResourceClaim(
            claim.getApiVersion(), claim.getKind(), claim.getMetadata(), claim.getSpec(), status);
    claim.getAdditionalProperties().forEach(out::setAdditionalProperty);
    return out;
  }

  /**
   * The stored claim's JSON with the new status (JSON), as a body for the status write: its
   * metadata as the API server answered, neither decoded into a claim or a tree nor encoded again.
   * The status takes the stored one's place, or goes last ({@link JsonMember}): the text of the
   * stored claim's members and the status put in a map, the body sent before
   * (ApiClaimWriterBodyTest).
   */
  static String withStatus(String stored, String status) {
    return JsonMember.with(stored, "status", status);
  }

  /** {@code old} (may be null) with this allocation and reservedFor; its other fields kept. */
  static ResourceClaimStatus status(
      ResourceClaimStatus old,
      AllocationResult allocation,
      List<ResourceClaimConsumerReference> reserved) {
    ResourceClaimStatus out = ClaimCopies.status(old);
    out.setAllocation(allocation);
    out.setReservedFor(reserved);
    return out;
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
