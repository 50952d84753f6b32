package io.jdra.api.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import org.junit.jupiter.api.Test;

/** The base objects of the tables are valid, so each table case shows only its own errors. */
class FixturesTest {
  @Test
  void baseObjectsAreValid() {
    assertThat(Validation.validateResourceClaim(Fixtures.claim())).isEmpty();
    assertThat(Validation.validateResourceClaimTemplate(Fixtures.template())).isEmpty();
    assertThat(Validation.validateDeviceClass(Fixtures.deviceClass())).isEmpty();
    assertThat(Validation.validateResourceSlice(Fixtures.slice())).isEmpty();
    assertThat(Validation.validateDeviceTaintRule(Fixtures.taintRule())).isEmpty();
    var allocated = Fixtures.allocatedClaim();
    var before = Fixtures.claim();
    before.getMetadata().setResourceVersion("1");
    assertThat(Validation.validateResourceClaimStatusUpdate(allocated, before)).isEmpty();
  }

  @Test
  void fabric8ListsAreEmptyWhenUnset() {
    DeviceAttribute a = new DeviceAttributeBuilder().withString("x").build();
    assertThat(a.getBools()).isEmpty();
    assertThat(Fixtures.claim().getSpec().getDevices().getConstraints()).isEmpty();
  }
}
