package io.jdra.api.validation;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.testing.objects.Make;
import io.jdra.testing.objects.Requests;
import java.util.List;
import java.util.function.Consumer;

/** Valid base objects for the validation tables; each call returns a fresh, mutable copy. */
final class Fixtures {
  static final String DRIVER = "gpu.example.com";
  static final String UID = "ac2f1d1f-6a4b-4b1e-9a43-8e3a8b8f0a11";

  private Fixtures() {}

  /** A claim with one exact request "req-0" for class "gpu" (ExactCount, count 1). */
  static ResourceClaim claim() {
    return Make.claim("claim").namespace("default").request("gpu").obj();
  }

  static DeviceRequest exactRequest(String name) {
    return Requests.exactly(name, "gpu", 1);
  }

  /** The claim with an allocation of device gpu.example.com/pool/dev-0 to req-0. */
  static ResourceClaim allocatedClaim() {
    return Make.claim("claim")
        .namespace("default")
        .resourceVersion("1")
        .request("gpu")
        .allocation(
            new AllocationResultBuilder()
                .withNewDevices()
                .addNewResult()
                .withRequest("req-0")
                .withDriver(DRIVER)
                .withPool("pool")
                .withDevice("dev-0")
                .endResult()
                .endDevices()
                .build())
        .obj();
  }

  static ResourceClaimTemplate template() {
    return Make.claimTemplate("template").namespace("default").request("gpu").obj();
  }

  static DeviceClass deviceClass() {
    return Make.deviceClass("gpu.example.com").driver(DRIVER).obj();
  }

  /** A slice for node "node-1" with one device "dev-0" carrying one attribute and capacity. */
  static ResourceSlice slice() {
    return Make.slice("node-1-gpu", "node-1", DRIVER)
        .pool("pool", 1, 1)
        .devices(Make.device("dev-0").attr("model", "a100").capacity("memory", "40Gi").obj())
        .obj();
  }

  static DeviceTaintRule taintRule() {
    return Make.deviceTaintRule("maintenance")
        .driver(DRIVER)
        .pool("pool")
        .device("dev-0")
        .taint("example.com/maintenance", "planned", "NoExecute")
        .obj();
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
