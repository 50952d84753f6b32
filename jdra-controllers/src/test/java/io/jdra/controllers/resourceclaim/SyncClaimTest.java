package io.jdra.controllers.resourceclaim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.testing.apiserver.WithApiServer;
import io.jdra.testing.objects.ClaimWrapper;
import io.jdra.testing.objects.Make;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * syncClaim as upstream's TestSyncHandler claim cases: which {@code reservedFor} pod entries go,
 * deallocation and finalizer removal, claims deleted while allocated, generated claims of finished
 * pods, and the upstream bugs #136406 (non-pod consumers) and #132334 (claims already being
 * deleted).
 */
@WithApiServer
class SyncClaimTest {
  static final String CLAIM = "claim";
  static final String CLASS = "my-resource-class";
  static final String NODE = "worker";
  static final String DRIVER = "driver.example.com";

  record Case(String name, Function<Harness, String> given, Consumer<Harness> then) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** An allocated claim with the finalizer, device status, reserved for the given entries. */
  static ClaimWrapper allocated(String name) {
    return Make.claim(name)
        .request(CLASS)
        .allocatedOn(NODE, DRIVER, "dev-0")
        .finalizers(ResourceClaims.FINALIZER);
  }

  static ResourceClaim withDeviceStatus(ResourceClaim c) {
    return new ResourceClaimBuilder(c)
        .editStatus()
        .addToDevices(
            new AllocatedDeviceStatusBuilder()
                .withDriver(DRIVER)
                .withPool(NODE)
                .withDevice("dev-0")
                .build())
        .endStatus()
        .build();
  }

