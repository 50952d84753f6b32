package io.jdra.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binding-conditions demo on {@code jdra up} started with its README's chart values: {@code
 * kubeletPlugin.bindingConditions=true} as {@code --driver-flags "--binding-conditions"} and {@code
 * controller.plugins={BindingConditions}} as {@code --controller-plugins BindingConditions}. The
 * manifest runs unchanged.
 */
class BindingConditionsDemoE2ETest {
  static final String NS = "binding-conditions";
  static final String DRIVER = "gpu.example.com";

  @TempDir static Path dir;
  static Path manifest;

  @BeforeAll
  static void examples() {
    Assumptions.assumeTrue(Paths.kubectl() != null, "kubectl not installed; skipping");
    Path ex = Paths.examples();
    Assumptions.assumeTrue(ex != null, "upstream examples absent; skipping");
    manifest = ex.resolve("dra-example-driver/demo/examples/" + NS + "/" + NS + ".yaml");
  }

  /**
   * What the README shows: every GPU published with the two condition lists; pod0 Running once the
   * controller set BindingConditions True in the claim's status.devices (allocated,reserved, the
   * result carrying both lists); then deleted, nothing of it left.
   */
  @Test
  void podBindsOnceTheControllerSatisfiesTheBindingCondition() throws Exception {
    Path data = dir.resolve("data");
    try (JdraUpProcess up =
        JdraUpProcess.start(
            data,
            "--driver-flags=--binding-conditions",
            "--controller-plugins=BindingConditions")) {
      assertSlicesPublishBindingConditions(up);
      Instant applied = Instant.now().minusSeconds(1);
      up.kubectl().run("apply", "-f", manifest.toString()).ok();
      Demos.awaitRunning(up, NS, "pod0");

      ResourceClaim claim = Demos.claims(up, NS).get(0);
      assertThat(claim.getMetadata().getName()).startsWith("pod0-gpu-");
      assertThat(up.kubectl().run("get", "resourceclaim", "-n", NS).ok().out())
          .contains("allocated,reserved");
      DeviceRequestAllocationResult r =
          claim.getStatus().getAllocation().getDevices().getResults().get(0);
      assertThat(List.of(r.getRequest(), r.getDriver(), r.getPool()))
          .containsExactly("gpu", DRIVER, "node-1");
      assertThat(r.getBindingConditions()).containsExactly("BindingConditions");
      assertThat(r.getBindingFailureConditions()).containsExactly("BindingFailureConditions");
      assertThat(Instant.parse(claim.getStatus().getAllocation().getAllocationTimestamp()))
          .as("allocationTimestamp written by the scheduler")
          .isAfterOrEqualTo(applied.minusSeconds(1));
      assertThat(claim.getStatus().getReservedFor())
          .singleElement()
          .satisfies(ref -> assertThat(ref.getName()).isEqualTo("pod0"));

      AllocatedDeviceStatus d = claim.getStatus().getDevices().get(0);
      assertThat(List.of(d.getDriver(), d.getPool(), d.getDevice()))
          .containsExactly(DRIVER, "node-1", r.getDevice());
      Condition c = d.getConditions().get(0);
      assertThat(List.of(c.getType(), c.getStatus(), c.getReason(), c.getMessage()))
          .containsExactly("BindingConditions", "True", "Ready", "Device is ready");

      String gpu = r.getDevice().substring("gpu-".length());
      await()
          .atMost(Demos.TIMEOUT)
          .pollInterval(Demos.POLL)
          .untilAsserted(() -> {
            Kubectl.Result logs = up.kubectl().run("logs", "-n", NS, "pod0");
            assertThat(logs.out())
                .as("pod0 logs; " + logs.err())
                .contains("declare -x GPU_DEVICE_" + gpu + "=\"" + r.getDevice() + "\"")
                .contains("=== DRA Device Binding Conditions Demo ===");
          });

      await()
          .atMost(Demos.TIMEOUT)
          .pollInterval(Demos.POLL)
          .untilAsserted(() ->
              assertThat(up.kubectl().run("get", "events", "-n", NS).ok().out())
                  .contains("BindingConditionsPending")
                  .contains("waiting for binding conditions for device on node node-1")
                  .contains("Scheduled"));

      String uid = claim.getMetadata().getUid();
      up.kubectl()
          .run("delete", "-f", manifest.toString(), "--wait=true", "--ignore-not-found")
          .ok();
      Demos.awaitNamespaceAndClaimsGone(up, NS);
      await()
          .atMost(Demos.TIMEOUT)
          .pollInterval(Demos.POLL)
          .untilAsserted(() -> assertThat(cdiSpecs(data)).noneMatch(n -> n.contains(uid)));
    }
  }

