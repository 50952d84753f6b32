package io.jdra.kubelet.dra;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReferenceBuilder;
import java.util.ArrayList;
import java.util.List;

/** Small builders for the kubelet's tests: pods with claims, allocated and reserved claims. */
final class Objects {
  private Objects() {}

  /** A pod in {@code default} using the named claims directly, one container using all of them. */
  static Pod pod(String name, String... claims) {
    var b =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace("default")
            .withUid("uid-" + name)
            .endMetadata()
            .withNewSpec()
            .withNodeName("node-1")
            .endSpec();
    var container = new ContainerBuilder().withName("ctr").withImage("ubuntu");
    for (String c : claims) {
      b.editSpec()
          .addToResourceClaims(
              new PodResourceClaimBuilder().withName(c).withResourceClaimName(c).build())
          .endSpec();
      container.editOrNewResources().addNewClaim().withName(c).endClaim().endResources();
    }
    return b.editSpec().addToContainers(container.build()).endSpec().build();
  }

  /** A pod whose claim {@code podClaim} comes from a template, created as {@code claimName}. */
  static Pod templatePod(String name, String podClaim, String claimName) {
    var b =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace("default")
            .withUid("uid-" + name)
            .endMetadata()
            .withNewSpec()
            .addToResourceClaims(
                new PodResourceClaimBuilder()
                    .withName(podClaim)
                    .withResourceClaimTemplateName("tmpl")
                    .build())
            .addNewContainer()
            .withName("ctr")
            .withNewResources()
            .addNewClaim()
            .withName(podClaim)
            .endClaim()
            .endResources()
            .endContainer()
            .endSpec();
    if (claimName != null) {
      b.withNewStatus()
          .addToResourceClaimStatuses(
              new PodResourceClaimStatusBuilder()
                  .withName(podClaim)
                  .withResourceClaimName(claimName)
                  .build())
          .endStatus();
    }
    return b.build();
  }

  /** A claim allocated with one device per driver and reserved for {@code pods}. */
  static ResourceClaim claim(String name, List<String> drivers, Pod... pods) {
    List<io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult> results =
        new ArrayList<>();
    for (String d : drivers) {
      results.add(
          new DeviceRequestAllocationResultBuilder()
              .withDriver(d)
              .withPool("pool")
              .withDevice("dev-" + name)
              .withRequest("req")
              .build());
    }
    var b =
        new ResourceClaimBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace("default")
            .withUid("claim-uid-" + name)
            .endMetadata()
            .withNewSpec()
            .endSpec()
            .withNewStatus()
            .withNewAllocation()
            .withNewDevices()
            .withResults(results)
            .endDevices()
            .endAllocation()
            .endStatus();
    for (Pod p : pods) {
      b.editStatus()
          .addToReservedFor(
              new ResourceClaimConsumerReferenceBuilder()
                  .withResource("pods")
                  .withName(p.getMetadata().getName())
                  .withUid(p.getMetadata().getUid())
                  .build())
          .endStatus();
    }
    return b.build();
  }

  /** {@code claim} owned (as controller) by {@code pod}, as the claim controller creates it. */
  static ResourceClaim ownedBy(ResourceClaim claim, Pod pod) {
    return new ResourceClaimBuilder(claim)
        .editMetadata()
        .addNewOwnerReference()
        .withApiVersion("v1")
        .withKind("Pod")
        .withName(pod.getMetadata().getName())
        .withUid(pod.getMetadata().getUid())
        .withController(true)
        .endOwnerReference()
        .endMetadata()
        .build();
  }

  static ResourceClaim unallocated(ResourceClaim claim) {
    return new ResourceClaimBuilder(claim).editStatus().withAllocation(null).endStatus().build();
  }
}