  static ResourceClaimConsumerReference podRef(String name, String uid) {
    return new ResourceClaimConsumerReferenceBuilder()
        .withResource("pods")
        .withName(name)
        .withUid(uid)
        .build();
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "pod seen deleted: reservation removed, claim deallocated, finalizer removed",
            h -> {
              h.claim(withDeviceStatus(allocated(CLAIM).reservedForPod("gone", "uid-gone").obj()));
              h.controller()
                  .enqueuePod(
                      h.ctx.logger(),
                      Make.pod("gone").namespace(h.ns).uid("uid-gone").claim("c", CLAIM).obj(),
                      true);
              return h.claimKey(CLAIM);
            },
            h -> {
              ResourceClaim c = h.serverClaim(CLAIM);
              assertThat(ResourceClaims.reservedFor(c)).isEmpty();
              assertThat(c.getStatus().getAllocation()).isNull();
              assertThat(c.getStatus().getDevices()).isEmpty();
              assertThat(c.getMetadata().getFinalizers()).isEmpty();
            }),
        new Case(
            "pod replaced by a new instance with the same name",
            h -> {
              Pod pod = h.pod(Make.pod("p").nodeName(NODE).claim("c", CLAIM).obj());
              h.claim(
                  allocated(CLAIM).reservedForPod("p", "old-" + pod.getMetadata().getUid()).obj());
              return h.claimKey(CLAIM);
            },
            h -> assertDeallocated(h.serverClaim(CLAIM))),
        new Case(
            "terminated pod: reservation removed, user claim kept",
            h -> {
              Pod pod = h.pod(Make.pod("p").nodeName(NODE).phase("Failed").claim("c", CLAIM).obj());
              h.claim(allocated(CLAIM).reservedFor(podRef("p", pod.getMetadata().getUid())).obj());
              return h.claimKey(CLAIM);
            },
            h -> assertDeallocated(h.serverClaim(CLAIM))),
        new Case(
            "pod deleted before scheduling",
            h -> {
              Pod pod = h.pod(Make.pod("p").claim("c", CLAIM).obj());
              pod.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
              h.pods.put(pod);
              h.claim(allocated(CLAIM).reservedFor(podRef("p", pod.getMetadata().getUid())).obj());
              return h.claimKey(CLAIM);
            },
            h -> assertDeallocated(h.serverClaim(CLAIM))),
        new Case(
            "scheduled pod being deleted keeps its reservation (it may still run)",
            h -> {
              Pod pod = h.pod(Make.pod("p").nodeName(NODE).claim("c", CLAIM).obj());
              pod.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
              h.pods.put(pod);
              h.claim(allocated(CLAIM).reservedFor(podRef("p", pod.getMetadata().getUid())).obj());
              return h.claimKey(CLAIM);
            },
            h -> assertThat(ResourceClaims.reservedFor(h.serverClaim(CLAIM))).hasSize(1)),
        new Case(
            "pod not yet in the informer but in the API server: kept (live GET)",
            h -> {
              Pod pod = h.podNotCached(Make.pod("p").nodeName(NODE).claim("c", CLAIM).obj());
              h.claim(allocated(CLAIM).reservedFor(podRef("p", pod.getMetadata().getUid())).obj());
              return h.claimKey(CLAIM);
            },
            h -> {
              ResourceClaim c = h.serverClaim(CLAIM);
              assertThat(ResourceClaims.reservedFor(c)).hasSize(1);
              assertThat(c.getStatus().getAllocation()).isNotNull();
            }),
        new Case(
            "pod neither in the informer nor in the API server: removed",
            h -> {
              h.claim(allocated(CLAIM).reservedForPod("never-seen", "uid-x").obj());
              return h.claimKey(CLAIM);
            },
            h -> assertDeallocated(h.serverClaim(CLAIM))),
        new Case(
            "running pod keeps its reservation",
            h -> {
              Pod pod =
                  h.pod(Make.pod("p").nodeName(NODE).phase("Running").claim("c", CLAIM).obj());
              h.claim(allocated(CLAIM).reservedFor(podRef("p", pod.getMetadata().getUid())).obj());
              return h.claimKey(CLAIM);
            },
            h -> assertThat(ResourceClaims.reservedFor(h.serverClaim(CLAIM))).hasSize(1)),
        new Case(
            "non-pod consumer kept while stale pod entries are cleaned (upstream #136406)",
            h -> {
              h.claim(
                  allocated(CLAIM)
                      .reservedFor(
                          new ResourceClaimConsumerReferenceBuilder()
                              .withApiGroup("example.com")
                              .withResource("things")
                              .withName("thing")
                              .withUid("uid-thing")
                              .build())
                      .reservedForPod("gone", "uid-gone")
                      .obj());
              return h.claimKey(CLAIM);
            },
            h -> {
              ResourceClaim c = h.serverClaim(CLAIM);
              assertThat(ResourceClaims.reservedFor(c))
                  .singleElement()
                  .satisfies(r -> assertThat(r.getResource()).isEqualTo("things"));
              assertThat(c.getStatus().getAllocation()).isNotNull();
              assertThat(c.getMetadata().getFinalizers()).containsExactly(ResourceClaims.FINALIZER);
            }),
        new Case(
            "unknown finalizers stay, only delete-protection goes",
            h -> {
              h.claim(
                  Make.claim(CLAIM)
                      .request(CLASS)
                      .allocatedOn(NODE, DRIVER, "dev-0")
                      .finalizers("example.com/keep", ResourceClaims.FINALIZER)
                      .reservedForPod("gone", "uid-gone")
                      .obj());
              return h.claimKey(CLAIM);
            },
            h -> {
              ResourceClaim c = h.serverClaim(CLAIM);
              assertThat(c.getStatus().getAllocation()).isNull();
              assertThat(c.getMetadata().getFinalizers()).containsExactly("example.com/keep");
            }),
        new Case(
            "without delete-protection the allocation is left alone",
            h -> {
              h.claim(
                  Make.claim(CLAIM)
                      .request(CLASS)
                      .allocatedOn(NODE, DRIVER, "dev-0")
                      .reservedForPod("gone", "uid-gone")
                      .obj());
              return h.claimKey(CLAIM);
            },
            h -> {
              ResourceClaim c = h.serverClaim(CLAIM);
              assertThat(ResourceClaims.reservedFor(c)).isEmpty();
              assertThat(c.getStatus().getAllocation()).isNotNull();
            }),
        new Case(
            "claim deleted while allocated and unused: deallocated, finalizer removed (upstream"
                + " #132334)",
            h -> {
              h.deleting(h.claim(allocated(CLAIM).obj()));
              return h.claimKey(CLAIM);
            },
            h -> assertThat(h.serverClaim(CLAIM)).isNull()),
        new Case(
            "claim deleted while unallocated: finalizer removed",
            h -> {
              h.deleting(
                  h.claim(
                      Make.claim(CLAIM).request(CLASS).finalizers(ResourceClaims.FINALIZER).obj()));
              return h.claimKey(CLAIM);
            },
            h -> assertThat(h.serverClaim(CLAIM)).isNull()),
        new Case(
            "claim deleted while still reserved for a running pod: nothing changes",
            h -> {
              Pod pod =
                  h.pod(Make.pod("p").nodeName(NODE).phase("Running").claim("c", CLAIM).obj());
              h.deleting(
                  h.claim(
                      allocated(CLAIM).reservedFor(podRef("p", pod.getMetadata().getUid())).obj()));
              return h.claimKey(CLAIM);
            },
            h ->
                assertThat(h.serverClaim(CLAIM).getMetadata().getFinalizers())
                    .containsExactly(ResourceClaims.FINALIZER)),
        new Case(
            "generated claim of a terminated pod is deleted once unreserved",
            h -> {
              Pod pod =
                  h.pod(
                      Make.pod("p")
                          .nodeName(NODE)
                          .phase("Succeeded")
                          .claimFromTemplate("c", "t")
                          .obj());
              h.claim(
                  allocated(CLAIM)
                      .ownerPod("p", pod.getMetadata().getUid())
                      .annotations(ResourceClaims.POD_CLAIM_NAME_ANNOTATION, "c")
                      .reservedFor(podRef("p", pod.getMetadata().getUid()))
                      .obj());
              return h.claimKey(CLAIM);
            },
            h -> assertThat(h.serverClaim(CLAIM)).isNull()),
        new Case(
            "generated claim of a deleted pod: deallocated, then left to the garbage collector",
            h -> {
              h.claim(
                  allocated(CLAIM)
                      .ownerPod("gone", "uid-gone")
                      .annotations(ResourceClaims.POD_CLAIM_NAME_ANNOTATION, "c")
                      .reservedForPod("gone", "uid-gone")
                      .obj());
              h.controller()
                  .enqueuePod(
                      h.ctx.logger(),
                      Make.pod("gone")
                          .namespace(h.ns)
                          .uid("uid-gone")
                          .nodeName(NODE)
                          .claimFromTemplate("c", "t")
                          .obj(),
                      true);
              return h.claimKey(CLAIM);
            },
            h -> {
              ResourceClaim c = h.serverClaim(CLAIM);
              assertThat(c).isNotNull();
              assertThat(c.getMetadata().getDeletionTimestamp()).isNull();
              assertDeallocated(c);
            }),
        new Case(
            "generated claim of a pod that may still run is kept",
            h -> {
              Pod pod = h.pod(Make.pod("p").claimFromTemplate("c", "t").obj());
              h.claim(
                  Make.claim(CLAIM)
                      .request(CLASS)
                      .ownerPod("p", pod.getMetadata().getUid())
                      .annotations(ResourceClaims.POD_CLAIM_NAME_ANNOTATION, "c")
                      .obj());
              return h.claimKey(CLAIM);
            },
            h -> assertThat(h.serverClaim(CLAIM)).isNotNull()),
        new Case(
            "extended-resource claim of a terminated pod is deleted",
            h -> {
              Pod pod = h.pod(Make.pod("p").nodeName(NODE).phase("Succeeded").obj());
              h.claim(
                  Make.claim(CLAIM)
                      .request(CLASS)
                      .ownerPod("p", pod.getMetadata().getUid())
                      .annotations(GeneratedClaims.EXTENDED_RESOURCE_CLAIM_ANNOTATION, "true")
                      .obj());
              return h.claimKey(CLAIM);
            },
            h -> assertThat(h.serverClaim(CLAIM)).isNull()),
        new Case(
            "no such claim", h -> h.claimKey("none"), h -> assertThat(h.serverClaims()).isEmpty()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void syncClaim(Case c, KubernetesClient client) {
    Harness h = new Harness(client);
    String key = c.given().apply(h);
    h.sync(key);
    c.then().accept(h);
  }

  static void assertDeallocated(ResourceClaim c) {
    assertThat(ResourceClaims.reservedFor(c)).isEmpty();
    assertThat(c.getStatus().getAllocation()).isNull();
    assertThat(c.getMetadata().getFinalizers()).isEmpty();
  }
}
