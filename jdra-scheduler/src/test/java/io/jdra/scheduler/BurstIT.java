package io.jdra.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.testing.objects.Make;
import io.jdra.testing.objects.Requests;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The guarantees under load, with the real ResourceClaim controller: no device ever allocated to
 * two claims while pods are created, deleted and recreated; shared claims; a scheduler killed and
 * restarted converges. Scale: {@code -Djdra.burst.pods=5000 -Djdra.burst.nodes=500} for the issue's
 * full size (default 400 pods on 50 nodes x 10 devices, for a shared 2-core machine).
 */
class BurstIT {
  static final int PODS = Integer.getInteger("jdra.burst.pods", 400);
  static final int NODES = Integer.getInteger("jdra.burst.nodes", 50);

  static void template(TestCluster c) {
    c.client
        .resource(
            new ResourceClaimTemplateBuilder()
                .withNewMetadata()
                .withName("gpu")
                .withNamespace("default")
                .endMetadata()
                .withNewSpec()
                .withNewSpec()
                .withNewDevices()
                .withRequests(Requests.exactly("gpu", TestCluster.DRIVER, 1))
                .endDevices()
                .endSpec()
                .endSpec()
                .build())
        .create();
  }

  static Pod pod(String name) {
    return Make.pod(name)
        .namespace("default")
        .claimFromTemplate("gpu", "gpu")
        .container("c", "gpu")
        .obj();
  }

  static void createPods(TestCluster c, List<String> names) throws InterruptedException {
    ExecutorService ex = Executors.newFixedThreadPool(8);
    for (String n : names) {
      ex.execute(() -> c.client.resource(pod(n)).create());
    }
    ex.shutdown();
    ex.awaitTermination(5, TimeUnit.MINUTES);
  }

  @Test
  void burstWithDeletes_neverAllocatesADeviceTwice() throws Exception {
    try (TestCluster c = new TestCluster()) {
      c.deviceClass();
      for (int i = 0; i < NODES; i++) {
        c.node("node-" + i);
        c.gpuSlice("node-" + i, 10);
      }
      template(c);
      c.startClaimController();
      c.startScheduler();
      List<String> names = new ArrayList<>();
      for (int i = 0; i < PODS; i++) {
        names.add("pod-" + i);
      }
      createPods(c, names);
      // 10% deleted while the burst is scheduled, then recreated under the same names.
      List<String> churn =
          names.stream().filter(n -> Integer.parseInt(n.substring(4)) % 10 == 0).toList();
      for (String n : churn) {
        c.client.pods().inNamespace("default").withName(n).withGracePeriod(0).delete();
      }
      await()
          .atMost(Duration.ofMinutes(2))
          .until(() ->
              churn.stream()
                  .allMatch(n -> c.client.pods().inNamespace("default").withName(n).get() == null));
      createPods(c, churn);

      await()
          .atMost(Duration.ofMinutes(10))
          .pollInterval(Duration.ofSeconds(1))
          .until(() ->
              c.client.pods().inNamespace("default").list().getItems().stream()
                      .filter(Scheduler::isBound)
                      .count()
                  == PODS);
      assertNoDoubleAllocation(c);
      assertReservationsMatchBoundPods(c);
      assertEveryBoundPodHasItsScheduledEvent(c);
    }
  }

