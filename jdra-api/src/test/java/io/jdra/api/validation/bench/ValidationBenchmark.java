package io.jdra.api.validation.bench;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.jdra.api.validation.Validation;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of validating the largest objects the API server accepts on every write: a ResourceSlice
 * with 128 devices (8 attributes and 2 capacities each) and a claim with 32 requests. Run by hand,
 * e.g. {@code java -cp <test classpath> org.openjdk.jmh.Main ValidationBenchmark}; surefire never
 * runs it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class ValidationBenchmark {
  private final ResourceSlice slice = slice();
  private final ResourceClaim claim = claim();

  private static ResourceSlice slice() {
    var devices =
        IntStream.range(0, 128)
            .mapToObj(i -> {
              var d = new DeviceBuilder().withName("gpu-" + i);
              for (int a = 0; a < 8; a++) {
                d.addToAttributes(
                    "gpu.example.com/attr" + a,
                    new DeviceAttributeBuilder().withString("value-" + a).build());
              }
              d.addToCapacity(
                  "memory", new DeviceCapacityBuilder().withValue(new Quantity("80Gi")).build());
              d.addToCapacity(
                  "cores", new DeviceCapacityBuilder().withValue(new Quantity("128")).build());
              return d.build();
            })
            .toList();
    return new ResourceSliceBuilder()
        .withNewMetadata()
        .withName("node-1-gpu.example.com")
        .endMetadata()
        .withNewSpec()
        .withDriver("gpu.example.com")
        .withNodeName("node-1")
        .withNewPool()
        .withName("node-1")
        .withGeneration(1L)
        .withResourceSliceCount(1L)
        .endPool()
        .withDevices(devices)
        .endSpec()
        .build();
  }

  private static ResourceClaim claim() {
    var requests =
        IntStream.range(0, 32)
            .mapToObj(i ->
                new DeviceRequestBuilder()
                    .withName("req-" + i)
                    .withNewExactly()
                    .withDeviceClassName("gpu.example.com")
                    .withAllocationMode("ExactCount")
                    .withCount(1L)
                    .addNewSelector()
                    .withNewCel()
                    .withExpression("device.attributes[\"gpu.example.com\"].attr0 == \"x\"")
                    .endCel()
                    .endSelector()
                    .endExactly()
                    .build())
            .toList();
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withName("claim")
        .withNamespace("default")
        .endMetadata()
        .withNewSpec()
        .withNewDevices()
        .withRequests(requests)
        .endDevices()
        .endSpec()
        .build();
  }

  @Benchmark
  public Object slice128Devices() {
    return Validation.validateResourceSlice(slice);
  }

  @Benchmark
  public Object claim32Requests() {
    return Validation.validateResourceClaim(claim);
  }
}
