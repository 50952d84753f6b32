package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.ExampleManifests;
import io.jdra.apiserver.meta.TreeCopies;
import io.jdra.apiserver.patch.Schema.Field;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The comparison's shortcut over equal subtrees finds exactly what walking them finds: every object
 * of the upstream example manifests, and the pod and claim of a scheduled pod, against copies with
 * one change each at every node (value replaced, member removed, member added, list item added),
 * both ways and with every typedness of the two sides.
 */
class CompareShortcutTest {
  @Test
  void shortcutFindsWhatTheWalkFinds() throws IOException {
    List<ObjectNode> objects = new ArrayList<>(ExampleManifests.all());
    objects.add(
        Yaml.obj(
            """
            apiVersion: v1
            kind: Pod
            metadata: {name: p, namespace: default, labels: {app: x}, finalizers: [a]}
            spec:
              containers:
              - {name: pause, image: img, resources: {claims: [{name: resource}]}}
              resourceClaims: [{name: resource, resourceClaimTemplateName: t}]
            status: {resourceClaimStatuses: [{name: resource, resourceClaimName: c}]}
            """));
    objects.add(
        Yaml.obj(
            """
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata:
              name: c
              namespace: default
              ownerReferences: [{apiVersion: v1, kind: Pod, name: p, uid: u1, controller: true}]
            spec:
              devices:
                requests:
                - {name: req-0, exactly: {deviceClassName: d, allocationMode: ExactCount, count: 1}}
            status:
              allocation:
                devices: {results: [{request: req-0, driver: dr, pool: n, device: d1}]}
              reservedFor: [{resource: pods, name: p, uid: u1}]
            """));
    int compared = 0;
    for (ObjectNode o : objects) {
      String apiVersion = o.get("apiVersion").stringValue();
      String kind = o.get("kind").stringValue();
      Field root = Typed.root(Schema.forKind(apiVersion, kind));
      List<JsonNode> variants = new ArrayList<>();
      variants.add(o);
      variants.add(o.deepCopy());
      mutations(o, o, variants);
      for (JsonNode v : variants) {
        for (int typed = 0; typed < 4; typed++) {
          boolean zl = (typed & 1) != 0;
          boolean zr = (typed & 2) != 0;
          same(o, v, root, zl, zr);
          same(v, o, root, zl, zr);
          compared += 2;
        }
      }
    }
    assertThat(compared).isGreaterThan(1000);
  }

  private static void same(JsonNode l, JsonNode r, Field root, boolean zl, boolean zr) {
    Typed.Comparison walked = Typed.compare(l, r, root, zl, zr, false);
    Typed.Comparison shortcut = Typed.compare(l, r, root, zl, zr, true);
    assertThat(shortcut.added()).as("added %s -> %s", l, r).isEqualTo(walked.added());
    assertThat(shortcut.modified()).as("modified %s -> %s", l, r).isEqualTo(walked.modified());
    assertThat(shortcut.removed()).as("removed %s -> %s", l, r).isEqualTo(walked.removed());
  }

  /** Copies of root with one change at {@code at} or below it. */
  static void mutations(ObjectNode root, JsonNode at, List<JsonNode> out) {
    if (at instanceof ObjectNode o) {
      List<String> keys = new ArrayList<>();
      o.propertyNames().forEach(keys::add);
      for (String k : keys) {
        out.add(TreeCopies.changed(root, o, c -> ((ObjectNode) c).remove(k)));
        out.add(TreeCopies.changed(root, o, c -> ((ObjectNode) c).put(k, "changed")));
        mutations(root, o.get(k), out);
      }
      out.add(TreeCopies.changed(root, o, c -> ((ObjectNode) c).put("added", "x")));
    } else if (at instanceof ArrayNode a) {
      out.add(
          TreeCopies.changed(
              root, a, c -> ((ArrayNode) c).add(Json.object().put("name", "extra"))));
      out.add(TreeCopies.changed(root, a, c -> ((ArrayNode) c).add("extra")));
      for (int i = 0; i < a.size(); i++) {
        int index = i;
        out.add(TreeCopies.changed(root, a, c -> ((ArrayNode) c).remove(index)));
        mutations(root, a.get(i), out);
      }
    }
  }
}
