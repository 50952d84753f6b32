package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Upstream's strategic merge patch raw test vectors (k8s.io/apimachinery strategicpatch
 * patch_test.go: two-way patches applied to the original, three-way patches applied to the current
 * object), with its test type's mergingList mapped to Pod spec.containers (merge key name) and
 * mergingIntList to metadata.finalizers (merged primitives). Results are compared exactly, list
 * order included.
 */
class StrategicMergePatchVectorsTest {
  @TestFactory
  List<DynamicTest> upstreamVectors() throws IOException {
    JsonNode cases;
    try (InputStream in = getClass().getResourceAsStream("smp-upstream-vectors.json")) {
      cases = Json.MAPPER.readTree(in);
    }
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode c : cases) {
      tests.add(
          DynamicTest.dynamicTest(
              c.get("name").stringValue(),
              () -> {
                ObjectNode out =
                    Patcher.patch(
                        PatchType.STRATEGIC_MERGE_PATCH,
                        "v1",
                        "Pod",
                        (ObjectNode) c.get("current"),
                        Json.write(c.get("patch"))
                            .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                assertThat(Json.write(out)).isEqualTo(Json.write(expectedShape(c, out)));
              }));
    }
    return tests;
  }

  /** The expected document with keys in the result's order (JSON object order is free). */
  private static JsonNode expectedShape(JsonNode c, JsonNode out) {
    JsonNode exp = c.get("expected");
    return Json.same(exp, out) ? out : exp;
  }
}
