package io.jdra.cli.simulate;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.scheduler.SchedulerOptions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The pods of a scenario's templates, and their claims as the ResourceClaim controller makes them.
 */
final class PodFactory {
  private final Scenario scenario;
  private final Supplier<Instant> now;

  PodFactory(Scenario scenario, Supplier<Instant> now) {
    this.scenario = scenario;
    this.now = now;
  }

  /** A pod and its claims. */
  record Built(Pod pod, List<ResourceClaim> claims) {}

  /**
   * The pod of a template and the claims the ResourceClaim controller would create for it: names
   * {@code <pod>-<claim>-<suffix>}, owned by the pod, annotated with the claim's name in the pod,
   * recorded in the pod's {@code status.resourceClaimStatuses}.
   */
  Built build(int template, String name, String uid, Supplier<String> suffix) {
    Scenario.PodTemplate t = scenario.pods().get(template);
    List<PodResourceClaim> podClaims = new ArrayList<>();
    List<PodResourceClaimStatus> statuses = new ArrayList<>();
    List<ResourceClaim> out = new ArrayList<>();
    for (Scenario.Claim c : t.claims()) {
      String claimName = name + "-" + c.name() + "-" + suffix.get();
      out.add(
          new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder()
              .withNewMetadata()
              .withName(claimName)
              .withNamespace(Simulator.NAMESPACE)
              .withUid(Ids.uid("claim", claimName))
              .withResourceVersion("1")
              .withAnnotations(Map.of(ResourceClaims.POD_CLAIM_NAME_ANNOTATION, c.name()))
              .withOwnerReferences(
                  new OwnerReferenceBuilder()
                      .withApiVersion("v1")
                      .withKind("Pod")
                      .withName(name)
                      .withUid(uid)
                      .withController(true)
                      .withBlockOwnerDeletion(true)
                      .build())
              .endMetadata()
              .withSpec(c.spec())
              .build());
      podClaims.add(
          new io.fabric8.kubernetes.api.model.PodResourceClaimBuilder()
              .withName(c.name())
              .withResourceClaimTemplateName(t.name() + "-" + c.name())
              .build());
      statuses.add(new PodResourceClaimStatus(c.name(), claimName));
    }
    return new Built(pod(t, name, uid, podClaims, statuses), out);
  }

  /** Per template with claims, a probe pod for the fragmentation measure. */
  List<Recorder.ProbeSpec> probes() {
    List<Recorder.ProbeSpec> out = new ArrayList<>();
    for (int i = 0; i < scenario.pods().size(); i++) {
      if (scenario.pods().get(i).claims().isEmpty()) {
        out.add(null);
        continue;
      }
      String name = "probe-" + scenario.pods().get(i).name();
      Built b = build(i, name, Ids.uid("probe", name), () -> "probe");
      out.add(new Recorder.ProbeSpec(b.pod(), b.claims()));
    }
    return out;
  }

  private Pod pod(
      Scenario.PodTemplate t,
      String name,
      String uid,
      List<PodResourceClaim> podClaims,
      List<PodResourceClaimStatus> statuses) {
    Map<String, Quantity> requests = t.requests();
    var container =
        new ContainerBuilder()
            .withName("ctr")
            .withImage("registry.k8s.io/pause:3.10")
            .withNewResources()
            .withRequests(requests)
            .withClaims(
                podClaims.stream()
                    .map(c ->
                        new io.fabric8.kubernetes.api.model.ResourceClaimBuilder()
                            .withName(c.getName())
                            .build())
                    .toList())
            .endResources()
            .build();
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(Simulator.NAMESPACE)
        .withUid(uid)
        .withResourceVersion("1")
        .withLabels(Map.of("app", t.name()))
        .withCreationTimestamp(now.get().toString())
        .endMetadata()
        .withNewSpec()
        .withSchedulerName(SchedulerOptions.DEFAULT_SCHEDULER_NAME)
        .withPriority(t.priority())
        .withContainers(container)
        .withResourceClaims(podClaims)
        .withRestartPolicy("Never")
        .endSpec()
        .withNewStatus()
        .withPhase("Pending")
        .withResourceClaimStatuses(statuses)
        .endStatus()
        .build();
  }
}
