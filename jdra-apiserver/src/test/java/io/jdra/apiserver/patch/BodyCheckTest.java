package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.ExampleManifests;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link BodyCheck#clean} says "clean" exactly when the type check finds no error and the
 * unknown-field check none (and pruning then removes nothing): on every object of the upstream
 * example manifests, a scheduled pod and claim, and every variant of them with one change at one
 * node (a value replaced by a string, a boolean, integers in and out of range, a fraction, null, an
 * empty list or object, an object with an unknown field; an unknown field added to an object).
 */
class BodyCheckTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static List<JsonNode> replacements() {
    ObjectNode unknownInside = NODES.objectNode();
    unknownInside.put("zzUnknown", 1);
    ArrayNode listOfObject = NODES.arrayNode();
    listOfObject.add(unknownInside.deepCopy());
    return List.of(
        NODES.stringNode("x"),
        NODES.booleanNode(true),
        NODES.numberNode(7),
        NODES.numberNode(1L << 40),
        NODES.numberNode(new java.math.BigInteger("123456789012345678901234567890")),
        NODES.numberNode(1.5),
        NODES.nullNode(),
        NODES.arrayNode(),
        NODES.objectNode(),
        unknownInside,
        listOfObject);
  }

  @Test
  void cleanExactlyWhenBothChecksFindNothing() throws IOException {
    List<ObjectNode> objects = new ArrayList<>(ExampleManifests.all());
    objects.add(
        Yaml.obj(
            """
            apiVersion: v1
            kind: Pod
            metadata: {name: p, namespace: default, labels: {app: x}, finalizers: [a]}
            spec:
              containers:
              - name: pause
                image: img
                ports: [{containerPort: 80}]
                resources: {claims: [{name: resource}], limits: {cpu: 100m}}
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
              managedFields:
              - {manager: m, operation: Update, apiVersion: resource.k8s.io/v1,
                 fieldsType: FieldsV1, fieldsV1: {"f:spec": {}}}
            spec:
              devices:
                requests:
                - {name: req-0, exactly: {deviceClassName: d, allocationMode: ExactCount, count: 1}}
                config:
                - opaque: {driver: dr, parameters: {any: [thing, {x: 1}]}}
            status:
              allocation:
                devices: {results: [{request: req-0, driver: dr, pool: n, device: d1}]}
              reservedFor: [{resource: pods, name: p, uid: u1}]
            """));
    objects.add(Yaml.obj("{apiVersion: example.com/v1, kind: Unknown, spec: {x: 1}}"));
    int[] checked = {0, 0};
    for (ObjectNode o : objects) {
      ObjectNode copy = o.deepCopy();
      check(copy, checked);
      variants(copy, copy, checked);
      assertThat(copy).as("the variants leave the object as it was").isEqualTo(o);
    }
    assertThat(checked[0]).as("variants checked").isGreaterThan(10_000);
    assertThat(checked[1]).as("clean ones among them").isGreaterThan(500);
  }

  /** Every one-change variant of root at and below node, each checked, then undone. */
  private static void variants(ObjectNode root, JsonNode node, int[] checked) {
    if (node instanceof ObjectNode o) {
      for (String key : new ArrayList<>(o.propertyNames())) {
        JsonNode before = o.get(key);
        for (JsonNode r : replacements()) {
          o.set(key, r);
          check(root, checked);
        }
        o.set(key, before);
        variants(root, before, checked);
      }
      o.put("zzUnknown", "x");
      check(root, checked);
      o.remove("zzUnknown");
    } else if (node instanceof ArrayNode a) {
      for (int i = 0; i < a.size(); i++) {
        JsonNode before = a.get(i);
        for (JsonNode r : replacements()) {
          a.set(i, r);
          check(root, checked);
        }
        a.set(i, before);
        variants(root, before, checked);
      }
    }
  }

  private static void check(ObjectNode obj, int[] checked) {
    String apiVersion = obj.path("apiVersion").asString("");
    String kind = obj.path("kind").asString("");
    boolean expected =
        TypeCheck.decodeError(apiVersion, kind, obj) == null
            && StrictDecoding.unknownFields(apiVersion, kind, obj, false).isEmpty();
    assertThat(BodyCheck.clean(apiVersion, kind, obj))
        .as("%s %s: %s", apiVersion, kind, obj)
        .isEqualTo(expected);
    if (expected) {
      ObjectNode pruned = obj.deepCopy();
      StrictDecoding.prune(apiVersion, kind, pruned);
      assertThat(pruned).as("pruning a clean body removes nothing").isEqualTo(obj);
      checked[1]++;
    }
    checked[0]++;
  }
}
