package io.jdra.testing.objects;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.ResourceClaim;
import java.util.ArrayList;
import java.util.List;

/** Builds a Pod (upstream {@code PodWrapper}). One container "ctr" unless containers are added. */
public final class PodWrapper {
  private final PodBuilder b = new PodBuilder();
  private final List<PodResourceClaim> claims = new ArrayList<>();
  private final List<PodResourceClaimStatus> statuses = new ArrayList<>();
  private final List<io.fabric8.kubernetes.api.model.Container> containers = new ArrayList<>();

  PodWrapper(String name) {
    b.withNewMetadata().withName(name).endMetadata().withNewSpec().endSpec();
  }

  public PodWrapper namespace(String ns) {
    b.editMetadata().withNamespace(ns).endMetadata();
    return this;
  }

  public PodWrapper uid(String uid) {
    b.editMetadata().withUid(uid).endMetadata();
    return this;
  }

  public PodWrapper resourceVersion(String rv) {
    b.editMetadata().withResourceVersion(rv).endMetadata();
    return this;
  }

  public PodWrapper labels(String... kv) {
    b.editMetadata().addToLabels(Make.pairs(kv)).endMetadata();
    return this;
  }

  /** {@code spec.nodeName} (upstream wrapper: {@code Node}). */
  public PodWrapper nodeName(String node) {
    b.editSpec().withNodeName(node).endSpec();
    return this;
  }

  public PodWrapper phase(String phase) {
    b.editOrNewStatus().withPhase(phase).endStatus();
    return this;
  }

  /** Marks the pod as being deleted (RFC 3339 timestamp). */
  public PodWrapper deletionTimestamp(String time) {
    b.editMetadata().withDeletionTimestamp(time).endMetadata();
    return this;
  }

  public PodWrapper podResourceClaims(PodResourceClaim... c) {
    claims.addAll(List.of(c));
    return this;
  }

  /** A pod claim entry generated from a ResourceClaimTemplate. */
  public PodWrapper claimFromTemplate(String podClaimName, String templateName) {
    return podResourceClaims(
        new PodResourceClaimBuilder()
            .withName(podClaimName)
            .withResourceClaimTemplateName(templateName)
            .build());
  }

  /** A pod claim entry referencing an existing ResourceClaim. */
  public PodWrapper claim(String podClaimName, String claimName) {
    return podResourceClaims(
        new PodResourceClaimBuilder()
            .withName(podClaimName)
            .withResourceClaimName(claimName)
            .build());
  }

  /** {@code status.resourceClaimStatuses[]}: claimName may be null ("no claim needed"). */
  public PodWrapper resourceClaimStatus(String podClaimName, String claimName) {
    statuses.add(new PodResourceClaimStatus(podClaimName, claimName));
    return this;
  }

  /** A container using the named pod claims. */
  public PodWrapper container(String name, String... podClaimNames) {
    ContainerBuilder c = new ContainerBuilder().withName(name).withImage("registry.k8s.io/pause");
    c.withNewResources().endResources();
    for (String claim : podClaimNames) {
      c.editResources().addToClaims(new ResourceClaim(claim, null)).endResources();
    }
    containers.add(c.build());
    return this;
  }

  /** A container with resource limits (and requests, as defaulting makes them): name, quantity. */
  public PodWrapper containerWithLimits(String name, String... resourceQuantity) {
    java.util.Map<String, io.fabric8.kubernetes.api.model.Quantity> q = new java.util.TreeMap<>();
    Make.pairs(resourceQuantity)
        .forEach((k, v) -> q.put(k, new io.fabric8.kubernetes.api.model.Quantity(v)));
    containers.add(
        new ContainerBuilder()
            .withName(name)
            .withImage("registry.k8s.io/pause")
            .withNewResources()
            .withLimits(q)
            .withRequests(q)
            .endResources()
            .build());
    return this;
  }

  public PodWrapper ownerReference(String kind, String name, String uid) {
    b.editMetadata()
        .addNewOwnerReference()
        .withApiVersion("apps/v1")
        .withKind(kind)
        .withName(name)
        .withUid(uid)
        .withController(true)
        .endOwnerReference()
        .endMetadata();
    return this;
  }

  public Pod obj() {
    Pod p = b.build();
    List<io.fabric8.kubernetes.api.model.Container> cs = new ArrayList<>(containers);
    if (cs.isEmpty()) {
      cs.add(new ContainerBuilder().withName("ctr").withImage("registry.k8s.io/pause").build());
    }
    p.getSpec().setContainers(cs);
    if (!claims.isEmpty()) {
      p.getSpec().setResourceClaims(new ArrayList<>(claims));
    }
    if (!statuses.isEmpty()) {
      if (p.getStatus() == null) {
        p.setStatus(new io.fabric8.kubernetes.api.model.PodStatus());
      }
      p.getStatus().setResourceClaimStatuses(new ArrayList<>(statuses));
    }
    return new PodBuilder(p).build();
  }
}
