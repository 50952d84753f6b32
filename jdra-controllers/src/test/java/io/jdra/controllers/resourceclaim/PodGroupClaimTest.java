package io.jdra.controllers.resourceclaim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.jdra.api.features.FeatureGates;
import io.jdra.api.resourceclaim.PodGroupClaims;
import io.jdra.apiserver.ApiServerOptions;
import io.jdra.testing.apiserver.TestApiServer;
import io.jdra.testing.objects.Make;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DRAWorkloadResourceClaims (KEP 5729) in the claim controller: pods whose claim entry equals one
 * of their PodGroup's get the one claim generated for the group, recorded in the PodGroup's status;
 * the group's reservation stays while a pod of the group may run, then goes.
 */
class PodGroupClaimTest {
  static TestApiServer server;

  @BeforeAll
  static void start() {
    server =
        TestApiServer.start(
            ApiServerOptions.inMemory()
                .withFeatureGates(
                    FeatureGates.parse("GenericWorkload=true,DRAWorkloadResourceClaims=true")));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  Harness harness() {
    Harness h = new Harness(server.client());
    h.features = new Deps.Features(true, true, true, true);
    h.template(Make.claimTemplate("one-gpu").request("gpu.example.com").obj());
    return h;
  }

  static GenericKubernetesResource podGroup(Harness h, String name) {
    return h.client
        .genericKubernetesResources(PodGroupClaims.API_VERSION, PodGroupClaims.KIND)
        .inNamespace(h.ns)
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion(PodGroupClaims.API_VERSION)
                .withKind(PodGroupClaims.KIND)
                .withNewMetadata()
                .withName(name)
                .withNamespace(h.ns)
                .endMetadata()
                .addToAdditionalProperties(
                    "spec",
                    Map.of(
                        "schedulingPolicy",
                        Map.of("gang", Map.of("minCount", 2)),
                        "resourceClaims",
                        List.of(Map.of("name", "gpu", "resourceClaimTemplateName", "one-gpu"))))
                .build())
        .create();
  }

  static Pod member(String name, String group) {
    Pod p = Make.pod(name).claimFromTemplate("gpu", "one-gpu").container("ctr0", "gpu").obj();
    return new PodBuilder(p)
        .editSpec()
        .withSchedulingGroup(
            new io.fabric8.kubernetes.api.model.PodSchedulingGroupBuilder()
                .withPodGroupName(group)
                .build())
        .endSpec()
        .build();
  }

  @Test
  void onePodGroupOneClaimSharedByItsPods() {
    Harness h = harness();
    GenericKubernetesResource pg = podGroup(h, "group-1");
    h.pod(member("a", "group-1"));
    h.pod(member("b", "group-1"));
    h.sync(h.podKey("a"));
    h.sync(h.podKey("b"));

    List<ResourceClaim> claims = h.serverClaims();
    assertThat(claims).hasSize(1);
    ResourceClaim c = claims.get(0);
    assertThat(c.getMetadata().getName()).matches("group-1-gpu-[a-z0-9]{5}");
    assertThat(c.getMetadata().getAnnotations())
        .containsEntry(PodGroupClaims.CLAIM_NAME_ANNOTATION, "gpu")
        .doesNotContainKey("resource.kubernetes.io/pod-claim-name");
    assertThat(c.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(o -> {
          assertThat(o.getKind()).isEqualTo("PodGroup");
          assertThat(o.getUid()).isEqualTo(pg.getMetadata().getUid());
          assertThat(o.getController()).isTrue();
        });
    for (String pod : List.of("a", "b")) {
      assertThat(h.serverPod(pod).getStatus().getResourceClaimStatuses())
          .singleElement()
          .satisfies(
              s -> assertThat(s.getResourceClaimName()).isEqualTo(c.getMetadata().getName()));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> status =
        (Map<String, Object>)
            h.client
                .genericKubernetesResources(PodGroupClaims.API_VERSION, PodGroupClaims.KIND)
                .inNamespace(h.ns)
                .withName("group-1")
                .get()
                .getAdditionalProperties()
                .get("status");
    assertThat(status)
        .containsEntry(
            "resourceClaimStatuses",
            List.of(Map.of("name", "gpu", "resourceClaimName", c.getMetadata().getName())));
  }

  /** A pod without a group, or whose entry the group does not list, keeps its own claim. */
  @Test
  void entryTheGroupDoesNotListIsThePodsOwn() {
    Harness h = harness();
    podGroup(h, "group-1");
    Pod p = member("a", "group-1");
    p.getSpec().getResourceClaims().get(0).setName("other");
    p.getSpec().getContainers().get(0).getResources().getClaims().get(0).setName("other");
    h.pod(p);
    h.sync(h.podKey("a"));
    assertThat(h.serverClaims())
        .singleElement()
        .satisfies(c -> assertThat(c.getMetadata().getName()).startsWith("a-other-"));
  }

  /** The group's reservation stays while a pod of the group may run; then it is released. */
  @Test
  void groupReservationGoesWithTheLastPod() {
    Harness h = harness();
    GenericKubernetesResource pg = podGroup(h, "group-1");
    h.pod(member("a", "group-1"));
    h.sync(h.podKey("a"));
    ResourceClaim c = h.serverClaims().get(0);
    Pod a = h.serverPod("a");
    h.pods.put(a);
    ResourceClaim reserved =
        h.client
            .resource(
                new ResourceClaimBuilder(c)
                    .withNewStatus()
                    .withAllocation(
                        Make.claim("x")
                            .allocatedOn("node-1", "gpu.example.com", "gpu-0")
                            .obj()
                            .getStatus()
                            .getAllocation())
                    .withReservedFor(PodGroupClaims.reference("group-1", pg.getMetadata().getUid()))
                    .endStatus()
                    .build())
            .updateStatus();
    h.claims.put(reserved);
    h.sync(h.claimKey(c.getMetadata().getName()));
    assertThat(h.serverClaim(c.getMetadata().getName()).getStatus().getReservedFor())
        .as("pod a may still run")
        .hasSize(1);

    h.pods.put(new PodBuilder(a).editOrNewStatus().withPhase("Succeeded").endStatus().build());
    h.sync(h.claimKey(c.getMetadata().getName()));
    ResourceClaim after = h.serverClaim(c.getMetadata().getName());
    assertThat(after.getStatus().getReservedFor()).isEmpty();
  }
}
