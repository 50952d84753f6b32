package io.jdra.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The selectable values kept with a stored version equal what building them from the object gives
 * (by path, interned, "" for a missing, null or container value), whichever earlier map is handed
 * out again.
 */
class SelectableValuesTest {
  private static final List<String> PATHS =
      List.of(
          "metadata.name",
          "metadata.namespace",
          "spec.nodeName",
          "status.phase",
          "spec.restartPolicy",
          "spec.hostNetwork",
          "spec.priority",
          "status.nominatedNodeName",
          "spec.nodeName"); // a path twice: kept once

  @Test
  void equalToBuildingEachMapAnew() {
    SelectableValues values = new SelectableValues(PATHS);
    Random random = new Random(42);
    Map<String, String> previous = null;
    ObjectNode last = randomPod(random);
    int reused = 0;
    for (int i = 0; i < 20_000; i++) {
      // half the time the same values again (another version of the object, or the next object)
      ObjectNode obj = random.nextBoolean() ? last.deepCopy() : randomPod(random);
      last = obj;
      Map<String, String> expected = reference(obj);
      Map<String, String> got = values.of(obj, random.nextInt(4) == 0 ? null : previous);
      assertThat(got).as("object %s", obj).isEqualTo(expected);
      for (Map.Entry<String, String> e : got.entrySet()) {
        assertThat(e.getValue()).isSameAs(e.getValue().intern());
      }
      if (got == previous) {
        reused++;
      }
      previous = got;
    }
    assertThat(reused).isGreaterThan(5_000); // the shortcut is taken
  }

  @Test
  void equalValuesGiveTheEarlierMapOtherValuesANewOne() {
    SelectableValues values = new SelectableValues(PATHS);
    ObjectNode a = parse("{\"metadata\":{\"name\":\"a\"},\"spec\":{\"nodeName\":\"n1\"}}");
    Map<String, String> first = values.of(a, null);
    assertThat(values.of(a.deepCopy(), null)).isSameAs(first); // the last map
    ObjectNode b = a.deepCopy();
    ((ObjectNode) b.get("spec")).put("nodeName", "n2");
    Map<String, String> second = values.of(b, first);
    assertThat(second).isNotSameAs(first).containsEntry("spec.nodeName", "n2");
    assertThat(values.of(a.deepCopy(), first)).isSameAs(first); // the previous version's
    assertThat(new SelectableValues(List.of()).of(a, null)).isEmpty();
  }

  @Test
  void labelsAreKeptExactlyWhenTheyAreTheStoredOnes() {
    Random random = new Random(7);
    List<Map<String, String>> kept = new java.util.ArrayList<>();
    int same = 0;
    for (int i = 0; i < 5_000; i++) {
      ObjectNode labels = Json.object();
      for (int n = random.nextInt(4); n > 0; n--) {
        String k = "k" + random.nextInt(3);
        switch (random.nextInt(4)) {
          case 0 -> labels.putNull(k);
          case 1 -> labels.put(k, "");
          default -> labels.put(k, "v" + random.nextInt(2));
        }
      }
      var node = random.nextInt(10) == 0 ? null : labels;
      Map<String, String> built = ObjectService.compactLabels(node);
      for (Map<String, String> m : kept) {
        boolean equal = built.equals(m);
        assertThat(ObjectService.sameLabels(node, m)).as("%s %s", node, m).isEqualTo(equal);
        same += equal ? 1 : 0;
      }
      kept.add(built);
      if (kept.size() > 20) {
        kept.remove(0);
      }
    }
    assertThat(same).isGreaterThan(1_000);
  }

  /** The maps as stored versions had them before: built path by path and copied. */
  private static Map<String, String> reference(ObjectNode obj) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String path : PATHS) {
      String v = Json.text(obj, path);
      fields.put(path, v == null ? "" : v.intern());
    }
    return Map.copyOf(fields);
  }

  private static ObjectNode randomPod(Random r) {
    ObjectNode pod = Json.object();
    ObjectNode meta = pod.putObject("metadata");
    meta.put("name", "p" + r.nextInt(3));
    if (r.nextBoolean()) {
      meta.put("namespace", "default");
    }
    ObjectNode spec = pod.putObject("spec");
    switch (r.nextInt(5)) {
      case 0 -> spec.put("nodeName", "node-" + r.nextInt(2));
      case 1 -> spec.putNull("nodeName");
      case 2 -> spec.putObject("nodeName").put("x", 1);
      case 3 -> spec.putArray("nodeName").add("node-1");
      default -> {}
    }
    if (r.nextBoolean()) {
      spec.put("hostNetwork", r.nextBoolean());
    }
    if (r.nextBoolean()) {
      spec.put("priority", r.nextInt(2));
    }
    spec.put("restartPolicy", "Always");
    if (r.nextInt(3) > 0) {
      ObjectNode status = pod.putObject("status");
      status.put("phase", r.nextBoolean() ? "Pending" : "Running");
      if (r.nextInt(4) == 0) {
        status.put("nominatedNodeName", "");
      }
    } else if (r.nextBoolean()) {
      pod.put("status", "odd");
    }
    return pod;
  }

  private static ObjectNode parse(String json) {
    return Json.parseObject(json.getBytes(StandardCharsets.UTF_8));
  }
}
