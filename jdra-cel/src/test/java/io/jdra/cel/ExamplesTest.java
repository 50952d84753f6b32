package io.jdra.cel;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The selectors of the upstream demo manifests, against devices as their drivers publish them. */
class ExamplesTest {
  private static final DeviceSelectorCompiler COMPILER =
      DeviceSelectorCompiler.create(CompilerOptions.defaults());

  /** A GPU of dra-example-driver (profile gpu): model and 80Gi memory. */
  static final DeviceInput EXAMPLE_GPU =
      DeviceInput.of(
          "gpu.example.com",
          new DeviceBuilder()
              .withName("gpu-0")
              .withAttributes(
                  Map.of(
                      "index", attr(a -> a.withInt(0L)),
                      "uuid", attr(a -> a.withString("gpu-18db0e85-99e9-c746-8531-ffeb86328b39")),
                      "model", attr(a -> a.withString("LATEST-GPU-MODEL")),
                      "driverVersion", attr(a -> a.withVersion("1.0.0"))))
              .withCapacity(
                  Map.of(
                      "memory",
                      new DeviceCapacityBuilder().withValue(new Quantity("80Gi")).build()))
              .build());

  /** A MIG device of the NVIDIA GPU driver. */
  static final DeviceInput NVIDIA_MIG =
      DeviceInput.of(
          "gpu.nvidia.com",
          new DeviceBuilder()
              .withName("gpu-0-mig-1g-12gb-0")
              .withAttributes(
                  Map.of(
                      "type", attr(a -> a.withString("mig")),
                      "profile", attr(a -> a.withString("1g.12gb")),
                      "productName", attr(a -> a.withString("NVIDIA H100 80GB HBM3")),
                      "driverVersion", attr(a -> a.withVersion("550.54.15")),
                      "cudaComputeCapability", attr(a -> a.withVersion("9.0.0"))))
              .withCapacity(
                  Map.of(
                      "memory",
                      new DeviceCapacityBuilder().withValue(new Quantity("11Gi")).build()))
              .build());

  /** A full NVIDIA GPU. */
  static final DeviceInput NVIDIA_GPU =
      DeviceInput.of(
          "gpu.nvidia.com",
          new DeviceBuilder()
              .withName("gpu-1")
              .withAttributes(
                  Map.of(
                      "type", attr(a -> a.withString("gpu")),
                      "productName", attr(a -> a.withString("NVIDIA A100-SXM4-40GB")),
                      "driverVersion", attr(a -> a.withVersion("550.54.15"))))
              .withCapacity(
                  Map.of(
                      "memory",
                      new DeviceCapacityBuilder().withValue(new Quantity("40Gi")).build()))
              .build());

  private static DeviceAttribute attr(java.util.function.UnaryOperator<DeviceAttributeBuilder> f) {
    return f.apply(new DeviceAttributeBuilder()).build();
  }

