package io.jdra.cli.up;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;

/**
 * The DeviceClass the dra-example-driver Helm chart installs (templates/deviceclass.yaml): named
 * after the driver, selecting that driver's devices, with {@code deviceClass.extendedResourceName}
 * when the value is set.
 */
public final class DeviceClasses {
  private DeviceClasses() {}

  public static DeviceClass forProfile(String profile, String extendedResourceName) {
    String driver = UpOptions.driverName(profile);
    DeviceClassBuilder b =
        new DeviceClassBuilder()
            .withNewMetadata()
            .withName(driver)
            .endMetadata()
            .withNewSpec()
            .addNewSelector()
            .withNewCel()
            .withExpression("device.driver == '" + driver + "'")
            .endCel()
            .endSelector()
            .endSpec();
    if (!extendedResourceName.isEmpty()) {
      b.editSpec().withExtendedResourceName(extendedResourceName).endSpec();
    }
    return b.build();
  }
}
