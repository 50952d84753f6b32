package io.jdra.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.testing.objects.Make;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scheduler against the embedded API server with the dra-example-driver demos. */
class SchedulerIT {

  @Test
  void basicResourceClaimTemplate_twoPodsGetTheFirstTwoGpus() {
    try (TestCluster c = new TestCluster()) {
      c.deviceClass();
      c.node("node-1");
      c.gpuSlice("node-1", 8);
      c.startScheduler();
      c.apply("basic-resourceclaimtemplate/basic-resourceclaimtemplate.yaml");
      String ns = "basic-resourceclaimtemplate";
      c.generateClaims(ns, "pod0");
      c.generateClaims(ns, "pod1");

      Pod pod0 = c.awaitBound(ns, "pod0");
      Pod pod1 = c.awaitBound(ns, "pod1");

      assertThat(pod0.getSpec().getNodeName()).isEqualTo("node-1");
      ResourceClaim c0 = c.claimOf(pod0, "gpu");
      ResourceClaim c1 = c.claimOf(pod1, "gpu");
      assertThat(List.of(TestCluster.devices(c0), TestCluster.devices(c1)))
          .containsExactlyInAnyOrder(List.of("node-1/gpu-0"), List.of("node-1/gpu-1"));
      assertThat(c0.getMetadata().getFinalizers()).contains(ResourceClaims.FINALIZER);
      assertThat(ResourceClaims.isReservedForPod(pod0, c0)).isTrue();
      assertThat(ResourceClaims.isReservedForPod(pod1, c1)).isTrue();
      assertThat(c0.getStatus().getAllocation().getNodeSelector()).isNotNull();
    }
  }

  @Test
  void sharedClaimAcrossPods_allocatedOnceReservedForBoth() {
    try (TestCluster c = new TestCluster()) {
      c.deviceClass();
      c.node("node-1");
      c.node("node-2");
      c.gpuSlice("node-1", 8);
      c.gpuSlice("node-2", 8);
      c.startScheduler();
      c.apply("basic-shared-claim-across-pods/basic-shared-claim-across-pods.yaml");
      String ns = "basic-shared-claim-across-pods";

      Pod pod0 = c.awaitBound(ns, "pod0");
      Pod pod1 = c.awaitBound(ns, "pod1");

      assertThat(pod1.getSpec().getNodeName()).isEqualTo(pod0.getSpec().getNodeName());
      ResourceClaim claim = c.claimOf(pod0, "shared-gpu");
      assertThat(TestCluster.devices(claim)).hasSize(1);
      assertThat(ResourceClaims.reservedFor(claim)).hasSize(2);
    }
  }

  @Test
  void podThatCannotFit_getsAnExplainingEventAndIsScheduledOnceASliceAppears() {
    try (TestCluster c = new TestCluster()) {
      c.deviceClass();
      c.node("node-1");
      c.startScheduler();
      c.client
          .resource(Make.claim("gpu").namespace("default").request(TestCluster.DRIVER).obj())
          .create();
      c.client
          .resource(
              Make.pod("waiting")
                  .namespace("default")
                  .claim("gpu", "gpu")
                  .container("ctr", "gpu")
                  .obj())
          .create();

      await()
          .atMost(Duration.ofSeconds(20))
          .until(() ->
              c.client.resources(Event.class).inNamespace("default").list().getItems().stream()
                  .anyMatch(e -> "FailedScheduling".equals(e.getReason())));
      Event e =
          c.client.resources(Event.class).inNamespace("default").list().getItems().stream()
              .filter(x -> "FailedScheduling".equals(x.getReason()))
              .findFirst()
              .orElseThrow();
      assertThat(e.getNote())
          .startsWith("0/1 nodes are available: 1 cannot allocate all claims.")
          .contains("claim default/gpu request req-0: wants 1, 0 usable");
      assertThat(e.getReportingController()).isEqualTo("default-scheduler");
      // As client-go's NewRecorder: <controller>-<host>.
      assertThat(e.getReportingInstance()).startsWith("default-scheduler-");
      assertThat(e.getAction()).isEqualTo("Scheduling");
      assertThat(e.getType()).isEqualTo("Warning");
      assertThat(e.getRegarding().getKind()).isEqualTo("Pod");
      assertThat(e.getRegarding().getName()).isEqualTo("waiting");
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() ->
              podScheduledFalse(c.client.pods().inNamespace("default").withName("waiting").get())
                  != null);
      PodCondition cond =
          podScheduledFalse(c.client.pods().inNamespace("default").withName("waiting").get());
      assertThat(cond.getReason()).isEqualTo("Unschedulable");

      c.gpuSlice("node-1", 1);

      Pod p = c.awaitBound("default", "waiting");
      assertThat(TestCluster.devices(c.claimOf(p, "gpu"))).containsExactly("node-1/gpu-0");
    }
  }

  @Test
  void explainPod_perNodeAndRequest_readOnly() {
    try (TestCluster c = new TestCluster()) {
      c.deviceClass();
      c.node("node-1");
      c.node("node-2");
      c.gpuSlice("node-2", 2);
      c.client
          .resource(
              Make.claim("two").namespace("default").request("gpu", TestCluster.DRIVER, 2).obj())
          .create();
      c.client
          .resource(
              Make.pod("p").namespace("default").claim("gpu", "two").container("ctr", "gpu").obj())
          .create();

      String report =
          PodExplainer.explain(
              c.ctx, c.client, "default", "p", io.jdra.api.features.FeatureGates.defaults());

      assertThat(report)
          .contains("node node-1: does not fit (DynamicResources): cannot allocate all claims")
          .contains("request gpu: needs 2 devices, only 0 usable")
          .contains(
              "node node-2: fits; would allocate claim default/two: gpu=gpu.example.com/node-2/gpu-0"
                  + " gpu=gpu.example.com/node-2/gpu-1")
          .contains("1/2 nodes fit");
      ResourceClaim after =
          c.client.resources(ResourceClaim.class).inNamespace("default").withName("two").get();
      assertThat(after.getStatus() == null || after.getStatus().getAllocation() == null).isTrue();
    }
  }

  private static PodCondition podScheduledFalse(Pod p) {
    if (p.getStatus() == null || p.getStatus().getConditions() == null) {
      return null;
    }
    return p.getStatus().getConditions().stream()
        .filter(x -> "PodScheduled".equals(x.getType()) && "False".equals(x.getStatus()))
        .findFirst()
        .orElse(null);
  }
}
