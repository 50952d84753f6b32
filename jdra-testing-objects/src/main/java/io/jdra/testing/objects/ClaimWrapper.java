package io.jdra.testing.objects;

import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReferenceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import java.util.ArrayList;
import java.util.List;

/** Builds a ResourceClaim (upstream {@code ResourceClaimWrapper}). */
public final class ClaimWrapper {
  private final ResourceClaimBuilder b = new ResourceClaimBuilder();
  private final List<DeviceRequest> requests = new ArrayList<>();
  private final List<DeviceConstraint> constraints = new ArrayList<>();
  private final List<ResourceClaimConsumerReference> reservedFor = new ArrayList<>();
  private AllocationResult allocation;

  ClaimWrapper(String name) {
    b.withNewMetadata().withName(name).endMetadata();
  }

  public ClaimWrapper namespace(String ns) {
    b.editMetadata().withNamespace(ns).endMetadata();
    return this;
  }

  public ClaimWrapper uid(String uid) {
    b.editMetadata().withUid(uid).endMetadata();
    return this;
  }

  public ClaimWrapper resourceVersion(String rv) {
    b.editMetadata().withResourceVersion(rv).endMetadata();
    return this;
  }

  public ClaimWrapper labels(String... kv) {
    b.editMetadata().addToLabels(Make.pairs(kv)).endMetadata();
    return this;
  }

  public ClaimWrapper annotations(String... kv) {
    b.editMetadata().addToAnnotations(Make.pairs(kv)).endMetadata();
    return this;
  }

  public ClaimWrapper finalizers(String... f) {
    b.editMetadata().addToFinalizers(f).endMetadata();
    return this;
  }

  public ClaimWrapper deletionTimestamp(String time) {
    b.editMetadata().withDeletionTimestamp(time).endMetadata();
    return this;
  }

  /** A controlling owner reference to a pod, as the ResourceClaim controller sets it. */
  public ClaimWrapper ownerPod(String podName, String podUid) {
    b.editMetadata()
        .addToOwnerReferences(
            new OwnerReferenceBuilder()
                .withApiVersion("v1")
                .withKind("Pod")
                .withName(podName)
                .withUid(podUid)
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build())
        .endMetadata();
    return this;
  }

  /**
   * A request for one device of the class, named "req-N" (N counts from 0), as upstream's {@code
   * Request(deviceClassName)}.
   */
  public ClaimWrapper request(String deviceClassName) {
    return request("req-" + requests.size(), deviceClassName, 1);
  }

  public ClaimWrapper request(String name, String deviceClassName, long count) {
    return requests(Requests.exactly(name, deviceClassName, count));
  }

  public ClaimWrapper requests(DeviceRequest... r) {
    requests.addAll(List.of(r));
    return this;
  }

  public ClaimWrapper constraints(DeviceConstraint... c) {
    constraints.addAll(List.of(c));
    return this;
  }

  public ClaimWrapper allocation(AllocationResult a) {
    this.allocation = a;
    return this;
  }

  /** An allocation of one device per request on {@code node}, from the pool named after it. */
  public ClaimWrapper allocatedOn(String node, String driver, String... devices) {
    return allocation(Allocations.onNode(node, driver, requestNames(), devices));
  }

  public ClaimWrapper reservedFor(ResourceClaimConsumerReference... refs) {
    reservedFor.addAll(List.of(refs));
    return this;
  }

  /** A {@code reservedFor} entry for a pod. */
  public ClaimWrapper reservedForPod(String podName, String podUid) {
    return reservedFor(
        new ResourceClaimConsumerReferenceBuilder()
            .withResource("pods")
            .withName(podName)
            .withUid(podUid)
            .build());
  }

  public ResourceClaim obj() {
    ResourceClaim c = b.build();
    ResourceClaimSpec spec = new ResourceClaimSpec();
    spec.setDevices(new io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim());
    if (!requests.isEmpty()) {
      spec.getDevices().setRequests(new ArrayList<>(requests));
    }
    if (!constraints.isEmpty()) {
      spec.getDevices().setConstraints(new ArrayList<>(constraints));
    }
    c.setSpec(spec);
    if (allocation != null || !reservedFor.isEmpty()) {
      c.setStatus(new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus());
      c.getStatus().setAllocation(allocation);
      if (!reservedFor.isEmpty()) {
        c.getStatus().setReservedFor(new ArrayList<>(reservedFor));
      }
    }
    return new ResourceClaimBuilder(c).build();
  }

  private List<String> requestNames() {
    return requests.stream().map(DeviceRequest::getName).toList();
  }
}
