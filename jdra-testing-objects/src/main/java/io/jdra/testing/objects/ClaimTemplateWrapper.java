package io.jdra.testing.objects;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import java.util.ArrayList;
import java.util.List;

/** Builds a ResourceClaimTemplate: labels/annotations go to the claims made from it. */
public final class ClaimTemplateWrapper {
  private final ResourceClaimTemplateBuilder b = new ResourceClaimTemplateBuilder();
  private final List<DeviceRequest> requests = new ArrayList<>();
  private io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec spec;

  ClaimTemplateWrapper(String name) {
    b.withNewMetadata().withName(name).endMetadata().withNewSpec().endSpec();
  }

  public ClaimTemplateWrapper namespace(String ns) {
    b.editMetadata().withNamespace(ns).endMetadata();
    return this;
  }

  public ClaimTemplateWrapper uid(String uid) {
    b.editMetadata().withUid(uid).endMetadata();
    return this;
  }

  /** Labels of the generated claims ({@code spec.metadata.labels}). */
  public ClaimTemplateWrapper claimLabels(String... kv) {
    b.editSpec().editOrNewMetadata().addToLabels(Make.pairs(kv)).endMetadata().endSpec();
    return this;
  }

  /** Annotations of the generated claims ({@code spec.metadata.annotations}). */
  public ClaimTemplateWrapper claimAnnotations(String... kv) {
    b.editSpec().editOrNewMetadata().addToAnnotations(Make.pairs(kv)).endMetadata().endSpec();
    return this;
  }

  /** A request for one device of the class, named "req-N". */
  public ClaimTemplateWrapper request(String deviceClassName) {
    return requests(Requests.exactly("req-" + requests.size(), deviceClassName, 1));
  }

  public ClaimTemplateWrapper requests(DeviceRequest... r) {
    requests.addAll(List.of(r));
    return this;
  }

  /** The claim spec as given (for example a {@code Make.claim(...).obj().getSpec()}). */
  public ClaimTemplateWrapper spec(
      io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec s) {
    this.spec = s;
    return this;
  }

  public ResourceClaimTemplate obj() {
    ResourceClaimTemplate t = b.build();
    if (spec != null) {
      t.getSpec()
          .setSpec(
              new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpecBuilder(spec)
                  .build());
      return new ResourceClaimTemplateBuilder(t).build();
    }
    t.getSpec().setSpec(new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec());
    t.getSpec().getSpec().setDevices(new io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim());
    if (!requests.isEmpty()) {
      t.getSpec().getSpec().getDevices().setRequests(new ArrayList<>(requests));
    }
    return new ResourceClaimTemplateBuilder(t).build();
  }
}
