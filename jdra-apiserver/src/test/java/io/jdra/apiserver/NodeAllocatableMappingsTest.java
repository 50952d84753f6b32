package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.api.features.FeatureGates;
import java.net.http.HttpResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ResourceSlice {@code spec.devices[].nodeAllocatableResourceMappings}, the Kubernetes 1.36 field
 * of the alpha gate DRANodeAllocatableResources: a known field (Strict validation accepts it), kept
 * with the gate on and dropped with it off, as dra-example-driver's cpu profile needs.
 */
class NodeAllocatableMappingsTest {
  static final String SLICES = "/apis/resource.k8s.io/v1/resourceslices";

  static final String SLICE =
      """
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"cpu-slice"},
       "spec":{"driver":"cpu.example.com","nodeName":"node-1",
        "pool":{"name":"node-1","generation":1,"resourceSliceCount":1},
        "devices":[{"name":"cpudev0","capacity":{"dra.example.com/cpu":{"value":"4"}},
         "nodeAllocatableResourceMappings":{"cpu":{"capacityKey":"dra.example.com/cpu",
          "allocationMultiplier":"1"}}}]}}
      """;

  @ParameterizedTest(name = "DRANodeAllocatableResources={0}")
  @CsvSource({"true", "false"})
  void theFieldIsKnownAndKeptOnlyWithTheGate(boolean gate) {
    ApiServerOptions o =
        ApiServerOptions.inMemory()
            .withFeatureGates(FeatureGates.parse("DRANodeAllocatableResources=" + gate));
    try (ServerFixture f = new ServerFixture(o)) {
      HttpResponse<String> r =
          f.raw("POST", SLICES + "?fieldValidation=Strict", "application/json", SLICE);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
      String stored = f.get(SLICES + "/cpu-slice", null).body();
      if (gate) {
        assertThat(stored)
            .contains("\"nodeAllocatableResourceMappings\":{\"cpu\":{")
            .contains("\"capacityKey\":\"dra.example.com/cpu\"");
      } else {
        assertThat(stored).doesNotContain("nodeAllocatableResourceMappings");
      }
    }
  }
}
