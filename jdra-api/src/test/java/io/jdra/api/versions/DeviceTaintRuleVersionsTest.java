package io.jdra.api.versions;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRuleBuilder;
import org.junit.jupiter.api.Test;

class DeviceTaintRuleVersionsTest {
  @Test
  void everyFieldOfTheServedVersionReachesTheV1Model() {
    var served =
        new DeviceTaintRuleBuilder()
            .withNewMetadata()
            .withName("gpu-maintenance")
            .withResourceVersion("7")
            .endMetadata()
            .withNewSpec()
            .withNewDeviceSelector()
            .withDriver("gpu.example.com")
            .withPool("node-1")
            .withDevice("gpu-0")
            .endDeviceSelector()
            .withNewTaint()
            .withKey("example.com/maintenance")
            .withValue("planned")
            .withEffect("NoExecute")
            .withTimeAdded("2026-11-23T10:00:00Z")
            .endTaint()
            .endSpec()
            .withNewStatus()
            .withConditions(
                new ConditionBuilder().withType("EvictionInProgress").withStatus("False").build())
            .endStatus()
            .build();

    DeviceTaintRule v1 = DeviceTaintRuleVersions.toV1(served);

    assertThat(v1.getApiVersion()).isEqualTo("resource.k8s.io/v1");
    assertThat(v1.getMetadata().getName()).isEqualTo("gpu-maintenance");
    assertThat(v1.getSpec().getDeviceSelector().getDriver()).isEqualTo("gpu.example.com");
    assertThat(v1.getSpec().getDeviceSelector().getPool()).isEqualTo("node-1");
    assertThat(v1.getSpec().getDeviceSelector().getDevice()).isEqualTo("gpu-0");
    assertThat(v1.getSpec().getTaint().getKey()).isEqualTo("example.com/maintenance");
    assertThat(v1.getSpec().getTaint().getValue()).isEqualTo("planned");
    assertThat(v1.getSpec().getTaint().getEffect()).isEqualTo("NoExecute");
    assertThat(v1.getSpec().getTaint().getTimeAdded()).isEqualTo("2026-11-23T10:00:00Z");
    assertThat(v1.getStatus().getConditions())
        .extracting("type")
        .containsExactly("EvictionInProgress");
    assertThat(DeviceTaintRuleVersions.toV1(null)).isNull();
  }
}
