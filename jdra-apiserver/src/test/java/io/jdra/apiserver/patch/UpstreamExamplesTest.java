package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.ExampleManifests;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every object of the upstream example manifests goes through server-side apply (create, no-op
 * re-apply, take-over by another manager with force), update tracking and a kubectl-label style
 * strategic merge patch without error, keeping the applied content.
 */
class UpstreamExamplesTest {
  private static final Instant T = Instant.parse("2026-11-21T12:00:00Z");

  @TestFactory
  List<DynamicTest> examples() throws IOException {
    Path dir = ExampleManifests.dir();
    List<DynamicTest> tests = new ArrayList<>();
    for (Path f : ExampleManifests.files()) {
      int i = 0;
      for (ObjectNode doc : ExampleManifests.documents(f)) {
        String name = dir.relativize(f) + "#" + i++ + " " + doc.path("kind").asString();
        tests.add(DynamicTest.dynamicTest(name, () -> roundTrip(doc)));
      }
    }
    Assumptions.assumeFalse(tests.isEmpty(), "no Kubernetes objects in the examples");
    return tests;
  }

  private static void roundTrip(ObjectNode doc) throws Exception {
    String apiVersion = doc.get("apiVersion").stringValue();
    String kind = doc.get("kind").stringValue();
    byte[] body = Json.write(doc).getBytes(StandardCharsets.UTF_8);
    ObjectNode created = Patcher.apply(apiVersion, kind, null, body, "kubectl", false, T);
    ObjectNode content = created.deepCopy();
    ((ObjectNode) content.get("metadata")).remove("managedFields");
    assertThat(Json.same(content, doc)).as("applied content").isTrue();
    assertThat(Patcher.apply(apiVersion, kind, created, body, "kubectl", false, T))
        .isEqualTo(created);
    ObjectNode taken = Patcher.apply(apiVersion, kind, created, body, "other", true, T);
    // a bare object (a Namespace with a name only) owns nothing once metadata is stripped
    int entries = created.get("metadata").path("managedFields").size();
    assertThat(taken.get("metadata").path("managedFields").size()).isEqualTo(2 * entries);
    ObjectNode tracked = Patcher.trackUpdate(apiVersion, kind, null, doc, "kubectl-create", T);
    // an applied {} is owned, an unchanged {} is not an update: at most the same entries
    assertThat(tracked.get("metadata").path("managedFields").size()).isLessThanOrEqualTo(entries);
    if (!Schema.known(apiVersion, kind)) {
      return; // no strategic merge patch for kinds without Go types (upstream answers 415)
    }
    ObjectNode labelled =
        Patcher.patch(
            PatchType.STRATEGIC_MERGE_PATCH,
            apiVersion,
            kind,
            tracked,
            "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}".getBytes(StandardCharsets.UTF_8));
    assertThat(labelled.get("metadata").get("labels").get("x").stringValue()).isEqualTo("y");
  }
}
