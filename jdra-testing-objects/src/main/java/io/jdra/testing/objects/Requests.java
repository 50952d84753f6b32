package io.jdra.testing.objects;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequestBuilder;
import java.util.ArrayList;
import java.util.List;

/** Device requests and CEL selectors for claims and claim templates. */
public final class Requests {
  private Requests() {}

  /** {@code exactly}: {@code count} devices of the class, matching every CEL selector. */
  public static DeviceRequest exactly(
      String name, String deviceClassName, long count, String... celSelectors) {
    return new DeviceRequestBuilder()
        .withName(name)
        .withExactly(
            new ExactDeviceRequestBuilder()
                .withDeviceClassName(deviceClassName)
                .withAllocationMode("ExactCount")
                .withCount(count)
                .withSelectors(selectors(celSelectors))
                .build())
        .build();
  }

  /** {@code exactly} with allocation mode All. */
  public static DeviceRequest all(String name, String deviceClassName, String... celSelectors) {
    DeviceRequest r = exactly(name, deviceClassName, 0, celSelectors);
    r.getExactly().setAllocationMode("All");
    r.getExactly().setCount(null);
    return r;
  }

  /** A prioritized list ({@code firstAvailable}). */
  public static DeviceRequest firstAvailable(String name, DeviceSubRequest... subs) {
    return new DeviceRequestBuilder().withName(name).withFirstAvailable(subs).build();
  }

  public static DeviceSubRequest sub(
      String name, String deviceClassName, long count, String... celSelectors) {
    return new DeviceSubRequestBuilder()
        .withName(name)
        .withDeviceClassName(deviceClassName)
        .withAllocationMode("ExactCount")
        .withCount(count)
        .withSelectors(selectors(celSelectors))
        .build();
  }

  /** CEL selectors (an empty list for none: fabric8's models never hold null lists). */
  public static List<DeviceSelector> selectors(String... expressions) {
    List<DeviceSelector> out = new ArrayList<>();
    for (String e : expressions) {
      out.add(new DeviceSelectorBuilder().withNewCel().withExpression(e).endCel().build());
    }
    return out;
  }
}
