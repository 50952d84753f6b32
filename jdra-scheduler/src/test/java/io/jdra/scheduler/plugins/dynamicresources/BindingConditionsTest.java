package io.jdra.scheduler.plugins.dynamicresources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.Status;
import io.jdra.testing.objects.Make;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * DRADeviceBindingConditions in DynamicResources: PreBind stamps the allocation and waits (5 s
 * polls on a fake clock) for the driver's conditions; a failure condition or the binding timeout
 * fails the binding, and the next attempt's Filter and PostFilter deallocate the claim.
 */
class BindingConditionsTest {
  static final String DRIVER = DynamicResourcesTest.DRIVER;
  static final Duration TIMEOUT = Duration.ofSeconds(600);

  final FakeClock clock = new FakeClock(Instant.parse("2026-05-15T14:00:00Z"));
  final Ctx ctx = Ctx.forTest(clock);
  final DraManager dra = new DraManager(AllocatorFeatures.defaults(), true);
  final DynamicResourcesTest.FakeWriter writer = new DynamicResourcesTest.FakeWriter(dra);
  final Pod pod = DynamicResourcesTest.podWithClaim("p", "a");

  final List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();
  final List<String> metrics = new java.util.concurrent.CopyOnWriteArrayList<>();

  DynamicResources plugin(Duration bindingTimeout) {
    DynamicResources pl = newPlugin(bindingTimeout);
    pl.setMetrics(
        new DraMetrics() {
          @Override
          public void claimCreate(String status) {
            metrics.add("create " + status);
          }

          @Override
          public void bindingConditions(String driver, String result, Duration waited) {
            metrics.add(driver + " " + result + " " + waited.toSeconds() + "s");
          }
        });
    return pl;
  }

  DynamicResources newPlugin(Duration bindingTimeout) {
    return DynamicResources.builder(
            dra, new DynamicResourcesArgs(Duration.ofSeconds(10), bindingTimeout))
        .writer(writer)
        .events((p, type, reason, action, note) ->
            events.add(String.join(" ", p.getMetadata().getName(), type, reason, action, note)))
        .build();
  }

  void gpuWithBindingConditions() {
    dra.classChanged(Make.deviceClass(DRIVER).driver(DRIVER).obj());
    Device d = Make.device("gpu-0").obj();
    d.setBindingConditions(List.of("BindingConditions"));
    d.setBindingFailureConditions(List.of("BindingFailureConditions"));
    dra.sliceChanged(
        Make.slice("node-1-gpu", "node-1", DRIVER).pool("node-1", 1, 1).devices(d).obj());
  }

  void newClaim() {
    dra.claimChanged(
        Make.claim("a").namespace("ns").uid("c-a").resourceVersion("1").request(DRIVER).obj());
  }

  /** Runs PreFilter, Filter and Reserve on node-1, then PreBind on another thread. */
  CompletableFuture<Status> scheduleAndPreBind(DynamicResources pl, CycleState st) {
    PodInfo p = new PodInfo(pod);
    assertThat(Status.ok(pl.preFilter(ctx, st, p, List.of()).status())).isTrue();
    assertThat(Status.ok(pl.filter(ctx, st, p, DynamicResourcesTest.node("node-1")))).isTrue();
    assertThat(Status.ok(pl.reserve(ctx, st, p, "node-1"))).isTrue();
    CompletableFuture<Status> f =
        CompletableFuture.supplyAsync(() -> pl.preBind(ctx, st, p, "node-1"));
    await().atMost(Duration.ofSeconds(10)).until(() -> clock.hasWaiters() || f.isDone());
    return f;
  }

  /** The claim as the driver's controller leaves it: {@code type} set to {@code status}. */
  void driverSets(String type, String status, String reason) {
    ResourceClaim cur = dra.getClaim("ns", "a").orElseThrow();
    DeviceRequestAllocationResult r =
        cur.getStatus().getAllocation().getDevices().getResults().get(0);
    dra.claimChanged(
        new ResourceClaimBuilder(cur)
            .editMetadata()
            .withResourceVersion("1000")
            .endMetadata()
            .editStatus()
            .withDevices(
                new AllocatedDeviceStatusBuilder()
                    .withDriver(r.getDriver())
                    .withPool(r.getPool())
                    .withDevice(r.getDevice())
                    .withConditions(
                        new ConditionBuilder()
                            .withType(type)
                            .withStatus(status)
                            .withReason(reason)
                            .withMessage("from the driver")
                            .withLastTransitionTime("2026-05-15T14:00:03Z")
                            .build())
                    .build())
            .endStatus()
            .build());
  }

