package io.jdra.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.testing.objects.Make;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Binding cycles run side by side without a fixed pool (upstream starts a goroutine per binding
 * cycle): pods whose PreBind waits for device binding conditions that no driver sets do not hold
 * back the binding of a pod that needs nothing, however many of them wait.
 */
class BindingCycleIT {
  static final int WAITING = 24;

  @Test
  void podsWaitingForBindingConditionsDoNotBlockAPlainPod() {
    try (TestCluster c = new TestCluster()) {
      c.deviceClass();
      c.node("node-1");
      ResourceSlice s = c.gpuSlice("node-1", WAITING);
      // Devices that become usable only once a driver reports "Attached"; none ever does.
      s.getSpec()
          .getDevices()
          .forEach(d -> {
            d.setBindingConditions(List.of("Attached"));
            d.setBindingFailureConditions(List.of("AttachFailed"));
          });
      c.client.resource(s).update();
      // More waiting binding cycles than the old pool had threads (16).
      c.startScheduler(SchedulerOptions.defaults().withParallelism(2));
      for (int i = 0; i < WAITING; i++) {
        c.client
            .resource(Make.claim("gpu-" + i).namespace("default").request(TestCluster.DRIVER).obj())
            .create();
        c.client
            .resource(
                Make.pod("waiting-" + i)
                    .namespace("default")
                    .claim("gpu", "gpu-" + i)
                    .container("ctr", "gpu")
                    .obj())
            .create();
      }
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() ->
              c
                      .client
                      .resources(ResourceClaim.class)
                      .inNamespace("default")
                      .list()
                      .getItems()
                      .stream()
                      .filter(claim ->
                          claim.getStatus() != null && claim.getStatus().getAllocation() != null)
                      .count()
                  == WAITING);

      c.client.resource(Make.pod("plain").namespace("default").container("ctr").obj()).create();

      Pod plain = c.awaitBound("default", "plain");
      assertThat(plain.getSpec().getNodeName()).isEqualTo("node-1");
      for (int i = 0; i < WAITING; i++) {
        Pod w = c.client.pods().inNamespace("default").withName("waiting-" + i).get();
        assertThat(w.getSpec().getNodeName()).as("waiting-%d still waits", i).isNull();
      }
    }
  }
}