  /** The event writer keeps up with a burst: no bound pod's {@code Scheduled} event is lost. */
  static void assertEveryBoundPodHasItsScheduledEvent(TestCluster c) {
    Set<String> bound =
        c.client.pods().inNamespace("default").list().getItems().stream()
            .filter(Scheduler::isBound)
            .map(p -> p.getMetadata().getUid())
            .collect(Collectors.toSet());
    await()
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofSeconds(1))
        .untilAsserted(() ->
            assertThat(
                    c
                        .client
                        .resources(io.fabric8.kubernetes.api.model.events.v1.Event.class)
                        .inNamespace("default")
                        .list()
                        .getItems()
                        .stream()
                        .filter(e -> "Scheduled".equals(e.getReason()))
                        .map(e -> e.getRegarding().getUid())
                        .collect(Collectors.toSet()))
                .containsAll(bound));
  }

  @Test
  void killedAndRestarted_convergesWithoutLeaks() throws Exception {
    int pods = Math.min(PODS, 200);
    try (TestCluster c = new TestCluster()) {
      c.deviceClass();
      for (int i = 0; i < 25; i++) {
        c.node("node-" + i);
        c.gpuSlice("node-" + i, 10);
      }
      template(c);
      c.startClaimController();
      c.startScheduler();
      List<String> names = new ArrayList<>();
      for (int i = 0; i < pods; i++) {
        names.add("pod-" + i);
      }
      createPods(c, names);
      await()
          .atMost(Duration.ofMinutes(5))
          .until(() ->
              c.client.pods().inNamespace("default").list().getItems().stream()
                      .filter(Scheduler::isBound)
                      .count()
                  >= pods / 4);
      c.stopScheduler(); // mid-burst: some claims written, some pods not bound yet
      c.startScheduler();
      await()
          .atMost(Duration.ofMinutes(10))
          .pollInterval(Duration.ofSeconds(1))
          .until(() ->
              c.client.pods().inNamespace("default").list().getItems().stream()
                      .filter(Scheduler::isBound)
                      .count()
                  == pods);
      assertNoDoubleAllocation(c);
      assertReservationsMatchBoundPods(c);
    }
  }

  @Test
  void sharedClaim_allocatedOnceReservedForEveryPod() throws Exception {
    int sharers = 40;
    try (TestCluster c = new TestCluster()) {
      c.deviceClass();
      for (int i = 0; i < 4; i++) {
        c.node("node-" + i);
        c.gpuSlice("node-" + i, 2);
      }
      c.startScheduler();
      c.client
          .resource(Make.claim("shared").namespace("default").request(TestCluster.DRIVER).obj())
          .create();
      ExecutorService ex = Executors.newFixedThreadPool(8);
      for (int i = 0; i < sharers; i++) {
        String n = "sharer-" + i;
        ex.execute(() ->
            c.client
                .resource(
                    Make.pod(n)
                        .namespace("default")
                        .claim("gpu", "shared")
                        .container("c", "gpu")
                        .obj())
                .create());
      }
      ex.shutdown();
      ex.awaitTermination(2, TimeUnit.MINUTES);
      await()
          .atMost(Duration.ofMinutes(3))
          .until(() ->
              c.client.pods().inNamespace("default").list().getItems().stream()
                      .filter(Scheduler::isBound)
                      .count()
                  == sharers);
      List<Pod> bound = c.client.pods().inNamespace("default").list().getItems();
      assertThat(bound.stream().map(p -> p.getSpec().getNodeName()).distinct()).hasSize(1);
      ResourceClaim shared =
          c.client.resources(ResourceClaim.class).inNamespace("default").withName("shared").get();
      assertThat(TestCluster.devices(shared)).hasSize(1);
      assertThat(ResourceClaims.reservedFor(shared)).hasSize(sharers);
    }
  }

  static void assertNoDoubleAllocation(TestCluster c) {
    Map<String, List<String>> byDevice = new HashMap<>();
    for (ResourceClaim claim :
        c.client.resources(ResourceClaim.class).inAnyNamespace().list().getItems()) {
      if (claim.getStatus() == null || claim.getStatus().getAllocation() == null) {
        continue;
      }
      for (DeviceRequestAllocationResult r :
          claim.getStatus().getAllocation().getDevices().getResults()) {
        byDevice
            .computeIfAbsent(
                r.getDriver() + "/" + r.getPool() + "/" + r.getDevice(), k -> new ArrayList<>())
            .add(claim.getMetadata().getName());
      }
    }
    Map<String, List<String>> doubles =
        byDevice.entrySet().stream()
            .filter(e -> e.getValue().size() > 1)
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    assertThat(doubles).as("devices allocated to more than one claim").isEmpty();
  }

  /** Every reservation names a live bound pod on the claim's node; every bound pod is reserved. */
  static void assertReservationsMatchBoundPods(TestCluster c) {
    Map<String, Pod> podsByUid = new HashMap<>();
    for (Pod p : c.client.pods().inAnyNamespace().list().getItems()) {
      podsByUid.put(p.getMetadata().getUid(), p);
    }
    Set<String> reserved = new HashSet<>();
    for (ResourceClaim claim :
        c.client.resources(ResourceClaim.class).inAnyNamespace().list().getItems()) {
      for (ResourceClaimConsumerReference r : ResourceClaims.reservedFor(claim)) {
        Pod p = podsByUid.get(r.getUid());
        assertThat(p)
            .as("claim %s reserved for a pod that does not exist", claim.getMetadata().getName())
            .isNotNull();
        reserved.add(r.getUid());
        String node = claim.getStatus().getAllocation().getDevices().getResults().get(0).getPool();
        assertThat(p.getSpec().getNodeName())
            .as("pod of claim %s", claim.getMetadata().getName())
            .isEqualTo(node);
      }
      if (claim.getStatus() != null && claim.getStatus().getAllocation() != null) {
        assertThat(claim.getMetadata().getFinalizers()).contains(ResourceClaims.FINALIZER);
      }
    }
    for (Pod p : podsByUid.values()) {
      assertThat(reserved)
          .as("bound pod %s has its claim reserved", p.getMetadata().getName())
          .contains(p.getMetadata().getUid());
    }
  }
}
