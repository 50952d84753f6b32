package io.jdra.scheduler.plugins.dynamicresources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.Status;
import io.jdra.testing.objects.Make;
import io.jdra.testing.objects.Requests;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DynamicResourcesTest {
  static final String DRIVER = "gpu.example.com";
  static final Ctx CTX = Ctx.forTest(new FakeClock());

  /** Writes into the manager as the API server plus informer would, and records the calls. */
  static final class FakeWriter implements ClaimWriter {
    final List<String> calls = new ArrayList<>();
    final DraManager dra;
    long rv = 100;

    FakeWriter(DraManager dra) {
      this.dra = dra;
    }

    @Override
    public ResourceClaim bindClaim(
        Ctx ctx, ResourceClaim claim, ResourceClaim allocated, Pod pod, PodResourceClaim pc) {
      calls.add("bind " + claim.getMetadata().getName());
      ResourceClaimBuilder b = new ResourceClaimBuilder(claim);
      b.editMetadata()
          .addToFinalizers(ResourceClaims.FINALIZER)
          .withResourceVersion(Long.toString(++rv))
          .endMetadata();
      if (allocated != null) {
        b.editOrNewStatus().withAllocation(allocated.getStatus().getAllocation()).endStatus();
      }
      List<ResourceClaimConsumerReference> r = new ArrayList<>(ResourceClaims.reservedFor(claim));
      r.add(ResourceClaims.bindTo(pod, pc));
      return b.editOrNewStatus().withReservedFor(r).endStatus().build();
    }

    @Override
    public void removeReservation(Ctx ctx, ResourceClaim claim, Pod pod) {
      calls.add("unreserve " + claim.getMetadata().getName());
    }

    @Override
    public void deallocate(Ctx ctx, ResourceClaim claim) {
      calls.add("deallocate " + claim.getMetadata().getName());
    }

    @Override
    public ResourceClaim createClaim(Ctx ctx, ResourceClaim claim) {
      String name = claim.getMetadata().getGenerateName() + "abcde";
      calls.add("create " + name);
      return new ResourceClaimBuilder(claim)
          .editMetadata()
          .withName(name)
          .withUid("uid-" + name)
          .withResourceVersion(Long.toString(++rv))
          .endMetadata()
          .withStatus(null)
          .build();
    }

    @Override
    public void deleteClaim(Ctx ctx, ResourceClaim claim) {
      calls.add("delete " + claim.getMetadata().getName());
    }

    @Override
    public void setExtendedResourceClaimStatus(
        Ctx ctx,
        Pod pod,
        String claimName,
        List<io.fabric8.kubernetes.api.model.ContainerExtendedResourceRequest> mappings) {
      StringBuilder b = new StringBuilder("extendedResourceClaimStatus " + claimName);
      for (var m : mappings) {
        b.append(' ')
            .append(m.getContainerName())
            .append('/')
            .append(m.getResourceName())
            .append('=')
            .append(m.getRequestName());
      }
      calls.add(b.toString());
    }

    @Override
    public void setNodeAllocatableResourceClaimStatuses(
        Ctx ctx, Pod pod, List<NodeAllocatableClaims.ClaimStatus> statuses) {
      StringBuilder b = new StringBuilder("nodeAllocatableResourceClaimStatuses");
      for (var st : statuses) {
        b.append(' ')
            .append(st.toJson().get("resourceClaimName"))
            .append(st.containers())
            .append(
                new java.util.TreeMap<>(
                    st.toJson().get("resources") instanceof Map<?, ?> m ? m : Map.of()));
      }
      calls.add(b.toString());
    }
  }

  final DraManager dra = new DraManager(AllocatorFeatures.defaults(), true);
  final FakeWriter writer = new FakeWriter(dra);
  final AtomicLong nanos = new AtomicLong();

  DynamicResources plugin(Duration filterTimeout) {
    return DynamicResources.builder(
            dra, new DynamicResourcesArgs(filterTimeout, Duration.ofSeconds(600)))
        .nanoClock(nanos::get)
        .writer(writer)
        .build();
  }

  DynamicResources plugin() {
    return plugin(Duration.ofSeconds(10));
  }

  static NodeInfo node(String name) {
    Node n = Make.node(name).labels("kubernetes.io/hostname", name).obj();
    return NodeInfo.of(n);
  }

  void cluster(int nodes, int gpus) {
    dra.classChanged(Make.deviceClass(DRIVER).driver(DRIVER).obj());
    for (int n = 1; n <= nodes; n++) {
      SliceBuilderHelper.gpus(dra, "node-" + n, gpus);
    }
  }

  static Pod podWithClaim(String name, String claim) {
    return Make.pod(name)
        .namespace("ns")
        .uid("uid-" + name)
        .claim("gpu", claim)
        .container("c", "gpu")
        .obj();
  }

  ResourceClaim claim(String name) {
    ResourceClaim c =
        Make.claim(name)
            .namespace("ns")
            .uid("c-" + name)
            .resourceVersion("1")
            .request(DRIVER)
            .obj();
    dra.claimChanged(c);
    return c;
  }

  record PreEnqueueCase(String name, Pod pod, List<ResourceClaim> claims, String want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<PreEnqueueCase> preEnqueueCases() {
    Pod tmpl =
        Make.pod("p")
            .namespace("ns")
            .uid("u")
            .claimFromTemplate("gpu", "t")
            .resourceClaimStatus("gpu", "p-gpu-abc")
            .obj();
    return Stream.of(
        new PreEnqueueCase("no claims", Make.pod("p").namespace("ns").obj(), List.of(), null),
        new PreEnqueueCase(
            "claim exists",
            podWithClaim("p", "c"),
            List.of(Make.claim("c").namespace("ns").request(DRIVER).obj()),
            null),
        new PreEnqueueCase(
            "claim missing",
            podWithClaim("p", "c"),
            List.of(),
            "resourceclaim.resource.k8s.io \"c\" not found"),
        new PreEnqueueCase(
            "claim being deleted",
            podWithClaim("p", "c"),
            List.of(
                Make.claim("c")
                    .namespace("ns")
                    .request(DRIVER)
                    .deletionTimestamp("2026-01-01T00:00:00Z")
                    .obj()),
            "resourceclaim \"c\" is being deleted"),
        new PreEnqueueCase(
            "template claim not created yet",
            Make.pod("p").namespace("ns").uid("u").claimFromTemplate("gpu", "t").obj(),
            List.of(),
            "Pod ns/p: ResourceClaim not created yet"),
        new PreEnqueueCase(
            "template claim not owned by the pod",
            tmpl,
            List.of(
                Make.claim("p-gpu-abc")
                    .namespace("ns")
                    .request(DRIVER)
                    .ownerPod("p", "other")
                    .obj()),
            "ResourceClaim ns/p-gpu-abc was not created for Pod ns/p (Pod is not owner)"),
        new PreEnqueueCase(
            "template claim owned by the pod",
            tmpl,
            List.of(
                Make.claim("p-gpu-abc").namespace("ns").request(DRIVER).ownerPod("p", "u").obj()),
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("preEnqueueCases")
  void preEnqueue(PreEnqueueCase c) {
    c.claims().forEach(dra::claimChanged);
    Status s = plugin().preEnqueue(c.pod());
    if (c.want() == null) {
      assertThat(Status.ok(s)).as(String.valueOf(s)).isTrue();
    } else {
      assertThat(s.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
      assertThat(s.message()).isEqualTo(c.want());
    }
  }

  @Test
  void preFilter_unknownClassIsUnresolvable() {
    dra.claimChanged(Make.claim("c").namespace("ns").uid("c").request("nope").obj());
    var r =
        plugin().preFilter(CTX, new CycleState(), new PodInfo(podWithClaim("p", "c")), List.of());
    assertThat(r.status().code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(r.status().message()).isEqualTo("request req-0: device class nope does not exist");
  }

  @Test
  void preFilter_claimReservedForTheMaximumIsInUse() {
    cluster(1, 1);
    var b =
        Make.claim("c")
            .namespace("ns")
            .uid("c")
            .request(DRIVER)
            .allocatedOn("node-1", DRIVER, "gpu-0");
    for (int i = 0; i < ResourceClaims.RESERVED_FOR_MAX_SIZE; i++) {
      b.reservedForPod("other-" + i, "o-" + i);
    }
    dra.claimChanged(b.obj());
    var r =
        plugin().preFilter(CTX, new CycleState(), new PodInfo(podWithClaim("p", "c")), List.of());
    assertThat(r.status().message()).isEqualTo("resourceclaim in use");
  }

  @Test
  void filter_allocatedClaimOnlyOnItsNode() {
    cluster(2, 1);
    dra.claimChanged(
        Make.claim("c")
            .namespace("ns")
            .uid("c")
            .request(DRIVER)
            .allocatedOn("node-1", DRIVER, "gpu-0")
            .obj());
    DynamicResources pl = plugin();
    CycleState st = new CycleState();
    PodInfo p = new PodInfo(podWithClaim("p", "c"));
    assertThat(Status.ok(pl.preFilter(CTX, st, p, List.of()).status())).isTrue();
    assertThat(Status.ok(pl.filter(CTX, st, p, node("node-1")))).isTrue();
    assertThat(pl.filter(CTX, st, p, node("node-2")).message())
        .isEqualTo("resourceclaim not available on the node");
  }

  @Test
  void filterAndReserve_inFlightAllocationsAreNotHandedOutTwice() {
    cluster(1, 2);
    claim("a");
    claim("b");
    claim("c");
    DynamicResources pl = plugin();
    List<String> got = new ArrayList<>();
    for (String name : List.of("a", "b", "c")) {
      CycleState st = new CycleState();
      PodInfo p = new PodInfo(podWithClaim("p-" + name, name));
      assertThat(Status.ok(pl.preFilter(CTX, st, p, List.of()).status())).isTrue();
      Status f = pl.filter(CTX, st, p, node("node-1"));
      if (!Status.ok(f)) {
        got.add(f.message());
        assertThat(pl.explainFailure(st, p))
            .isEqualTo("claim ns/c request req-0: wants 1, 0 usable (2 already allocated)");
        continue;
      }
      assertThat(Status.ok(pl.reserve(CTX, st, p, "node-1"))).isTrue();
      StateData sd = st.read(StateData.KEY, StateData.class);
      got.add(
          sd.reserved[0].getStatus().getAllocation().getDevices().getResults().get(0).getDevice());
    }
    assertThat(got).containsExactly("gpu-0", "gpu-1", "cannot allocate all claims");
  }

  @Test
  void unreserve_freesTheInFlightDevice() {
    cluster(1, 1);
    claim("a");
    claim("b");
    DynamicResources pl = plugin();
    CycleState st = new CycleState();
    PodInfo pa = new PodInfo(podWithClaim("pa", "a"));
    pl.preFilter(CTX, st, pa, List.of());
    pl.filter(CTX, st, pa, node("node-1"));
    pl.reserve(CTX, st, pa, "node-1");
    pl.unreserve(CTX, st, pa, "node-1");

    CycleState st2 = new CycleState();
    PodInfo pb = new PodInfo(podWithClaim("pb", "b"));
    pl.preFilter(CTX, st2, pb, List.of());
    assertThat(Status.ok(pl.filter(CTX, st2, pb, node("node-1")))).isTrue();
  }

  @Test
  void preBind_writesAndAssumesWithoutAGap() {
    cluster(1, 1);
    claim("a");
    claim("b");
    DynamicResources pl = plugin();
    CycleState st = new CycleState();
    PodInfo pa = new PodInfo(podWithClaim("pa", "a"));
    pl.preFilter(CTX, st, pa, List.of());
    pl.filter(CTX, st, pa, node("node-1"));
    pl.reserve(CTX, st, pa, "node-1");
    assertThat(Status.ok(pl.preBind(CTX, st, pa, "node-1"))).isTrue();
    assertThat(writer.calls).containsExactly("bind a");
    ResourceClaim a = dra.getClaim("ns", "a").orElseThrow();
    assertThat(ResourceClaims.isReservedForPod(pa.pod(), a)).isTrue();
    assertThat(dra.claimHasPendingAllocation("c-a")).isFalse();
    // The device stays in use: the assumed claim holds it now.
    assertThat(dra.allocatedState().isAllocatedExclusively(DRIVER, "node-1", "gpu-0")).isTrue();
    // An older informer event does not undo the write.
    dra.claimChanged(
        Make.claim("a").namespace("ns").uid("c-a").resourceVersion("2").request(DRIVER).obj());
    assertThat(dra.allocatedState().isAllocatedExclusively(DRIVER, "node-1", "gpu-0")).isTrue();
  }

  DynamicResources extendedPlugin() {
    dra.classChanged(
        Make.deviceClass(DRIVER).driver(DRIVER).extendedResourceName("example.com/gpu").obj());
    return DynamicResources.builder(dra, DynamicResourcesArgs.defaults())
        .nanoClock(nanos::get)
        .writer(writer)
        .extendedResourceClass(name ->
            name.equals("example.com/gpu")
                    || name.equals("deviceclass.resource.kubernetes.io/" + DRIVER)
                ? DRIVER
                : null)
        .build();
  }

  static Pod extendedPod() {
    return Make.pod("p0")
        .namespace("ns")
        .uid("uid-p0")
        .containerWithLimits("init", "example.com/gpu", "1")
        .containerWithLimits(
            "ctr0", "cpu", "1", "deviceclass.resource.kubernetes.io/" + DRIVER, "2")
        .obj();
  }

  /**
   * A pod asking for DRA-backed extended resources gets one claim made for it: one request per
   * container and resource, created in PreBind with the pod as controller, then the pod's status
   * maps each container's resource to its request.
   */
  @Test
  void extendedResources_claimMadeAllocatedAndRecordedInPodStatus() {
    cluster(1, 4);
    DynamicResources pl = extendedPlugin();
    List<String> creates = new ArrayList<>();
    pl.setMetrics(
        new DraMetrics() {
          @Override
          public void claimCreate(String status) {
            creates.add(status);
          }

          @Override
          public void bindingConditions(String driver, String result, Duration waited) {}
        });
    CycleState st = new CycleState();
    PodInfo p = new PodInfo(extendedPod());
    assertThat(Status.ok(pl.preFilter(CTX, st, p, List.of()).status())).isTrue();
    assertThat(Status.ok(pl.filter(CTX, st, p, node("node-1")))).isTrue();
    assertThat(pl.allocations(st).get("node-1").get(0).getDevices().getResults())
        .extracting(r -> r.getRequest())
        .as("init container: its only request; ctr0: cpu sorts first, so the GPU request is 1")
        .containsExactly("container-0-request-0", "container-1-request-1", "container-1-request-1");
    assertThat(Status.ok(pl.reserve(CTX, st, p, "node-1"))).isTrue();
    assertThat(Status.ok(pl.preBind(CTX, st, p, "node-1"))).isTrue();
    assertThat(writer.calls)
        .containsExactly(
            "create p0-extended-resources-abcde",
            "bind p0-extended-resources-abcde",
            "extendedResourceClaimStatus p0-extended-resources-abcde"
                + " init/example.com/gpu=container-0-request-0"
                + " ctr0/deviceclass.resource.kubernetes.io/gpu.example.com=container-1-request-1");
    ResourceClaim made = dra.getClaim("ns", "p0-extended-resources-abcde").orElseThrow();
    assertThat(made.getMetadata().getAnnotations())
        .containsEntry("resource.kubernetes.io/extended-resource-claim", "true");
    assertThat(made.getMetadata().getOwnerReferences().get(0).getUid()).isEqualTo("uid-p0");
    assertThat(ResourceClaims.isReservedForPod(p.pod(), made)).isTrue();
    assertThat(made.getStatus().getAllocation().getDevices().getResults()).hasSize(3);
    assertThat(creates).as("scheduler_resourceclaim_creates_total").containsExactly("success");
  }

  /** A node whose allocatable has the resources (a device plugin) needs no claim. */
  @Test
  void extendedResources_nodeWithDevicePluginNeedsNoClaim() {
    cluster(1, 4);
    DynamicResources pl = extendedPlugin();
    CycleState st = new CycleState();
    PodInfo p = new PodInfo(extendedPod());
    pl.preFilter(CTX, st, p, List.of());
    NodeInfo plugin =
        NodeInfo.of(
            Make.node("node-1")
                .labels("kubernetes.io/hostname", "node-1")
                .allocatable(
                    "example.com/gpu", "4", "deviceclass.resource.kubernetes.io/" + DRIVER, "4")
                .obj());
    assertThat(Status.ok(pl.filter(CTX, st, p, plugin))).isTrue();
    assertThat(Status.ok(pl.reserve(CTX, st, p, "node-1"))).isTrue();
    assertThat(Status.ok(pl.preBind(CTX, st, p, "node-1"))).isTrue();
    assertThat(writer.calls).isEmpty();
  }

  /** Not enough devices: unschedulable, with the allocator's explanation. */
  @Test
  void extendedResources_tooFewDevicesIsUnschedulable() {
    cluster(1, 2);
    DynamicResources pl = extendedPlugin();
    CycleState st = new CycleState();
    PodInfo p = new PodInfo(extendedPod());
    pl.preFilter(CTX, st, p, List.of());
    Status s = pl.filter(CTX, st, p, node("node-1"));
    assertThat(Status.ok(s)).isFalse();
    assertThat(s.message()).contains("cannot allocate all claims");
  }

  /** A claim left by an attempt that did not bind is deleted in PostFilter, then tried anew. */
  @Test
  void extendedResources_staleClaimIsDeletedInPostFilter() {
    cluster(1, 4);
    DynamicResources pl = extendedPlugin();
    Pod pod = extendedPod();
    ResourceClaim stale =
        new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder(
                ExtendedResourceClaims.inMemory(pod))
            .editMetadata()
            .withName("p0-extended-resources-old")
            .withResourceVersion("3")
            .endMetadata()
            .build();
    dra.claimChanged(stale);
    CycleState st = new CycleState();
    PodInfo p = new PodInfo(pod);
    pl.preFilter(CTX, st, p, List.of());
    assertThat(pl.filter(CTX, st, p, node("node-1")).message())
        .isEqualTo("cannot schedule extended resource claim");
    pl.postFilter(CTX, st, p, java.util.Map.of());
    assertThat(writer.calls).containsExactly("delete p0-extended-resources-old");
  }

  @Test
  void reserve_sharedClaimInFlightForAnotherPodIsUnschedulable() {
    cluster(1, 2);
    claim("shared");
    DynamicResources pl = plugin();
    CycleState s1 = new CycleState();
    CycleState s2 = new CycleState();
    PodInfo p1 = new PodInfo(podWithClaim("p1", "shared"));
    PodInfo p2 = new PodInfo(podWithClaim("p2", "shared"));
    pl.preFilter(CTX, s1, p1, List.of());
    pl.preFilter(CTX, s2, p2, List.of());
    pl.filter(CTX, s1, p1, node("node-1"));
    pl.filter(CTX, s2, p2, node("node-1"));
    assertThat(Status.ok(pl.reserve(CTX, s1, p1, "node-1"))).isTrue();
    assertThat(pl.reserve(CTX, s2, p2, "node-1").message())
        .isEqualTo("resourceclaim is being allocated for another pod");
  }

  @Test
  void score_prefersTheFirstAvailableSubrequest() {
    dra.classChanged(Make.deviceClass(DRIVER).driver(DRIVER).obj());
    dra.classChanged(Make.deviceClass("small").driver(DRIVER).obj());
    SliceBuilderHelper.gpus(dra, "node-1", 1, "model", "big");
    SliceBuilderHelper.gpus(dra, "node-2", 1, "model", "small");
    dra.claimChanged(
        Make.claim("c")
            .namespace("ns")
            .uid("c")
            .requests(
                Requests.firstAvailable(
                    "gpu",
                    Requests.sub(
                        "big", DRIVER, 1, "device.attributes['gpu.example.com'].model == 'big'"),
                    Requests.sub("small", DRIVER, 1)))
            .obj());
    DynamicResources pl = plugin();
    CycleState st = new CycleState();
    PodInfo p = new PodInfo(podWithClaim("p", "c"));
    pl.preFilter(CTX, st, p, List.of());
    assertThat(Status.ok(pl.filter(CTX, st, p, node("node-1")))).isTrue();
    assertThat(Status.ok(pl.filter(CTX, st, p, node("node-2")))).isTrue();
    assertThat(pl.preScore(CTX, st, p, List.of()).isSkip()).isFalse();
    long[] s = {pl.score(CTX, st, p, node("node-1")), pl.score(CTX, st, p, node("node-2"))};
    assertThat(s).containsExactly(8, 7);
    pl.normalizeScore(st, p, s);
    assertThat(s).containsExactly(100, 87);
  }

  @Test
  void filterTimeout_isAnError() {
    cluster(1, 4);
    claim("a");
    DynamicResources pl = plugin(Duration.ofSeconds(10));
    CycleState st = new CycleState();
    PodInfo p = new PodInfo(podWithClaim("p", "a"));
    pl.preFilter(CTX, st, p, List.of());
    nanos.set(0);
    // Every read of the clock is 11 s later than the one before.
    DynamicResources slow =
        DynamicResources.builder(
                dra, new DynamicResourcesArgs(Duration.ofSeconds(10), Duration.ofSeconds(600)))
            .nanoClock(() -> nanos.addAndGet(11_000_000_000L))
            .writer(writer)
            .build();
    Status s = slow.filter(CTX, st, p, node("node-1"));
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message()).isEqualTo("timed out trying to allocate devices");
  }

  @Test
  void postFilter_deallocatesAClaimReservedByNobodyElse() {
    cluster(2, 1);
    dra.claimChanged(
        Make.claim("c")
            .namespace("ns")
            .uid("c")
            .request(DRIVER)
            .allocatedOn("node-1", DRIVER, "gpu-0")
            .obj());
    DynamicResources pl = plugin();
    CycleState st = new CycleState();
    PodInfo p = new PodInfo(podWithClaim("p", "c"));
    pl.preFilter(CTX, st, p, List.of());
    pl.filter(CTX, st, p, node("node-2"));
    Status s = pl.postFilter(CTX, st, p, java.util.Map.of());
    assertThat(s.message()).isEqualTo("deallocation of ResourceClaim completed");
    assertThat(writer.calls).containsExactly("deallocate c");
  }
}
