package io.jdra.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * extended-resource-request (KEP-5004) on {@code jdra up --extended-resource-name example.com/gpu}
 * (the chart's deviceClass.extendedResourceName): pod0 asks for {@code
 * deviceclass.resource.kubernetes.io/gpu.example.com: 1}, pod1 for {@code example.com/gpu: 1} in
 * plain {@code resources.limits}; the scheduler makes a claim for each and records it in {@code
 * status.extendedResourceClaimStatus}, the kubelet hands the GPU to the container.
 */
class ExtendedResourceDemoE2ETest {
  static final String NS = "extended-resource-request";

  @TempDir static Path dir;
  static Path manifest;

  @BeforeAll
  static void examples() {
    manifest = Demos.manifestOrSkip(NS);
  }

  @Test
  void eachPodGetsAGpuThroughAClaimTheSchedulerMade() throws Exception {
    try (JdraUpProcess up =
        JdraUpProcess.start(dir.resolve("data"), "--extended-resource-name=example.com/gpu")) {
      Demos.apply(up, manifest);
      Demos.awaitRunning(up, NS, "pod0", "pod1");

      Set<String> devices = new HashSet<>();
      for (String name : List.of("pod0", "pod1")) {
        Pod pod = up.client().pods().inNamespace(NS).withName(name).get();
        var ext = pod.getStatus().getExtendedResourceClaimStatus();
        assertThat(ext).as(name + " extendedResourceClaimStatus").isNotNull();
        assertThat(ext.getResourceClaimName()).startsWith(name + "-extended-resources-");
        assertThat(ext.getRequestMappings()).hasSize(1);
        assertThat(ext.getRequestMappings().get(0).getContainerName()).isEqualTo("ctr0");
        assertThat(ext.getRequestMappings().get(0).getRequestName())
            .isEqualTo("container-0-request-0");
        ResourceClaim claim =
            up.client()
                .dynamicResourceAllocation()
                .v1()
                .resourceClaims()
                .inNamespace(NS)
                .withName(ext.getResourceClaimName())
                .get();
        assertThat(claim.getMetadata().getAnnotations())
            .containsEntry("resource.kubernetes.io/extended-resource-claim", "true");
        String device =
            claim.getStatus().getAllocation().getDevices().getResults().get(0).getDevice();
        devices.add(device);
        String logs = up.kubectl().run("logs", "-n", NS, name, "-c", "ctr0").ok().out();
        assertThat(logs).contains("=\"" + device + "\"");
      }
      assertThat(devices).as("each pod its own GPU").hasSize(2);
      assertThat(
              up.kubectl()
                  .run(
                      "get",
                      "pod",
                      "-n",
                      NS,
                      "pod0",
                      "-o",
                      "jsonpath={.status.extendedResourceClaimStatus.resourceClaimName}")
                  .ok()
                  .out())
          .startsWith("pod0-extended-resources-");

      Demos.deleteAndAwaitGone(up, NS, manifest);
    }
  }
}
