package io.jdra.allocator;

import static io.jdra.allocator.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The claim templates of the upstream dra-example-driver demos, allocated on a node of that
 * driver's "gpu" profile (8 GPUs). Every expression must compile and evaluate; the plain GPU
 * examples must fit. Skipped when the upstream examples are not next to the repository.
 */
class UpstreamExamplesTest {
  private static final ObjectMapper YAML = YAMLMapper.builder().build();
  private static final String GPU = "gpu.example.com";

  static Path examples() {
    Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    while (dir != null) {
      Path p = dir.resolve("../shared/upstream-dra/examples/dra-example-driver/demo/examples");
      if (Files.isDirectory(p)) {
        return p.normalize();
      }
      dir = dir.getParent();
    }
    return null;
  }

  static ResourceSlice gpuNode() {
    List<Device> gpus = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Device d =
          device(
              "gpu-" + i,
              "index",
              (long) i,
              "uuid",
              "gpu-" + i + "-uuid",
              "model",
              "LATEST-GPU-MODEL");
      d.getAttributes().put("driverVersion", versionAttr("1.0.0"));
      d.setCapacity(Map.of("memory", new DeviceCapacity(null, new Quantity("80Gi"))));
      gpus.add(d);
    }
    return slice("node-1-gpu", NODE, GPU, NODE, 1, 1, gpus.toArray(Device[]::new));
  }

  static io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute versionAttr(String v) {
    var a = new io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute();
    a.setVersion(v);
    return a;
  }

  @TestFactory
  Stream<DynamicTest> exampleClaimTemplatesAllocate() throws IOException {
    Path dir = examples();
    assumeTrue(
        dir != null, "upstream examples (../shared/upstream-dra/examples) not found: skipped");
    List<DynamicTest> tests = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
        for (ResourceClaim claim : claims(f)) {
          String name = dir.relativize(f) + " " + claim.getMetadata().getName();
          tests.add(DynamicTest.dynamicTest(name, () -> check(f, claim)));
        }
      }
    }
    assertThat(tests).isNotEmpty();
    return tests.stream();
  }

  private static void check(Path file, ResourceClaim claim) throws Exception {
    boolean gpuOnly =
        claim.getSpec().getDevices().getRequests().stream()
            .allMatch(
                r -> r.getExactly() != null && GPU.equals(r.getExactly().getDeviceClassName()));
    Allocator a =
        Allocator.create(
            AllocatorFeatures.defaults(),
            AllocatedState.empty(),
            DeviceClassLister.of(List.of(deviceClass(GPU, "device.driver == 'gpu.example.com'"))),
            List.of(gpuNode()));
    AllocationOutcome o;
    try {
      o = a.allocate(node(NODE), List.of(claim), Deadline.none());
    } catch (AllocationException e) {
      // Only classes this node does not offer may fail.
      assertThat(gpuOnly).as(file + ": " + e.getMessage()).isFalse();
      assertThat(e.getMessage()).contains("could not retrieve device class");
      return;
    }
    boolean wantsMissingModel =
        file.toString().contains("BLEEDING") || claim.toString().contains("BLEEDING-EDGE");
    // Needs more than this profile offers: 1Ti of memory, admin access, or a "compute" capacity.
    boolean tooBig =
        claim.toString().contains("1Ti")
            || claim.toString().contains("adminAccess=true")
            || claim.getSpec().getDevices().getRequests().stream()
                .anyMatch(r -> r.getExactly() != null && r.getExactly().getCapacity() != null);
    if (gpuOnly && !wantsMissingModel && !tooBig && !file.toString().contains("taint")) {
      assertThat(o.allocated()).as(file + " " + claim.getMetadata().getName()).isTrue();
    }
  }

  private static List<ResourceClaim> claims(Path f) throws IOException {
    List<ResourceClaim> out = new ArrayList<>();
    try (MappingIterator<JsonNode> it =
        YAML.readerFor(JsonNode.class).readValues(Files.readString(f))) {
      while (it.hasNextValue()) {
        JsonNode doc = it.nextValue();
        if (doc == null || !doc.isObject()) {
          continue;
        }
        String kind = doc.path("kind").asString("");
        if (kind.equals("ResourceClaimTemplate")) {
          ResourceClaimTemplate t = YAML.treeToValue(doc, ResourceClaimTemplate.class);
          out.add(
              new ResourceClaimBuilder()
                  .withNewMetadata()
                  .withName(t.getMetadata().getName())
                  .withNamespace(t.getMetadata().getNamespace())
                  .endMetadata()
                  .withSpec(t.getSpec().getSpec())
                  .build());
        } else if (kind.equals("ResourceClaim")) {
          out.add(YAML.treeToValue(doc, ResourceClaim.class));
        }
      }
    } catch (RuntimeException e) {
      // Helm templates and the like are not plain YAML; they are not examples of claims.
      return List.of();
    }
    return out;
  }
}
