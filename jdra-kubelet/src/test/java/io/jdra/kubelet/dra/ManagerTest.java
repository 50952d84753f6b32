package io.jdra.kubelet.dra;

import static io.jdra.kubelet.dra.Objects.claim;
import static io.jdra.kubelet.dra.Objects.ownedBy;
import static io.jdra.kubelet.dra.Objects.pod;
import static io.jdra.kubelet.dra.Objects.templatePod;
import static io.jdra.kubelet.dra.Objects.unallocated;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.kubelet.dra.plugin.Claim;
import io.jdra.kubelet.dra.plugin.DraCallException;
import io.jdra.kubelet.dra.plugin.DraPlugin;
import io.jdra.kubelet.dra.plugin.DraPlugins;
import io.jdra.kubelet.dra.plugin.DriverNotRegisteredException;
import io.jdra.kubelet.dra.plugin.PrepareResult;
import io.jdra.kubelet.dra.state.Device;
import io.jdra.kubelet.dra.state.FileCheckpointer;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ManagerTest {
  static final String GPU = "gpu.example.com";
  static final String NIC = "nic.example.com";

  @TempDir Path dir;
  final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  final Ctx ctx = Ctx.background("test").withClock(clock);
  final Map<String, ResourceClaim> claims = new HashMap<>();
  final Map<String, Recording> drivers = new LinkedHashMap<>();
  Manager manager;

  /** A driver in memory: records calls, answers with one device per claim. */
  static final class Recording implements DraPlugin {
    final String name;
    final List<List<String>> prepares = new CopyOnWriteArrayList<>();
    final List<List<String>> unprepares = new CopyOnWriteArrayList<>();
    DraCallException failNext;
    boolean skipAll;

    Recording(String name) {
      this.name = name;
    }

    @Override
    public String driverName() {
      return name;
    }

    @Override
    public Map<String, PrepareResult> nodePrepareResources(Ctx ctx, List<Claim> batch)
        throws DraCallException {
      prepares.add(batch.stream().map(Claim::name).toList());
      if (failNext != null) {
        DraCallException e = failNext;
        failNext = null;
        throw e;
      }
      Map<String, PrepareResult> out = new LinkedHashMap<>();
      if (skipAll) {
        return out;
      }
      for (Claim c : batch) {
        out.put(
            c.uid(),
            new PrepareResult(
                List.of(
                    new Device(
                        "pool",
                        "dev-" + c.name(),
                        null,
                        List.of("req"),
                        List.of(name + "/gpu=" + c.name()))),
                ""));
      }
      return out;
    }

    @Override
    public Map<String, String> nodeUnprepareResources(Ctx ctx, List<Claim> batch) {
      unprepares.add(batch.stream().map(Claim::name).toList());
      Map<String, String> out = new LinkedHashMap<>();
      batch.forEach(c -> out.put(c.uid(), ""));
      return out;
    }
  }

  @BeforeEach
  void setUp() throws Exception {
    drivers.put(GPU, new Recording(GPU));
    drivers.put(NIC, new Recording(NIC));
    manager = newManager();
  }

  Manager newManager() throws Exception {
    DraPlugins lookup =
        name -> {
          DraPlugin p = drivers.get(name);
          if (p == null) {
            throw new DriverNotRegisteredException(name);
          }
          return p;
        };
    return new Manager(
        new ClaimInfoCache(new FileCheckpointer(dir, FileCheckpointer.DRA_MANAGER_STATE)),
        (ns, name) -> claims.get(name),
        lookup,
        DraMetrics.discard(),
        new HealthInfoCache(clock));
  }

  void add(ResourceClaim c) {
    claims.put(c.getMetadata().getName(), c);
  }

  List<String> checkpointed() throws Exception {
    return new FileCheckpointer(dir, "dra_manager_state")
        .getOrCreate().stream().map(s -> s.claimName() + "@" + s.podUids()).toList();
  }

  // ---- validation: nothing is recorded when the pod cannot start

  static Stream<Arguments> invalid() {
    Pod p = pod("p", "c");
    Pod t = templatePod("t", "gpu", "t-gpu-x");
    return Stream.of(
        Arguments.of(
            "claim not created yet",
            templatePod("t", "gpu", null),
            List.<ResourceClaim>of(),
            "prepare dynamic resources: Pod default/t: ResourceClaim not created yet"),
        Arguments.of(
            "claim missing",
            p,
            List.of(),
            "prepare dynamic resources: fetch ResourceClaim c: resourceclaims.resource.k8s.io \"c\" not found"),
        Arguments.of(
            "template claim of another pod",
            t,
            List.of(ownedBy(claim("t-gpu-x", List.of(GPU), t), pod("other"))),
            "was not created for Pod default/t (Pod is not owner)"),
        Arguments.of(
            "not reserved for the pod",
            p,
            List.of(claim("c", List.of(GPU), pod("other"))),
            "prepare dynamic resources: pod p (uid-p) is not allowed to use ResourceClaim c (claim-uid-c)"),
        Arguments.of(
            "not allocated",
            p,
            List.of(unallocated(claim("c", List.of(GPU), p))),
            "prepare dynamic resources: ResourceClaim c: not allocated"),
        Arguments.of(
            "driver not registered",
            p,
            List.of(claim("c", List.of("other.example.com"), p)),
            "prepare dynamic resources: DRA driver other.example.com is not registered"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void invalid(String name, Pod pod, List<ResourceClaim> existing, String message)
      throws Exception {
    existing.forEach(this::add);
    assertThatThrownBy(() -> manager.prepareResources(ctx, pod))
        .isInstanceOf(PrepareException.class)
        .hasMessageContaining(message);
    assertThat(checkpointed()).isEmpty();
    assertThat(manager.podMightNeedToUnprepareResources(pod.getMetadata().getUid())).isFalse();
    drivers.values().forEach(d -> assertThat(d.prepares).isEmpty());
  }

  @Test
  void templateClaimOwnedByThePodIsPrepared() throws Exception {
    Pod t = templatePod("t", "gpu", "t-gpu-x");
    add(ownedBy(claim("t-gpu-x", List.of(GPU), t), t));
    manager.prepareResources(ctx, t);
    assertThat(drivers.get(GPU).prepares).containsExactly(List.of("t-gpu-x"));
    assertThat(manager.cdiDevices(t, t.getSpec().getContainers().get(0)))
        .containsExactly(GPU + "/gpu=t-gpu-x");
  }

  // ---- prepare

  @Test
  void onePrepareCallPerDriverWithAllOfThePodsClaims() throws Exception {
    Pod p = pod("p", "a", "b", "c");
    add(claim("a", List.of(GPU), p));
    add(claim("b", List.of(GPU, NIC), p));
    add(claim("c", List.of(NIC), p));
    manager.prepareResources(ctx, p);
    assertThat(drivers.get(GPU).prepares).containsExactly(List.of("a", "b"));
    assertThat(drivers.get(NIC).prepares).containsExactly(List.of("b", "c"));
    assertThat(checkpointed()).containsExactly("a@[uid-p]", "b@[uid-p]", "c@[uid-p]");
    assertThat(manager.cdiDevices(p, p.getSpec().getContainers().get(0)))
        .containsExactly(GPU + "/gpu=a", GPU + "/gpu=b", NIC + "/gpu=b", NIC + "/gpu=c");
    // Preparing again (a sync retry) calls nobody.
    manager.prepareResources(ctx, p);
    assertThat(drivers.get(GPU).prepares).hasSize(1);
  }

  @Test
  void sharedClaimIsPreparedOnceAndUnpreparedAfterTheLastPod() throws Exception {
    Pod p1 = pod("p1", "shared");
    Pod p2 = pod("p2", "shared");
    add(claim("shared", List.of(GPU), p1, p2));
    manager.prepareResources(ctx, p1);
    manager.prepareResources(ctx, p2);
    assertThat(drivers.get(GPU).prepares).containsExactly(List.of("shared"));
    assertThat(checkpointed()).containsExactly("shared@[uid-p1, uid-p2]");

    manager.unprepareResources(ctx, p1);
    assertThat(drivers.get(GPU).unprepares).isEmpty();
    assertThat(checkpointed()).containsExactly("shared@[uid-p2]");

    claims.clear(); // the claim object may be gone by now: identity comes from the checkpoint
    manager.unprepareResources(ctx, p2);
    assertThat(drivers.get(GPU).unprepares).containsExactly(List.of("shared"));
    assertThat(checkpointed()).isEmpty();
    // Idempotent.
    manager.unprepareResources(ctx, p2);
    assertThat(drivers.get(GPU).unprepares).hasSize(1);
  }

  @Test
  void perClaimErrorFailsThePrepareAndIsRetried() throws Exception {
    Pod p = pod("p", "c");
    add(claim("c", List.of(GPU), p));
    drivers.get(GPU).failNext = new DraCallException("rpc error: code = Unavailable");
    assertThatThrownBy(() -> manager.prepareResources(ctx, p))
        .hasMessage(
            "prepare dynamic resources: NodePrepareResources: rpc error: code = Unavailable");
    // The pod was recorded before the call, so a deleted pod would still get unprepared.
    assertThat(manager.podMightNeedToUnprepareResources("uid-p")).isTrue();
    manager.prepareResources(ctx, p);
    assertThat(drivers.get(GPU).prepares).hasSize(2);
    assertThat(manager.cdiDevices(p, p.getSpec().getContainers().get(0)))
        .containsExactly(GPU + "/gpu=c");
  }

  @Test
  void everyClaimMustBeAnswered() throws Exception {
    Pod p = pod("p", "c");
    add(claim("c", List.of(GPU), p));
    drivers.get(GPU).skipAll = true;
    assertThatThrownBy(() -> manager.prepareResources(ctx, p))
        .hasMessage("prepare dynamic resources: NodePrepareResources skipped 1 ResourceClaims");
  }

  @Test
  void restartBetweenTheTwoCheckpointWritesPreparesAgain() throws Exception {
    Pod p = pod("p", "c");
    add(claim("c", List.of(GPU), p));
    // The "crash": the driver call never returns to this kubelet.
    drivers.get(GPU).failNext = new DraCallException("kubelet killed");
    assertThatThrownBy(() -> manager.prepareResources(ctx, p));
    assertThat(checkpointed()).containsExactly("c@[uid-p]");

    manager = newManager(); // restart: state from the checkpoint only
    assertThat(manager.podMightNeedToUnprepareResources("uid-p")).isTrue();
    manager.prepareResources(ctx, p);
    assertThat(drivers.get(GPU).prepares).hasSize(2);

    // After another restart even a prepared claim is prepared again (idempotently).
    manager = newManager();
    manager.prepareResources(ctx, p);
    assertThat(drivers.get(GPU).prepares).hasSize(3);
    assertThat(manager.cdiDevices(p, p.getSpec().getContainers().get(0)))
        .containsExactly(GPU + "/gpu=c");
  }

  @Test
  void restartedKubeletUnpreparesFromTheCheckpoint() throws Exception {
    Pod p = pod("p", "c");
    add(claim("c", List.of(GPU), p));
    manager.prepareResources(ctx, p);
    manager = newManager();
    claims.clear();
    manager.unprepareResources(ctx, p);
    assertThat(drivers.get(GPU).unprepares).containsExactly(List.of("c"));
  }

  @Test
  void reconcileUnpreparesClaimsOfPodsThatAreGone() throws Exception {
    Pod p1 = pod("p1", "a");
    Pod p2 = pod("p2", "b");
    add(claim("a", List.of(GPU), p1));
    add(claim("b", List.of(GPU), p2));
    manager.prepareResources(ctx, p1);
    manager.prepareResources(ctx, p2);
    manager.reconcile(ctx, Set.of("uid-p2"));
    assertThat(drivers.get(GPU).unprepares).containsExactly(List.of("a"));
    assertThat(checkpointed()).containsExactly("b@[uid-p2]");
  }

  @Test
  void unprepareOfAPodThatNeverPreparedCallsNobody() throws Exception {
    Pod p = pod("p", "c");
    Pod other = pod("other", "c");
    add(claim("c", List.of(GPU), other));
    manager.prepareResources(ctx, other);
    // p's spec names the claim too, but p never used it.
    manager.unprepareResources(ctx, p);
    assertThat(drivers.get(GPU).unprepares).isEmpty();
    assertThat(checkpointed()).containsExactly("c@[uid-other]");
  }

  // ---- health

  @Test
  void deviceHealthIsMappedIntoContainerStatusAndTimesOut() throws Exception {
    Pod p = pod("p", "c");
    add(claim("c", List.of(GPU), p));
    manager.prepareResources(ctx, p);
    var ctr = p.getSpec().getContainers().get(0);

    assertThat(manager.allocatedResourcesStatus(p, ctr))
        .singleElement()
        .satisfies(s -> {
          assertThat(s.getName()).isEqualTo("claim:c");
          assertThat(s.getResources())
              .singleElement()
              .satisfies(h -> {
                assertThat(h.getResourceID()).isEqualTo(GPU + "/gpu=c");
                assertThat(h.getHealth()).isEqualTo("Unknown");
              });
        });

    var changed =
        manager
            .health()
            .update(
                GPU,
                List.of(
                    new DeviceHealth(
                        "pool",
                        "dev-c",
                        DeviceHealth.UNHEALTHY,
                        clock.now(),
                        Duration.ofSeconds(60),
                        "x".repeat(2000))));
    assertThat(manager.podsUsing(GPU, changed)).containsExactly("uid-p");
    var h = manager.allocatedResourcesStatus(p, ctr).get(0).getResources().get(0);
    assertThat(h.getHealth()).isEqualTo("Unhealthy");
    assertThat(h.getMessage()).hasSize(1024).endsWith("...");

    clock.step(Duration.ofSeconds(61));
    assertThat(manager.allocatedResourcesStatus(p, ctr).get(0).getResources().get(0).getHealth())
        .isEqualTo("Unknown");
  }

  @Test
  void metricsCountOperations() throws Exception {
    var registry = new io.prometheus.metrics.model.registry.PrometheusRegistry();
    var cache = new ClaimInfoCache(new FileCheckpointer(dir.resolve("m"), "dra_manager_state"));
    Manager m =
        new Manager(
            cache,
            (ns, n) -> claims.get(n),
            name -> drivers.get(name),
            DraMetrics.create(registry, () -> Map.of("<any>", 1)),
            new HealthInfoCache(clock));
    Pod p = pod("p", "c");
    add(claim("c", List.of(GPU), p));
    m.prepareResources(ctx, p);
    List<String> names = new ArrayList<>();
    registry.scrape().forEach(s -> names.add(s.getMetadata().getPrometheusName()));
    assertThat(names)
        .contains(
            "dra_operations_duration_seconds",
            "dra_grpc_operations_duration_seconds",
            "dra_resource_claims_in_use");
  }
}
