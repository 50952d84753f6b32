package io.jdra.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceRegistry;
import io.jdra.apiserver.registry.ResourceType;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link Strategies#beginDelete} decides an immediate removal on the object itself, without a copy:
 * the same outcome as beginning the deletion on a copy, for every built-in kind with rules of its
 * own, finalizers, propagation policies, grace periods and pending deletions; the object is never
 * changed.
 */
class StrategiesBeginDeleteTest {
  private static final ResourceRegistry REGISTRY = ResourceRegistry.builtIn();
  private static final Instant NOW = Instant.parse("2026-11-27T13:00:00Z");

  @Test
  void sameOutcomeAsBeginningOnACopy() {
    int removed = 0;
    int pending = 0;
    for (Case c : cases()) {
      for (Long grace : Arrays.asList(null, 0L, 5L)) {
        for (String policy : Arrays.asList(null, "Foreground", "Orphan", "Background")) {
          DeleteOptions o = new DeleteOptions(grace, policy, null, null, false);
          ObjectNode before = c.obj.deepCopy();
          ObjectNode copied = Strategies.beginDeleteOnCopy(c.type, c.obj, o, NOW);
          ObjectNode got = Strategies.beginDelete(c.type, c.obj, o, NOW);
          String what = c.type.plural() + " " + c.obj + " grace " + grace + " policy " + policy;
          assertThat(Strategies.removedAtOnce(c.type, c.obj, o)).as(what).isEqualTo(copied == null);
          if (copied == null) {
            assertThat(got).as(what).isNull();
            removed++;
          } else {
            assertThat(got).as(what).isEqualTo(copied);
            pending++;
          }
          assertThat(c.obj).as("not changed: " + what).isEqualTo(before);
        }
      }
    }
    assertThat(removed).isGreaterThan(50);
    assertThat(pending).isGreaterThan(50);
  }

  private record Case(ResourceType type, ObjectNode obj) {}

  private static List<Case> cases() {
    List<String> metas =
        List.of(
            "{\"name\":\"a\"}",
            "{\"name\":\"a\",\"finalizers\":[\"example.com/f\"]}",
            "{\"name\":\"a\",\"finalizers\":[\"foregroundDeletion\"]}",
            "{\"name\":\"a\",\"finalizers\":[\"orphan\"]}",
            "{\"name\":\"a\",\"finalizers\":[\"orphan\",\"foregroundDeletion\"]}",
            "{\"name\":\"a\",\"deletionTimestamp\":\"2026-11-27T12:00:00Z\","
                + "\"deletionGracePeriodSeconds\":0}",
            "{\"name\":\"a\",\"deletionTimestamp\":\"2026-11-27T12:00:00Z\","
                + "\"deletionGracePeriodSeconds\":10}",
            "{\"name\":\"a\",\"deletionTimestamp\":\"2026-11-27T12:00:00Z\","
                + "\"deletionGracePeriodSeconds\":3,\"finalizers\":[\"example.com/f\"]}");
    List<String> podBodies =
        List.of(
            "\"spec\":{\"containers\":[{\"name\":\"c\"}]},\"status\":{\"phase\":\"Pending\"}",
            "\"spec\":{\"nodeName\":\"n\"},\"status\":{\"phase\":\"Running\"}",
            "\"spec\":{\"nodeName\":\"n\",\"terminationGracePeriodSeconds\":0},"
                + "\"status\":{\"phase\":\"Running\"}",
            "\"spec\":{\"nodeName\":\"n\",\"terminationGracePeriodSeconds\":7}",
            "\"spec\":{\"nodeName\":\"n\"},\"status\":{\"phase\":\"Succeeded\"}",
            "\"spec\":{\"nodeName\":\"n\"},\"status\":{\"phase\":\"Failed\"}");
    List<String> namespaceBodies =
        List.of(
            "\"spec\":{\"finalizers\":[\"kubernetes\"]},\"status\":{\"phase\":\"Active\"}",
            "\"spec\":{\"finalizers\":[]},\"status\":{\"phase\":\"Active\"}",
            "\"status\":{\"phase\":\"Active\"}");
    List<String> claimBodies = List.of("\"spec\":{\"devices\":{}}");
    List<Case> cases = new ArrayList<>();
    for (String meta : metas) {
      add(cases, "", "pods", meta, podBodies);
      add(cases, "", "namespaces", meta, namespaceBodies);
      add(cases, "resource.k8s.io", "resourceclaims", meta, claimBodies);
      add(cases, "", "configmaps", meta, List.of("\"data\":{\"k\":\"v\"}"));
      add(cases, "batch", "jobs", meta, List.of("\"spec\":{}"));
    }
    return cases;
  }

  private static void add(
      List<Case> cases, String group, String plural, String meta, List<String> bodies) {
    ResourceType t = REGISTRY.find(group, "v1", plural).orElseThrow();
    for (String body : bodies) {
      String json = "{\"metadata\":" + meta + "," + body + "}";
      cases.add(new Case(t, Json.parseObject(json.getBytes(StandardCharsets.UTF_8))));
    }
  }
}