  /**
   * The chart with bindingConditions but without the controller: pod0 waits in PreBind. When the
   * driver reports BindingFailureConditions True, the binding fails (FailedScheduling), the claim
   * is unreserved and deallocated and allocated anew; once BindingConditions is True pod0 runs.
   */
  @Test
  void withoutTheControllerThePodWaitsAndAFailedBindingIsRetried() throws Exception {
    try (JdraUpProcess up =
        JdraUpProcess.start(dir.resolve("no-controller"), "--driver-flags=--binding-conditions")) {
      // Printed under the ready line, so perhaps a moment after it.
      await()
          .atMost(Demos.TIMEOUT)
          .untilAsserted(() ->
              assertThat(up.output())
                  .anyMatch(
                      l -> l.contains("no controller satisfies them") && l.contains("PreBind")));
      up.kubectl().run("apply", "-f", manifest.toString()).ok();
      ResourceClaim first = awaitReservedWithoutDeviceStatus(up);
      assertThat(up.client().pods().inNamespace(NS).withName("pod0").get().getStatus().getPhase())
          .isEqualTo("Pending");

      setCondition(up, first, "BindingFailureConditions", "Broken", "no link to the device");
      await()
          .atMost(Demos.TIMEOUT)
          .pollInterval(Demos.POLL)
          .untilAsserted(() ->
              assertThat(up.kubectl().run("get", "events", "-n", NS).ok().out())
                  .contains("FailedScheduling")
                  .contains("binding failed: reason=Broken"));
      // Deallocated and allocated again: a new allocation without the failed device status.
      ResourceClaim second = awaitReservedWithoutDeviceStatus(up);
      assertThat(second.getStatus().getAllocation().getAllocationTimestamp())
          .as("a new allocation")
          .isNotNull();

      setCondition(up, second, "BindingConditions", "Ready", "Device is ready");
      Demos.awaitRunning(up, NS, "pod0");
      up.kubectl()
          .run("delete", "-f", manifest.toString(), "--wait=true", "--ignore-not-found")
          .ok();
      Demos.awaitNamespaceAndClaimsGone(up, NS);
    }
  }

  /** The claim once allocated and reserved for pod0 with no device status (yet, or again). */
  private static ResourceClaim awaitReservedWithoutDeviceStatus(JdraUpProcess up) {
    return await()
        .atMost(Demos.TIMEOUT)
        .pollInterval(Demos.POLL)
        .until(
            () -> Demos.claims(up, NS).stream().findFirst().orElse(null),
            c ->
                c != null
                    && c.getStatus() != null
                    && c.getStatus().getAllocation() != null
                    && c.getStatus().getReservedFor() != null
                    && !c.getStatus().getReservedFor().isEmpty()
                    && (c.getStatus().getDevices() == null
                        || c.getStatus().getDevices().isEmpty()));
  }

  /** Writes the device's condition as the driver's controller would (status update). */
  private static void setCondition(
      JdraUpProcess up, ResourceClaim claim, String type, String reason, String message)
      throws Exception {
    DeviceRequestAllocationResult r =
        claim.getStatus().getAllocation().getDevices().getResults().get(0);
    ResourceClaim updated =
        new ResourceClaimBuilder(claim)
            .editStatus()
            .withDevices(
                new AllocatedDeviceStatusBuilder()
                    .withDriver(r.getDriver())
                    .withPool(r.getPool())
                    .withDevice(r.getDevice())
                    .withConditions(
                        new ConditionBuilder()
                            .withType(type)
                            .withStatus("True")
                            .withReason(reason)
                            .withMessage(message)
                            .withLastTransitionTime(
                                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString())
                            .build())
                    .build())
            .endStatus()
            .build();
    up.client().resource(updated).updateStatus();
  }

  private static void assertSlicesPublishBindingConditions(JdraUpProcess up) throws Exception {
    List<ResourceSlice> slices = up.client().resources(ResourceSlice.class).list().getItems();
    List<Device> devices = slices.stream().flatMap(s -> s.getSpec().getDevices().stream()).toList();
    assertThat(devices).hasSize(8);
    assertThat(devices)
        .allSatisfy(dev -> {
          assertThat(dev.getBindingConditions()).containsExactly("BindingConditions");
          assertThat(dev.getBindingFailureConditions()).containsExactly("BindingFailureConditions");
        });
  }

  private static List<String> cdiSpecs(Path data) throws Exception {
    try (Stream<Path> s = Files.list(data.resolve("nodes/node-1/cdi"))) {
      return s.map(p -> p.getFileName().toString()).toList();
    }
  }
}
