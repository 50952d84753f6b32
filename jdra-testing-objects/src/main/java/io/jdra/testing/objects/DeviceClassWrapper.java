package io.jdra.testing.objects;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;

/** Builds a DeviceClass. */
public final class DeviceClassWrapper {
  private final DeviceClassBuilder b = new DeviceClassBuilder();

  DeviceClassWrapper(String name) {
    b.withNewMetadata().withName(name).endMetadata().withNewSpec().endSpec();
  }

  /** {@code metadata.generation}, as the API server would have set it. */
  public DeviceClassWrapper generation(long generation) {
    b.editMetadata().withGeneration(generation).endMetadata();
    return this;
  }

  /** CEL selectors every device of the class must match. */
  public DeviceClassWrapper selectors(String... celExpressions) {
    b.editSpec().withSelectors(Requests.selectors(celExpressions)).endSpec();
    return this;
  }

  /** A selector {@code device.driver == "<driver>"}, as the example driver's classes have. */
  public DeviceClassWrapper driver(String driver) {
    return selectors("device.driver == \"" + driver + "\"");
  }

  public DeviceClassWrapper extendedResourceName(String name) {
    b.editSpec().withExtendedResourceName(name).endSpec();
    return this;
  }

  public DeviceClass obj() {
    return new DeviceClassBuilder(b.build()).build();
  }
}
