package io.jdra.testing.objects;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleBuilder;

/** Builds a resource.k8s.io/v1 DeviceTaintRule: one taint on the devices the selector picks. */
public final class DeviceTaintRuleWrapper {
  private final DeviceTaintRuleBuilder b = new DeviceTaintRuleBuilder();

  DeviceTaintRuleWrapper(String name) {
    b.withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withNewDeviceSelector()
        .endDeviceSelector()
        .withNewTaint()
        .endTaint()
        .endSpec();
  }

  public DeviceTaintRuleWrapper driver(String driver) {
    b.editSpec().editDeviceSelector().withDriver(driver).endDeviceSelector().endSpec();
    return this;
  }

  public DeviceTaintRuleWrapper pool(String pool) {
    b.editSpec().editDeviceSelector().withPool(pool).endDeviceSelector().endSpec();
    return this;
  }

  public DeviceTaintRuleWrapper device(String device) {
    b.editSpec().editDeviceSelector().withDevice(device).endDeviceSelector().endSpec();
    return this;
  }

  /** The taint: effect NoSchedule, NoExecute or None. */
  public DeviceTaintRuleWrapper taint(String key, String value, String effect) {
    b.editSpec().editTaint().withKey(key).withValue(value).withEffect(effect).endTaint().endSpec();
    return this;
  }

  /** {@code spec.taint.timeAdded} (RFC 3339). */
  public DeviceTaintRuleWrapper timeAdded(String time) {
    b.editSpec().editTaint().withTimeAdded(time).endTaint().endSpec();
    return this;
  }

  public DeviceTaintRule obj() {
    return new DeviceTaintRuleBuilder(b.build()).build();
  }
}