  @Test
  void preBindStampsTheAllocationAndWaitsForTheConditions() throws Exception {
    gpuWithBindingConditions();
    newClaim();
    CompletableFuture<Status> f = scheduleAndPreBind(plugin(TIMEOUT), new CycleState());

    ResourceClaim written = dra.getClaim("ns", "a").orElseThrow();
    assertThat(written.getStatus().getAllocation().getAllocationTimestamp())
        .isEqualTo("2026-05-15T14:00:00Z");
    assertThat(written.getStatus().getAllocation().getDevices().getResults().get(0))
        .extracting(
            DeviceRequestAllocationResult::getBindingConditions,
            DeviceRequestAllocationResult::getBindingFailureConditions)
        .containsExactly(List.of("BindingConditions"), List.of("BindingFailureConditions"));
    assertThat(f).isNotDone();
    assertThat(events)
        .containsExactly(
            "p Normal BindingConditionsPending Scheduling"
                + " waiting for binding conditions for device on node node-1");

    clock.step(Duration.ofSeconds(5));
    await().atMost(Duration.ofSeconds(10)).until(clock::hasWaiters);
    assertThat(f).as("still waiting after a poll without the condition").isNotDone();

    driverSets("BindingConditions", "True", "Ready");
    clock.step(Duration.ofSeconds(5));
    assertThat(f.get(10, TimeUnit.SECONDS)).isNull();
    assertThat(metrics).containsExactly(DRIVER + " success 10s");
  }

