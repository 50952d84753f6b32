package io.jdra.kubeletplugin.guide;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.grpc.ManagedChannel;
import io.jdra.kubeletplugin.Helper;
import io.jdra.proto.UnixSockets;
import io.jdra.proto.dra.v1.Claim;
import io.jdra.proto.dra.v1.DRAPluginGrpc;
import io.jdra.proto.dra.v1.NodePrepareResourcesRequest;
import io.jdra.runtime.Ctx;
import io.jdra.testing.apiserver.TestApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The guide's minimal driver works: it publishes its device and prepares a claim. */
class MinimalDriverTest {
  @TempDir Path dir;

  @Test
  void publishesAndPrepares() throws Exception {
    try (TestApiServer server = TestApiServer.start()) {
      var client = server.client();
      client
          .nodes()
          .resource(new NodeBuilder().withNewMetadata().withName("n1").endMetadata().build())
          .create();
      Helper helper =
          MinimalDriver.start(
              Ctx.background("test"),
              client,
              "n1",
              dir.resolve("cdi"),
              dir.resolve("reg"),
              dir.resolve("plugins"));
      ManagedChannel channel = UnixSockets.channel(helper.options().pluginSocketPath());
      try {
        assertThat(helper.resourceSliceController().awaitPublished(Duration.ofSeconds(20)))
            .as("published")
            .isTrue();
        assertThat(client.resources(ResourceSlice.class).list().getItems())
            .singleElement()
            .satisfies(
                s -> assertThat(s.getSpec().getDevices().get(0).getName()).isEqualTo("dev-0"));

        ResourceClaim claim =
            client
                .resources(ResourceClaim.class)
                .resource(
                    new ResourceClaimBuilder()
                        .withNewMetadata()
                        .withName("c")
                        .withNamespace("default")
                        .endMetadata()
                        .withNewSpec()
                        .withNewDevices()
                        .addNewRequest()
                        .withName("r")
                        .withNewExactly()
                        .withDeviceClassName("minimal")
                        .endExactly()
                        .endRequest()
                        .endDevices()
                        .endSpec()
                        .build())
                .create();
        DeviceRequestAllocationResult r = new DeviceRequestAllocationResult();
        r.setRequest("r");
        r.setDriver(MinimalDriver.DRIVER);
        r.setPool("n1");
        r.setDevice("dev-0");
        DeviceAllocationResult devices = new DeviceAllocationResult();
        devices.setResults(List.of(r));
        AllocationResult a = new AllocationResult();
        a.setDevices(devices);
        claim.setStatus(new ResourceClaimStatus());
        claim.getStatus().setAllocation(a);
        String uid =
            client
                .resources(ResourceClaim.class)
                .resource(claim)
                .updateStatus()
                .getMetadata()
                .getUid();

        var resp =
            DRAPluginGrpc.newBlockingStub(channel)
                .nodePrepareResources(
                    NodePrepareResourcesRequest.newBuilder()
                        .addClaims(
                            Claim.newBuilder().setNamespace("default").setName("c").setUid(uid))
                        .build())
                .getClaimsOrThrow(uid);

        assertThat(resp.getError()).isEmpty();
        assertThat(resp.getDevices(0).getCdiDeviceIdsList())
            .containsExactly("k8s.minimal.example.com/dev=" + uid + "-dev-0");
        assertThat(
                Files.readString(dir.resolve("cdi/k8s.minimal.example.com-dev_" + uid + ".yaml")))
            .contains("MINIMAL_DEVICE=dev-0");
      } finally {
        channel.shutdownNow();
        helper.stop();
      }
    }
  }
}
