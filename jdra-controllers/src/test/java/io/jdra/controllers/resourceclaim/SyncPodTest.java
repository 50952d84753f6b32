package io.jdra.controllers.resourceclaim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.testing.apiserver.WithApiServer;
import io.jdra.testing.objects.Make;
import io.jdra.testing.objects.Requests;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * syncPod as upstream's TestSyncHandler pod cases: claim creation from templates, the pod status
 * update, orphan and legacy claims, feature gates, errors and events, reservations for pods that
 * bypassed the scheduler. Writes go to the embedded API server; reads come from test-filled caches.
 */
@WithApiServer
class SyncPodTest {
  static final String POD = "test-pod";
  static final String POD_CLAIM = "acme-resource";
  static final String TEMPLATE = "my-template";
  static final String CLASS = "my-resource-class";

  /**
   * A case: {@code given} builds the world and returns the key to sync; a non-null {@code error} is
   * the expected sync error; {@code then} checks server, events, metrics.
   */
  record Case(String name, Function<Harness, String> given, String error, Consumer<Harness> then) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Pod podWithTemplate() {
    return Make.pod(POD).claimFromTemplate(POD_CLAIM, TEMPLATE).container("ctr", POD_CLAIM).obj();
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "create",
            h -> {
              h.template(
                  Make.claimTemplate(TEMPLATE)
                      .request(CLASS)
                      .claimLabels("team", "a")
                      .claimAnnotations("note", "x")
                      .obj());
              h.pod(podWithTemplate());
              return h.podKey(POD);
            },
            null,
            h -> {
              ResourceClaim claim = onlyClaim(h);
              assertGenerated(h, claim);
              assertThat(claim.getMetadata().getLabels()).containsEntry("team", "a");
              assertThat(claim.getMetadata().getAnnotations())
                  .containsEntry("note", "x")
                  .containsEntry(ResourceClaims.POD_CLAIM_NAME_ANNOTATION, POD_CLAIM);
              assertStatus(h, claim.getMetadata().getName());
              assertThat(h.controller().metrics().creates("success", false)).isEqualTo(1);
              assertThat(h.events).isEmpty();
            }),
        new Case(
            "create with admin access and feature gate off",
            h -> {
              h.features = new Deps.Features(false, true, true);
              h.template(adminTemplate());
              h.pod(podWithTemplate());
              return h.podKey(POD);
            },
            "admin access is requested, but the feature is disabled",
            h -> {
              assertThat(h.serverClaims()).isEmpty();
              assertThat(h.events)
                  .containsExactly(
                      "Warning FailedResourceClaimCreation test-pod: PodResourceClaim acme-resource:"
                          + " admin access is requested, but the feature is disabled");
              assertThat(h.serverPod(POD).getStatus().getResourceClaimStatuses()).isEmpty();
            }),
        new Case(
            "create with admin access and feature gate on",
            h -> {
              h.template(adminTemplate());
              h.pod(podWithTemplate());
              return h.podKey(POD);
            },
            null,
            h -> {
              assertGenerated(h, onlyClaim(h));
              assertThat(h.controller().metrics().creates("success", true)).isEqualTo(1);
            }),
        new Case(
            "prioritized list with feature gate off",
            h -> {
              h.features = new Deps.Features(true, false, true);
              h.template(
                  Make.claimTemplate(TEMPLATE)
                      .requests(
                          Requests.firstAvailable(
                              "gpu",
                              Requests.sub("big", CLASS, 1),
                              Requests.sub("small", CLASS, 1)))
                      .obj());
              h.pod(podWithTemplate());
              return h.podKey(POD);
            },
            "template includes a prioritized list of subrequests, but the feature is disabled",
            h -> assertThat(h.serverClaims()).isEmpty()),
        new Case(
            "nop: status names an existing owned claim",
            h -> {
              h.template(Make.claimTemplate(TEMPLATE).request(CLASS).obj());
              Pod pod = h.pod(podWithTemplate());
              ResourceClaim claim = h.claim(generatedFor(pod, POD + "-" + POD_CLAIM + "-abcde"));
              h.pods.put(withStatus(h, pod, claim.getMetadata().getName()));
              return h.podKey(POD);
            },
            null,
            h -> {
              assertThat(h.serverClaims()).hasSize(1);
              assertThat(h.controller().metrics().creates("success", false)).isZero();
            }),
        new Case(
            "recreate: status names a claim that is gone",
            h -> {
              h.template(Make.claimTemplate(TEMPLATE).request(CLASS).obj());
              Pod pod = h.pod(podWithTemplate());
              h.pods.put(withStatus(h, pod, POD + "-" + POD_CLAIM + "-gone1"));
              return h.podKey(POD);
            },
            null,
            h -> {
              ResourceClaim claim = onlyClaim(h);
              assertGenerated(h, claim);
              assertStatus(h, claim.getMetadata().getName());
            }),
        new Case(
            "status names a claim the informer lags behind on: found in the server, not recreated",
            h -> {
              h.template(Make.claimTemplate(TEMPLATE).request(CLASS).obj());
              Pod pod = h.pod(podWithTemplate());
              ResourceClaim claim =
                  h.claimNotCached(generatedFor(pod, POD + "-" + POD_CLAIM + "-lag01"));
              h.pods.put(withStatus(h, pod, claim.getMetadata().getName()));
              return h.podKey(POD);
            },
            null,
            h -> {
              assertThat(onlyClaim(h).getMetadata().getName())
                  .isEqualTo(POD + "-" + POD_CLAIM + "-lag01");
              assertStatus(h, POD + "-" + POD_CLAIM + "-lag01");
              assertThat(h.controller().metrics().creates("success", false)).isZero();
            }),
        new Case(
            "status names a claim owned by someone else: a new one is generated",
            h -> {
              h.template(Make.claimTemplate(TEMPLATE).request(CLASS).obj());
              Pod pod = h.pod(podWithTemplate());
              h.claim(Make.claim("foreign").request(CLASS).obj());
              h.pods.put(withStatus(h, pod, "foreign"));
              return h.podKey(POD);
            },
            null,
            h -> {
              assertThat(h.serverClaims()).hasSize(2);
              String generated =
                  h.serverClaims().stream()
                      .map(c -> c.getMetadata().getName())
                      .filter(n -> !n.equals("foreign"))
                      .findFirst()
                      .orElseThrow();
              assertStatus(h, generated);
            }),
        new Case(
            "missing template: error and event, pod waits",
            h -> {
              h.pod(podWithTemplate());
              return h.podKey(POD);
            },
            "resource claim template \"my-template\": resourceclaimtemplate.resource.k8s.io"
                + " \"my-template\" not found",
            h -> {
              assertThat(h.serverClaims()).isEmpty();
              assertThat(h.events).hasSize(1);
              assertThat(h.events.get(0)).contains("FailedResourceClaimCreation", "not found");
            }),
        new Case(
            "orphan claim from an earlier attempt is found by owner, not created again",
            h -> {
              h.template(Make.claimTemplate(TEMPLATE).request(CLASS).obj());
              Pod pod = h.pod(podWithTemplate());
              h.claim(generatedFor(pod, POD + "-" + POD_CLAIM + "-orph1"));
              return h.podKey(POD);
            },
            null,
            h -> {
              assertThat(h.serverClaims()).hasSize(1);
              assertStatus(h, POD + "-" + POD_CLAIM + "-orph1");
              assertThat(h.controller().metrics().creates("success", false)).isZero();
            }),
        new Case(
            "orphan claim of another pod claim is ignored",
            h -> {
              h.template(Make.claimTemplate(TEMPLATE).request(CLASS).obj());
              Pod pod = h.pod(podWithTemplate());
              ResourceClaim other = generatedFor(pod, POD + "-other-abcde");
              other
                  .getMetadata()
                  .getAnnotations()
                  .put(ResourceClaims.POD_CLAIM_NAME_ANNOTATION, "other");
              h.claim(other);
              return h.podKey(POD);
            },
            null,
            h -> assertThat(h.serverClaims()).hasSize(2)),
        new Case(
            "legacy claim with the deterministic name and no annotation is adopted",
            h -> {
              h.template(Make.claimTemplate(TEMPLATE).request(CLASS).obj());
              Pod pod = h.pod(podWithTemplate());
              h.claim(
                  Make.claim(POD + "-" + POD_CLAIM)
                      .ownerPod(POD, pod.getMetadata().getUid())
                      .request(CLASS)
                      .obj());
              return h.podKey(POD);
            },
            null,
            h -> {
              assertThat(h.serverClaims()).hasSize(1);
              assertStatus(h, POD + "-" + POD_CLAIM);
            }),
        new Case(
            "no such pod",
            h -> h.podKey("no-such-pod"),
            null,
            h -> assertThat(h.serverClaims()).isEmpty()),
        new Case(
            "pod being deleted gets no claim",
            h -> {
              h.template(Make.claimTemplate(TEMPLATE).request(CLASS).obj());
              Pod pod = h.pod(podWithTemplate());
              pod.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
              h.pods.put(pod);
              return h.podKey(POD);
            },
            null,
            h -> assertThat(h.serverClaims()).isEmpty()),
        new Case(
            "template spec the API server refuses: error with its message, event, failure metric",
            h -> {
              // Only in the cache: the server would not store it either.
              h.templates.put(
                  Make.claimTemplate(TEMPLATE)
                      .namespace(h.ns)
                      .requests(Requests.exactly("Not_A_DNS_Label", CLASS, 1))
                      .obj());
              h.pod(podWithTemplate());
              return h.podKey(POD);
            },
            "spec.devices.requests[0].name",
            h -> {
              assertThat(h.serverClaims()).isEmpty();
              assertThat(h.events.get(0))
                  .contains("FailedResourceClaimCreation", "Not_A_DNS_Label");
              assertThat(h.controller().metrics().creates("failure", false)).isEqualTo(1);
            }),
        new Case(
            "scheduled pod with allocated claim not reserved for it: reserved",
            h -> {
              Pod pod = h.pod(Make.pod(POD).nodeName("worker").claim(POD_CLAIM, "shared").obj());
              h.claim(
                  Make.claim("shared")
                      .request(CLASS)
                      .allocatedOn("worker", "driver.example.com", "dev-0")
                      .finalizers(ResourceClaims.FINALIZER)
                      .obj());
              return h.podKey(POD);
            },
            null,
            h -> {
              ResourceClaim claim = h.serverClaim("shared");
              assertThat(ResourceClaims.reservedFor(claim))
                  .singleElement()
                  .satisfies(r -> {
                    assertThat(r.getResource()).isEqualTo("pods");
                    assertThat(r.getName()).isEqualTo(POD);
                    assertThat(r.getUid()).isEqualTo(h.serverPod(POD).getMetadata().getUid());
                  });
            }),
        new Case(
            "terminated scheduled pod is never added to reservedFor (upstream #141274)",
            h -> {
              h.pod(
                  Make.pod(POD)
                      .nodeName("worker")
                      .phase("Succeeded")
                      .claim(POD_CLAIM, "shared")
                      .obj());
              h.claim(
                  Make.claim("shared")
                      .request(CLASS)
                      .allocatedOn("worker", "driver.example.com", "dev-0")
                      .finalizers(ResourceClaims.FINALIZER)
                      .obj());
              return h.podKey(POD);
            },
            null,
            h -> assertThat(ResourceClaims.reservedFor(h.serverClaim("shared"))).isEmpty()),
        new Case(
            "unscheduled pod: the scheduler reserves, not the controller",
            h -> {
              h.pod(Make.pod(POD).claim(POD_CLAIM, "shared").obj());
              h.claim(
                  Make.claim("shared")
                      .request(CLASS)
                      .allocatedOn("worker", "driver.example.com", "dev-0")
                      .finalizers(ResourceClaims.FINALIZER)
                      .obj());
              return h.podKey(POD);
            },
            null,
            h -> assertThat(ResourceClaims.reservedFor(h.serverClaim("shared"))).isEmpty()),
        new Case("bad key", h -> "no-prefix", "unexpected key format: \"no-prefix\"", h -> {}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void syncPod(Case c, KubernetesClient client) {
    Harness h = new Harness(client);
    String key = c.given().apply(h);
    if (c.error() == null) {
      h.sync(key);
    } else {
      assertThatThrownBy(() -> h.sync(key)).hasMessageContaining(c.error());
    }
    c.then().accept(h);
  }

  /**
   * A status update that fails after the claim was created must not lead to a second claim on
   * retry, although the informer has neither the claim nor the new pod status yet: the mutation
   * cache has the claim (upstream's reason for it).
   */
  @org.junit.jupiter.api.Test
  void retryBeforeInformerCatchesUpCreatesNoSecondClaim(KubernetesClient client) {
    Harness h = new Harness(client);
    h.template(Make.claimTemplate(TEMPLATE).request(CLASS).obj());
    Pod pod = h.pod(podWithTemplate());
    h.sync(h.podKey(POD));
    // The informer still shows the pod without status and no claim.
    h.pods.put(pod);
    h.sync(h.podKey(POD));
    assertThat(h.serverClaims()).hasSize(1);
    assertThat(h.controller().metrics().creates("success", false)).isEqualTo(1);
    // After the TTL the cache forgets; the informer is the source of truth again.
    h.clock.step(ResourceClaimController.CLAIM_CACHE_TTL.plus(Duration.ofSeconds(1)));
    h.claims.put(onlyClaim(h));
    h.sync(h.podKey(POD));
    assertThat(h.serverClaims()).hasSize(1);
  }

  static ResourceClaim onlyClaim(Harness h) {
    List<ResourceClaim> all = h.serverClaims();
    assertThat(all).hasSize(1);
    return all.get(0);
  }

  static void assertGenerated(Harness h, ResourceClaim claim) {
    assertThat(claim.getMetadata().getGenerateName()).isEqualTo(POD + "-" + POD_CLAIM + "-");
    assertThat(claim.getMetadata().getName()).startsWith(POD + "-" + POD_CLAIM + "-");
    OwnerReference owner = claim.getMetadata().getOwnerReferences().get(0);
    assertThat(owner.getApiVersion()).isEqualTo("v1");
    assertThat(owner.getKind()).isEqualTo("Pod");
    assertThat(owner.getName()).isEqualTo(POD);
    assertThat(owner.getUid()).isEqualTo(h.serverPod(POD).getMetadata().getUid());
    assertThat(owner.getController()).isTrue();
    assertThat(owner.getBlockOwnerDeletion()).isTrue();
  }

  static void assertStatus(Harness h, String claimName) {
    Pod pod = h.serverPod(POD);
    assertThat(pod.getStatus().getResourceClaimStatuses())
        .containsExactly(new PodResourceClaimStatus(POD_CLAIM, claimName));
  }

  static ResourceClaim generatedFor(Pod pod, String name) {
    ResourceClaim c =
        Make.claim(name)
            .ownerPod(pod.getMetadata().getName(), pod.getMetadata().getUid())
            .annotations(ResourceClaims.POD_CLAIM_NAME_ANNOTATION, POD_CLAIM)
            .request(CLASS)
            .obj();
    c.getMetadata()
        .setAnnotations(new java.util.HashMap<>(Map.copyOf(c.getMetadata().getAnnotations())));
    return c;
  }

  static Pod withStatus(Harness h, Pod pod, String claimName) {
    return h.client
        .pods()
        .inNamespace(h.ns)
        .resource(
            new PodBuilder(pod)
                .editOrNewStatus()
                .withResourceClaimStatuses(new PodResourceClaimStatus(POD_CLAIM, claimName))
                .endStatus()
                .build())
        .updateStatus();
  }

  static io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate adminTemplate() {
    var r = Requests.exactly("req-0", CLASS, 1);
    r.getExactly().setAdminAccess(true);
    return Make.claimTemplate(TEMPLATE).requests(r).obj();
  }
}
