package io.jdra.controllers.resourceclaim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.runtime.workqueue.MockQueue;
import io.jdra.testing.apiserver.WithApiServer;
import io.jdra.testing.objects.Make;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The event handlers (upstream enqueuePod / enqueueResourceClaim) against the mock queue: which
 * keys an informer event produces. No API call happens here; the API server only backs the harness.
 */
@WithApiServer
class EnqueueTest {
  /** {@code event} runs handlers on the harness; {@code ready} is the expected queue content. */
  record Case(String name, Function<Harness, List<String>> event) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Pod pod(Harness h, String name) {
    return Make.pod(name).namespace(h.ns).uid("uid-" + name).claimFromTemplate("gpu", "t").obj();
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "new pod with a template and no claim yet",
            h -> {
              h.controller().enqueuePod(h.ctx.logger(), pod(h, "p"), false);
              return List.of(h.podKey("p"));
            }),
        new Case(
            "pod without claims is ignored",
            h -> {
              h.controller().enqueuePod(h.ctx.logger(), Make.pod("p").namespace(h.ns).obj(), false);
              return List.of();
            }),
        new Case(
            "pod whose claim exists needs nothing",
            h -> {
              Pod p = podWithStatus(h, "p", "p-gpu-abcde");
              h.claims.put(generated(h, "p-gpu-abcde", p));
              h.controller().enqueuePod(h.ctx.logger(), p, false);
              return List.of();
            }),
        new Case(
            "deleted pod: its claims are re-checked, its UID remembered",
            h -> {
              Pod p = podWithStatus(h, "p", "p-gpu-abcde");
              p.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
              h.controller().enqueuePod(h.ctx.logger(), p, true);
              assertThat(h.controller().deps().deletedPods().has("uid-p")).isTrue();
              return List.of(h.claimKey("p-gpu-abcde"));
            }),
        new Case(
            "terminated pod: claims re-checked, pod itself not",
            h -> {
              Pod p =
                  new PodBuilder(podWithStatus(h, "p", "p-gpu-abcde"))
                      .editStatus()
                      .withPhase("Succeeded")
                      .endStatus()
                      .build();
              h.claims.put(generated(h, "p-gpu-abcde", p));
              h.controller().enqueuePod(h.ctx.logger(), p, false);
              return List.of(h.claimKey("p-gpu-abcde"));
            }),
        new Case(
            "scheduled pod with an allocated claim not reserved for it",
            h -> {
              Pod p =
                  Make.pod("p").namespace(h.ns).uid("uid-p").nodeName("n").claim("gpu", "c").obj();
              h.claims.put(allocated(h, "c"));
              h.controller().enqueuePod(h.ctx.logger(), p, false);
              return List.of(h.podKey("p"));
            }),
        new Case(
            "terminated scheduled pod is not queued for a reservation (upstream #141274)",
            h -> {
              Pod p =
                  Make.pod("p")
                      .namespace(h.ns)
                      .uid("uid-p")
                      .nodeName("n")
                      .phase("Failed")
                      .claim("gpu", "c")
                      .obj();
              h.claims.put(allocated(h, "c"));
              h.controller().enqueuePod(h.ctx.logger(), p, false);
              return List.of(h.claimKey("c"));
            }),
        new Case(
            "claim with a conflicting owner needs the user",
            h -> {
              Pod p = podWithStatus(h, "p", "p-gpu-abcde");
              h.claims.put(Make.claim("p-gpu-abcde").namespace(h.ns).request("x").obj());
              h.controller().enqueuePod(h.ctx.logger(), p, false);
              return List.of();
            }),
        new Case(
            "claim event: the claim and the pods using it",
            h -> {
              Pod p = Make.pod("p").namespace(h.ns).uid("uid-p").claim("gpu", "c").obj();
              h.pods.put(p);
              h.controller()
                  .enqueueResourceClaim(
                      h.ctx.logger(), Make.claim("c").namespace(h.ns).obj(), false);
              return List.of(h.claimKey("c"));
            }),
        new Case(
            "claim already being deleted at start-up is processed (upstream #132334)",
            h -> {
              h.controller()
                  .enqueueResourceClaim(
                      h.ctx.logger(),
                      Make.claim("c")
                          .namespace(h.ns)
                          .finalizers(ResourceClaims.FINALIZER)
                          .deletionTimestamp("2026-01-01T00:00:00Z")
                          .obj(),
                      false);
              return List.of(h.claimKey("c"));
            }),
        new Case(
            "deleted claim: only the pods that use it",
            h -> {
              h.pods.put(pod(h, "p"));
              h.pods.put(podWithStatus(h, "q", "c"));
              h.controller()
                  .enqueueResourceClaim(
                      h.ctx.logger(), Make.claim("c").namespace(h.ns).obj(), true);
              return List.of(h.podKey("q"));
            }),
        new Case(
            "extended-resource claim of a deleted pod is re-checked",
            h -> {
              Pod p =
                  new PodBuilder(Make.pod("p").namespace(h.ns).uid("uid-p").obj())
                      .editOrNewStatus()
                      .withNewExtendedResourceClaimStatus()
                      .withResourceClaimName("p-extended-resources-abcde")
                      .endExtendedResourceClaimStatus()
                      .endStatus()
                      .build();
              h.controller().enqueuePod(h.ctx.logger(), p, true);
              return List.of(h.claimKey("p-extended-resources-abcde"));
            }));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void enqueue(Case c, KubernetesClient client) {
    Harness h = new Harness(client);
    List<String> expected = c.event().apply(h);
    assertThat(h.queue.state())
        .isEqualTo(
            new MockQueue.State<>(expected, List.of(), List.of(), List.of(), Map.of(), 0, 0));
  }

  /** A failing key is re-added rate-limited; a later success forgets its failures. */
  @Test
  void failuresAreRetriedWithBackoffAndForgottenOnSuccess(KubernetesClient client) {
    Harness h = new Harness(client);
    h.pod(Make.pod("p").claimFromTemplate("gpu", "missing").obj());
    h.queue.add(h.podKey("p"));
    assertThat(h.controller().processNextWorkItem(h.ctx)).isTrue();
    assertThat(h.queue.state().failures()).containsEntry(h.podKey("p"), 1);
    assertThat(h.queue.state().inFlight()).isEmpty();
    assertThat(h.events).singleElement().asString().contains("FailedResourceClaimCreation");

    h.template(Make.claimTemplate("missing").request("x").obj());
    h.queue.add(h.podKey("p"));
    assertThat(h.controller().processNextWorkItem(h.ctx)).isTrue();
    assertThat(h.queue.state().failures()).isEmpty();
    assertThat(h.serverClaims()).hasSize(1);
    assertThat(h.controller().processNextWorkItem(h.ctx)).isFalse();
  }

  static Pod podWithStatus(Harness h, String name, String claimName) {
    return new PodBuilder(pod(h, name))
        .editOrNewStatus()
        .addNewResourceClaimStatus("gpu", claimName)
        .endStatus()
        .build();
  }

  static ResourceClaim generated(Harness h, String name, Pod owner) {
    return Make.claim(name)
        .namespace(h.ns)
        .ownerPod(owner.getMetadata().getName(), owner.getMetadata().getUid())
        .obj();
  }

  static ResourceClaim allocated(Harness h, String name) {
    return Make.claim(name)
        .namespace(h.ns)
        .request("x")
        .allocatedOn("n", "d.example.com", "dev")
        .obj();
  }
}
