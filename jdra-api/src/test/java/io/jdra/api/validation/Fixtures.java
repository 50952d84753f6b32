package io.jdra.api.validation;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.List;
import java.util.function.Consumer;

/** Valid base objects for the validation tables; each call returns a fresh, mutable copy. */
final class Fixtures {
  static final String DRIVER = "gpu.example.com";
  static final String UID = "ac2f1d1f-6a4b-4b1e-9a43-8e3a8b8f0a11";

  private Fixtures() {}

  /** A claim with one exact request "req-0" for class "gpu" (ExactCount, count 1). */
  static ResourceClaim claim() {
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withName("claim")
        .withNamespace("default")
        .endMetadata()
        .withNewSpec()
        .withNewDevices()
        .withRequests(exactRequest("req-0"))
        .endDevices()
        .endSpec()
        .build();
  }

  static DeviceRequest exactRequest(String name) {
    return new DeviceRequestBuilder()
        .withName(name)
        .withNewExactly()
        .withDeviceClassName("gpu")
        .withAllocationMode("ExactCount")
        .withCount(1L)
        .endExactly()
        .build();
  }

  /** The claim with an allocation of device gpu.example.com/pool/dev-0 to req-0. */
  static ResourceClaim allocatedClaim() {
    ResourceClaim c = claim();
    c.getMetadata().setResourceVersion("1");
    c.setStatus(
        new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatusBuilder()
            .withNewAllocation()
            .withNewDevices()
            .addNewResult()
            .withRequest("req-0")
            .withDriver(DRIVER)
            .withPool("pool")
            .withDevice("dev-0")
            .endResult()
            .endDevices()
            .endAllocation()
            .build());
    return c;
  }

  static ResourceClaimTemplate template() {
    ResourceClaim c = claim();
    return new ResourceClaimTemplateBuilder()
        .withNewMetadata()
        .withName("template")
        .withNamespace("default")
        .endMetadata()
        .withNewSpec()
        .withSpec(c.getSpec())
        .endSpec()
        .build();
  }

  static DeviceClass deviceClass() {
    return new DeviceClassBuilder()
        .withNewMetadata()
        .withName("gpu.example.com")
        .endMetadata()
        .withNewSpec()
        .addNewSelector()
        .withNewCel()
        .withExpression("device.driver == \"gpu.example.com\"")
        .endCel()
        .endSelector()
        .endSpec()
        .build();
  }

  /** A slice for node "node-1" with one device "dev-0" carrying one attribute and capacity. */
  static ResourceSlice slice() {
    return new ResourceSliceBuilder()
        .withNewMetadata()
        .withName("node-1-gpu")
        .endMetadata()
        .withNewSpec()
        .withDriver(DRIVER)
        .withNodeName("node-1")
        .withNewPool()
        .withName("pool")
        .withGeneration(1L)
        .withResourceSliceCount(1L)
        .endPool()
        .addNewDevice()
        .withName("dev-0")
        .addToAttributes(
            "model",
            new io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder()
                .withString("a100")
                .build())
        .addToCapacity(
            "memory",
            new io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder()
                .withValue(new io.fabric8.kubernetes.api.model.Quantity("40Gi"))
                .build())
        .endDevice()
        .endSpec()
        .build();
  }

  static DeviceTaintRule taintRule() {
    return new DeviceTaintRuleBuilder()
        .withNewMetadata()
        .withName("maintenance")
        .endMetadata()
        .withNewSpec()
        .withNewDeviceSelector()
        .withDriver(DRIVER)
        .withPool("pool")
        .withDevice("dev-0")
        .endDeviceSelector()
        .withNewTaint()
        .withKey("example.com/maintenance")
        .withValue("planned")
        .withEffect("NoExecute")
        .endTaint()
        .endSpec()
        .build();
  }

  /** Applies {@code change} to {@code object} and returns it (for tables). */
  static <T> T with(T object, Consumer<T> change) {
    change.accept(object);
    return object;
  }

  /** {@code n} copies of a value built by {@code f(i)}. */
  static <T> List<T> times(int n, java.util.function.IntFunction<T> f) {
    return java.util.stream.IntStream.range(0, n).mapToObj(f).toList();
  }

  static List<String> strings(List<FieldError> errs) {
    return errs.stream().map(FieldError::toString).toList();
  }
}