  static Stream<Arguments> selectors() {
    return Stream.of(
        // dra-example-driver/demo/examples/cel-selector/cel-selector.yaml
        a("device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'", EXAMPLE_GPU, true),
        a(
            "device.capacity['gpu.example.com'].memory.compareTo(quantity('4Gi')) >= 0",
            EXAMPLE_GPU,
            true),
        // dra-example-driver/demo/examples/prioritized-alternatives/prioritized-alternatives.yaml
        a("device.attributes['gpu.example.com'].model == 'BLEEDING-EDGE-GPU'", EXAMPLE_GPU, false),
        a(
            "device.capacity['gpu.example.com'].memory.compareTo(quantity('1Ti')) >= 0",
            EXAMPLE_GPU,
            false),
        // dra-example-driver/deployments/helm/.../deviceclass.yaml (driver name filled in)
        a("device.driver == 'gpu.example.com'", EXAMPLE_GPU, true),
        a("device.driver == 'gpu.example.com'", NVIDIA_GPU, false),
        // kubernetes/test/integration/scheduler_perf/dra/templates/deviceclass.yaml
        a("device.driver == \"test-driver.cdi.k8s.io\"", EXAMPLE_GPU, false),
        // dra-driver-nvidia-gpu/deployments/helm/.../deviceclass-gpu.yaml and deviceclass-mig.yaml
        a(
            "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'",
            NVIDIA_GPU,
            true),
        a(
            "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'",
            NVIDIA_MIG,
            false),
        a(
            "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'",
            EXAMPLE_GPU,
            false),
        a(
            "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'",
            NVIDIA_MIG,
            true),
        // dra-driver-nvidia-gpu/demo/specs/extended-resources/mig-1g-12gb.yaml
        a(
            "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'"
                + " && device.attributes['gpu.nvidia.com'].profile == '1g.12gb'",
            NVIDIA_MIG,
            true),
        // dra-driver-nvidia-gpu/demo/specs/quickstart/v1/gpu-test4.yaml
        a("device.attributes['gpu.nvidia.com'].profile == '1g.5gb'", NVIDIA_MIG, false),
        a("device.attributes['gpu.nvidia.com'].profile == '1g.12gb'", NVIDIA_MIG, true),
        // NVIDIA driver documentation: product name and driver version selectors
        a(
            "device.attributes['gpu.nvidia.com'].productName.lowerAscii().matches('^.*a100.*$')",
            NVIDIA_GPU,
            true),
        a(
            "device.attributes['gpu.nvidia.com'].productName.lowerAscii().matches('^.*a100.*$')",
            NVIDIA_MIG,
            false),
        a("device.attributes['gpu.nvidia.com'].driverVersion.major() >= 550", NVIDIA_GPU, true),
        a(
            "device.attributes['gpu.nvidia.com'].driverVersion.compareTo(semver('550.0.0')) >= 0",
            NVIDIA_MIG,
            true),
        a(
            "device.attributes['gpu.nvidia.com'].cudaComputeCapability.isGreaterThan(semver('8.0.0'))",
            NVIDIA_MIG,
            true),
        a(
            "device.capacity['gpu.nvidia.com'].memory.isLessThan(quantity('12Gi'))",
            NVIDIA_MIG,
            true));
  }

  static Arguments a(String expression, DeviceInput device, boolean match) {
    return Arguments.of(expression, device, match);
  }

  @ParameterizedTest(name = "{0} on {1} -> {2}")
  @MethodSource("selectors")
  void selects(String expression, DeviceInput device, boolean match) throws Exception {
    CompilationResult result = COMPILER.compile(expression);
    assertThat(result.error()).isEmpty();
    assertThat(result.maxCost()).isLessThanOrEqualTo(CompilerOptions.DEFAULT_COST_LIMIT);
    assertThat(result.orElseThrow().matches(device)).isEqualTo(match);
  }

  @Test
  void unknownAttributeOfAnotherDriverIsAnError() {
    CompiledSelector s =
        COMPILER.compile("device.attributes['gpu.nvidia.com'].profile == '1g.5gb'").orElseThrow();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.matches(EXAMPLE_GPU))
        .hasMessage("no such key: profile");
  }

  /** Every selector in the manifests compiles within the cost limit (skipped without them). */
  @Test
  void everyManifestSelectorCompiles() throws IOException {
    Path dir = examplesDir();
    Assumptions.assumeTrue(
        dir != null, "upstream example manifests not found (../shared/upstream-dra/examples)");
    List<String> expressions = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).toList()) {
        expressions.addAll(expressions(Files.readString(f)));
      }
    }
    assertThat(expressions).hasSizeGreaterThanOrEqualTo(10);
    for (String e : expressions) {
      CompilationResult result = COMPILER.compile(e);
      assertThat(result.error()).as(e).isEmpty();
      assertThat(result.maxCost()).as(e).isLessThan(1000);
    }
  }

  private static final Pattern EXPRESSION =
      Pattern.compile(
          "^\\s*expression:\\s*(\"(?:[^\"\\\\]|\\\\.)*\"|'[^']*'|[^#\\n]+?)\\s*$",
          Pattern.MULTILINE);

  static List<String> expressions(String yaml) {
    List<String> out = new ArrayList<>();
    Matcher m = EXPRESSION.matcher(yaml);
    while (m.find()) {
      String v = m.group(1);
      if (v.startsWith("\"")) {
        v = v.substring(1, v.length() - 1).replace("\\\"", "\"");
      } else if (v.startsWith("'")) {
        v = v.substring(1, v.length() - 1);
      }
      // Helm templates: the example driver's name.
      v = v.replaceAll("\\{\\{[^}]*}}", "gpu.example.com");
      out.add(v);
    }
    return out;
  }

  static Path examplesDir() {
    for (Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        p != null;
        p = p.getParent()) {
      Path candidate = p.resolve("../shared/upstream-dra/examples").normalize();
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    return null;
  }
}