  @Test
  void aFailureConditionFailsTheBinding() throws Exception {
    gpuWithBindingConditions();
    newClaim();
    CompletableFuture<Status> f = scheduleAndPreBind(plugin(TIMEOUT), new CycleState());

    driverSets("BindingFailureConditions", "True", "Broken");
    clock.step(Duration.ofSeconds(5));

    Status s = f.get(10, TimeUnit.SECONDS);
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message())
        .isEqualTo("claim a binding failed: reason=Broken, message=\"from the driver\"");
    assertThat(metrics).containsExactly(DRIVER + " failure 5s");
  }

  @Test
  void theBindingTimeoutFailsTheBinding() throws Exception {
    gpuWithBindingConditions();
    newClaim();
    CompletableFuture<Status> f =
        scheduleAndPreBind(plugin(Duration.ofSeconds(10)), new CycleState());

    clock.step(Duration.ofSeconds(5));
    await().atMost(Duration.ofSeconds(10)).until(clock::hasWaiters);
    clock.step(Duration.ofSeconds(5));

    Status s = f.get(10, TimeUnit.SECONDS);
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message()).isEqualTo("device binding timeout");
  }

  /** An allocated, unreserved claim as a failed PreBind and its Unreserve leave it. */
  void allocatedClaim(String allocationTimestamp, Map<String, String> conditions) {
    gpuWithBindingConditions();
    ResourceClaim c =
        Make.claim("a")
            .namespace("ns")
            .uid("c-a")
            .resourceVersion("1")
            .request(DRIVER)
            .allocatedOn("node-1", DRIVER, "gpu-0")
            .obj();
    var r = c.getStatus().getAllocation().getDevices().getResults().get(0);
    r.setBindingConditions(List.of("BindingConditions"));
    r.setBindingFailureConditions(List.of("BindingFailureConditions"));
    c.getStatus().getAllocation().setAllocationTimestamp(allocationTimestamp);
    dra.claimChanged(c);
    conditions.forEach((type, status) -> driverSets(type, status, "X"));
  }

  Status filterOnNode1(DynamicResources pl, CycleState st) {
    PodInfo p = new PodInfo(pod);
    assertThat(Status.ok(pl.preFilter(ctx, st, p, List.of()).status())).isTrue();
    return pl.filter(ctx, st, p, DynamicResourcesTest.node("node-1"));
  }

  @Test
  void nextAttemptDeallocatesAFailedClaim() {
    allocatedClaim("2026-05-15T14:00:00Z", Map.of("BindingFailureConditions", "True"));
    DynamicResources pl = plugin(TIMEOUT);
    CycleState st = new CycleState();

    assertThat(filterOnNode1(pl, st).message())
        .isEqualTo("resourceclaim not available on the node");
    assertThat(pl.postFilter(ctx, st, new PodInfo(pod), Map.of()).message())
        .isEqualTo("deallocation of ResourceClaim completed");
    assertThat(writer.calls).containsExactly("deallocate a");
  }

  @Test
  void nextAttemptDeallocatesATimedOutClaimOnlyAfterTheTimeout() {
    allocatedClaim("2026-05-15T13:50:00Z", Map.of());
    DynamicResources pl = plugin(TIMEOUT);

    assertThat(Status.ok(filterOnNode1(pl, new CycleState())))
        .as("exactly 600 s after the allocation: not yet timed out")
        .isTrue();

    clock.step(Duration.ofSeconds(1));
    CycleState st = new CycleState();
    assertThat(filterOnNode1(pl, st).message())
        .isEqualTo("resourceclaim not available on the node");
    assertThat(pl.postFilter(ctx, st, new PodInfo(pod), Map.of()).message())
        .isEqualTo("deallocation of ResourceClaim completed");
  }

  @Test
  void aReadyClaimIsKeptAfterTheTimeout() {
    allocatedClaim("2026-05-15T13:00:00Z", Map.of("BindingConditions", "True"));

    assertThat(Status.ok(filterOnNode1(plugin(TIMEOUT), new CycleState()))).isTrue();
  }

  @Test
  void withTheGateOffNothingIsStampedOrAwaited() {
    FeatureGates off = FeatureGates.defaults().with(Feature.DRA_DEVICE_BINDING_CONDITIONS, false);
    DraManager plain = new DraManager(AllocatorFeatures.from(off), true);
    DynamicResourcesTest.FakeWriter w = new DynamicResourcesTest.FakeWriter(plain);
    plain.classChanged(Make.deviceClass(DRIVER).driver(DRIVER).obj());
    SliceBuilderHelper.gpus(plain, "node-1", 1);
    plain.claimChanged(
        Make.claim("a").namespace("ns").uid("c-a").resourceVersion("1").request(DRIVER).obj());
    DynamicResources pl =
        DynamicResources.builder(plain, new DynamicResourcesArgs(Duration.ofSeconds(10), TIMEOUT))
            .writer(w)
            .build();
    CycleState st = new CycleState();
    PodInfo p = new PodInfo(pod);
    pl.preFilter(ctx, st, p, List.of());
    pl.filter(ctx, st, p, DynamicResourcesTest.node("node-1"));
    pl.reserve(ctx, st, p, "node-1");

    assertThat(pl.preBind(ctx, st, p, "node-1")).isNull();
    assertThat(events).isEmpty();
    assertThat(
            plain
                .getClaim("ns", "a")
                .orElseThrow()
                .getStatus()
                .getAllocation()
                .getAllocationTimestamp())
        .isNull();
  }

  /**
   * The stamped claim PreBind writes is what a builder's deep copy with the timestamp gives (same
   * object by equals, same JSON), and the claim it came from stays as it was.
   */
  @Test
  void stampedAllocationIsTheBuildersCopyWithTheTimestamp() {
    ResourceClaim allocated =
        Make.claim("a")
            .namespace("default")
            .uid("uid-a")
            .resourceVersion("7")
            .request(DRIVER)
            .allocatedOn("node-1", DRIVER, "gpu-0")
            .reservedForPod("other", "uid-other")
            .obj();
    allocated
        .getStatus()
        .setDevices(
            List.of(
                new AllocatedDeviceStatusBuilder()
                    .withDriver(DRIVER)
                    .withPool("node-1")
                    .withDevice("gpu-0")
                    .build()));
    allocated.getStatus().getAllocation().setAdditionalProperty("future", "x");
    allocated.getStatus().setAdditionalProperty("statusFuture", 1);
    allocated.setAdditionalProperty("claimFuture", true);
    var serialization = new io.fabric8.kubernetes.client.utils.KubernetesSerialization();
    String before = serialization.asJson(allocated);
    Instant now = Instant.parse("2026-05-15T14:00:00.750Z");

    ResourceClaim stamped = BindingConditions.withAllocationTimestamp(allocated, now);
    ResourceClaim viaBuilder =
        new ResourceClaimBuilder(allocated)
            .editStatus()
            .editAllocation()
            .withAllocationTimestamp("2026-05-15T14:00:00Z")
            .endAllocation()
            .endStatus()
            .build();

    assertThat(stamped).isEqualTo(viaBuilder);
    assertThat(serialization.asJson(stamped)).isEqualTo(serialization.asJson(viaBuilder));
    assertThat(serialization.asJson(allocated)).isEqualTo(before);
    assertThat(BindingConditions.withAllocationTimestamp(stamped, now.plusSeconds(60)))
        .isSameAs(stamped);
  }
}
