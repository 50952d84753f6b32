package io.jdra.exampledriver.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.jdra.runtime.clock.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BindingConditionsPluginTest {
  private static final String DRIVER = "gpu.example.com";
  private static final String POOL = "node-1";
  private final FakeClock clock = new FakeClock(Instant.parse("2026-05-15T14:00:00.750Z"));
  private final BindingConditionsPlugin plugin = new BindingConditionsPlugin(DRIVER);

  @Test
  void setsEachBindingConditionTrueInANewDeviceEntry() {
    ResourceClaim claim = claim(result(DRIVER, "gpu-0", List.of("BindingConditions", "Attached")));

    BindingConditionsPlugin.Change c = plugin.satisfy(claim, clock.now());

    assertThat(c.set())
        .containsExactly(
            new BindingConditionsPlugin.SetCondition("gpu-0", "BindingConditions"),
            new BindingConditionsPlugin.SetCondition("gpu-0", "Attached"));
    AllocatedDeviceStatus d = c.claim().getStatus().getDevices().get(0);
    assertThat(List.of(d.getDriver(), d.getPool(), d.getDevice()))
        .containsExactly(DRIVER, POOL, "gpu-0");
    assertThat(d.getConditions())
        .containsExactly(
            ready("BindingConditions", "2026-05-15T14:00:00Z"),
            ready("Attached", "2026-05-15T14:00:00Z"));
    assertThat(claim.getStatus().getDevices())
        .as("the cached claim is not changed")
        .isNullOrEmpty();
  }

  @Test
  void keepsOtherEntriesAndConditionsAndTurnsAFalseConditionTrue() {
    Condition other = condition("Healthy", "True", "OK", "2026-05-15T13:00:00Z");
    Condition stale = condition("BindingConditions", "False", "Waiting", "2026-05-15T13:00:00Z");
    ResourceClaim claim =
        claim(
            List.of(
                entry("gpu-0", other, stale),
                new AllocatedDeviceStatusBuilder()
                    .withDriver("net.example.com")
                    .withPool(POOL)
                    .withDevice("nic-0")
                    .build()),
            result(DRIVER, "gpu-0", List.of("BindingConditions")));
    clock.step(Duration.ofMinutes(1));

    BindingConditionsPlugin.Change c = plugin.satisfy(claim, clock.now());

    List<AllocatedDeviceStatus> devices = c.claim().getStatus().getDevices();
    assertThat(devices).hasSize(2);
    assertThat(devices.get(0).getConditions())
        .containsExactly(other, ready("BindingConditions", "2026-05-15T14:01:00Z"));
    assertThat(devices.get(1).getDevice()).isEqualTo("nic-0");
    assertThat(claim.getStatus().getDevices().get(0).getConditions())
        .as("the cached entry is not changed")
        .containsExactly(other, stale);
  }

  @Test
  void nothingToDoWhenEveryConditionIsTrue() {
    ResourceClaim claim =
        claim(
            List.of(entry("gpu-0", ready("BindingConditions", "2026-05-15T13:00:00Z"))),
            result(DRIVER, "gpu-0", List.of("BindingConditions")));

    assertThat(plugin.satisfy(claim, clock.now())).isNull();
  }

  @Test
  void leavesDevicesOfOtherDriversAndDevicesWithoutConditionsAlone() {
    ResourceClaim claim =
        claim(
            result("other.example.com", "gpu-0", List.of("BindingConditions")),
            result(DRIVER, "gpu-1", List.of()));

    assertThat(plugin.satisfy(claim, clock.now())).isNull();
  }

  @Test
  void nothingToDoForAClaimWithoutAllocation() {
    ResourceClaim claim =
        new ResourceClaimBuilder().withNewMetadata().withName("c").endMetadata().build();

    assertThat(plugin.satisfy(claim, clock.now())).isNull();
  }

  private static Condition ready(String type, String time) {
    return condition(type, "True", "Ready", time, "Device is ready");
  }

  private static Condition condition(String type, String status, String reason, String time) {
    return condition(type, status, reason, time, "");
  }

  private static Condition condition(
      String type, String status, String reason, String time, String message) {
    return new ConditionBuilder()
        .withType(type)
        .withStatus(status)
        .withReason(reason)
        .withMessage(message)
        .withLastTransitionTime(time)
        .build();
  }

  private static AllocatedDeviceStatus entry(String device, Condition... conditions) {
    return new AllocatedDeviceStatusBuilder()
        .withDriver(DRIVER)
        .withPool(POOL)
        .withDevice(device)
        .withConditions(conditions)
        .withData(Map.of("uuid", "gpu-uuid"))
        .build();
  }

  private static io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult result(
      String driver, String device, List<String> conditions) {
    return new DeviceRequestAllocationResultBuilder()
        .withRequest("gpu")
        .withDriver(driver)
        .withPool(POOL)
        .withDevice(device)
        .withBindingConditions(conditions)
        .withBindingFailureConditions(
            conditions.isEmpty() ? List.of() : List.of("BindingFailureConditions"))
        .build();
  }

  static ResourceClaim claim(
      io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult... results) {
    return claim(null, results);
  }

  static ResourceClaim claim(
      List<AllocatedDeviceStatus> devices,
      io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult... results) {
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withNamespace("default")
        .withName("claim")
        .endMetadata()
        .withNewStatus()
        .withNewAllocation()
        .withNewDevices()
        .withResults(results)
        .endDevices()
        .endAllocation()
        .withDevices(devices)
        .endStatus()
        .build();
  }
}
