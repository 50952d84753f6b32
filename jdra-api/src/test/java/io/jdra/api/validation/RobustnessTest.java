package io.jdra.api.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Empty objects (everything unset) give errors, never exceptions. */
class RobustnessTest {
  @Test
  void emptyClaim() {
    assertThat(Fixtures.strings(Validation.validateResourceClaim(new ResourceClaim())))
        .containsExactly(
            "metadata.name: Required value: name or generateName is required",
            "metadata.namespace: Required value");
    assertThat(Validation.validateResourceClaimUpdate(new ResourceClaim(), new ResourceClaim()))
        .hasSize(3);
    assertThat(
            Fixtures.strings(
                Validation.validateResourceClaimStatusUpdate(
                    new ResourceClaim(), new ResourceClaim())))
        .containsExactly(
            "metadata.resourceVersion: Invalid value: \"\": must be specified for an update");
  }

  @Test
  void emptyTemplateClassSliceAndRule() {
    assertThat(Validation.validateResourceClaimTemplate(new ResourceClaimTemplate())).hasSize(2);
    assertThat(
            Validation.validateResourceClaimTemplateUpdate(
                new ResourceClaimTemplate(), new ResourceClaimTemplate()))
        .hasSize(1);
    assertThat(Fixtures.strings(Validation.validateDeviceClass(new DeviceClass())))
        .containsExactly("metadata.name: Required value: name or generateName is required");
    assertThat(Validation.validateDeviceClassUpdate(new DeviceClass(), new DeviceClass()))
        .hasSize(2);
    assertThat(Fixtures.strings(Validation.validateResourceSlice(new ResourceSlice())))
        .containsExactly(
            "metadata.name: Required value: name or generateName is required",
            "spec.driver: Required value",
            "spec.driver: Invalid value: \"\": " + Messages.DNS_SUBDOMAIN,
            "spec.pool.name: Required value",
            "spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero",
            "spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`,"
                + " `perDeviceNodeSelection` is required");
    assertThat(Validation.validateResourceSliceUpdate(new ResourceSlice(), new ResourceSlice()))
        .hasSize(6);
    assertThat(Fixtures.strings(Validation.validateDeviceTaintRule(new DeviceTaintRule())))
        .containsExactly(
            "metadata.name: Required value: name or generateName is required",
            "spec.taint.key: Invalid value: \"\": name part must be non-empty",
            "spec.taint.key: Invalid value: \"\": " + Messages.LABEL_KEY_NAME,
            "spec.taint.effect: Required value");
    assertThat(
            Validation.validateDeviceTaintRuleUpdate(new DeviceTaintRule(), new DeviceTaintRule()))
        .hasSize(3);
    assertThat(
            Validation.validateDeviceTaintRuleStatusUpdate(
                new DeviceTaintRule(), new DeviceTaintRule()))
        .hasSize(1);
  }

  @Test
  void optionsAreValidatedAtConstruction() {
    assertThatThrownBy(() -> new ValidationOptions(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("selectorCompiler");
    assertThat(ValidationOptions.defaults().selectorCompiler()).isEqualTo(Optional.empty());
  }

  @Test
  void metadataUpdatesOfOtherKinds() {
    DeviceClass oldClass = Fixtures.deviceClass();
    oldClass.getMetadata().setResourceVersion("1");
    DeviceClass c = Fixtures.deviceClass();
    c.getMetadata().setResourceVersion("1");
    c.getMetadata().setName("other");
    assertThat(Fixtures.strings(Validation.validateDeviceClassUpdate(c, oldClass)))
        .containsExactly("metadata.name: Invalid value: \"other\": field is immutable");

    DeviceTaintRule oldRule = Fixtures.taintRule();
    oldRule.getMetadata().setResourceVersion("1");
    DeviceTaintRule r = Fixtures.taintRule();
    assertThat(Fixtures.strings(Validation.validateDeviceTaintRuleUpdate(r, oldRule)))
        .containsExactly(
            "metadata.resourceVersion: Invalid value: \"\": must be specified for an update");
  }
}
