package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.ExampleManifests;
import io.jdra.apiserver.meta.TreeCopies;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A create that takes the remembered outcome of the last create of its shape records exactly what
 * the general path records: every object of the upstream example manifests, a scheduled pod, its
 * claim and the scheduler's event, each created after itself and after copies of itself with one
 * change (a value replaced by another of its class, by a string or by null, a member removed,
 * renamed or added, a list item removed or added), on the main resource and on status, sharing or
 * copying.
 */
class CreateShapesTest {
  private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");
  private static final Instant T1 = Instant.parse("2026-11-27T10:00:01Z");

  @Test
  void rememberedCreatesRecordWhatTheGeneralPathRecords() throws IOException {
    int compared = 0;
    int remembered = 0;
    for (ObjectNode o : objects()) {
      List<JsonNode> variants = new ArrayList<>();
      variants.add(o.deepCopy());
      CompareShortcutTest.mutations(o, o, variants);
      valueChanges(o, o, variants);
      for (JsonNode v : variants) {
        for (String sub : List.of("", "status")) {
          for (boolean copy : List.of(false, true)) {
            remembered += same(o, (ObjectNode) v, sub, copy) ? 1 : 0;
            compared++;
          }
        }
      }
    }
    assertThat(compared).isGreaterThan(1000);
    // Most values changed outside lists keep the shape: the remembered outcome is taken.
    assertThat(remembered).isGreaterThan(compared / 10);
  }

  @Test
  void claimsNamingOtherOwnersRecordWhatTheGeneralPathRecords() {
    String one = "[{apiVersion: v1, kind: Pod, name: p, uid: u1, controller: true}]";
    String two =
        "[{apiVersion: v1, kind: Pod, name: p, uid: u1, controller: true},"
            + " {apiVersion: v1, kind: Pod, name: q, uid: u2}]";
    // the owners a template's next claim names, and lists that must not take the shortcut
    List<String> taken =
        List.of(
            "[{apiVersion: v1, kind: Pod, name: p2, uid: u9, controller: true}]",
            "[{apiVersion: v1, kind: Pod, name: p, uid: '', controller: true}]",
            "[{apiVersion: v1, kind: Pod, name: p, uid: u0, controller: false}]");
    List<String> takenTwo =
        List.of(
            "[{apiVersion: v1, kind: Pod, name: p, uid: u2, controller: true},"
                + " {apiVersion: v1, kind: Pod, name: q, uid: u1}]",
            "[{apiVersion: v1, kind: Pod, name: p, uid: a, controller: true},"
                + " {apiVersion: v1, kind: Pod, name: q, uid: z}]",
            "[{apiVersion: v1, kind: Pod, name: p, uid: z, controller: true},"
                + " {apiVersion: v1, kind: Pod, name: q, uid: a}]",
            "[{apiVersion: v1, kind: Pod, name: p, uid: u3, controller: true},"
                + " {apiVersion: v1, kind: Pod, name: q, uid: u1}]");
    List<String> missed =
        List.of(
            "[{apiVersion: v1, kind: Pod, name: p, uid: 7, controller: true}]",
            "[{apiVersion: v1, kind: Pod, name: p, uid: null, controller: true}]",
            "[{apiVersion: v1, kind: Pod, name: p, controller: true, uid: u9}]",
            "[{apiVersion: v1, kind: Pod, name: p, uid: u9}]",
            "[{apiVersion: v1, kind: Pod, name: p, uid: u9, controller: true, x: 1}]",
            "[]",
            two);
    List<String> missedTwo =
        List.of(
            "[{apiVersion: v1, kind: Pod, name: p, uid: u3, controller: true},"
                + " {apiVersion: v1, kind: Pod, name: q, uid: u3}]",
            "[{apiVersion: v1, kind: Pod, name: p, uid: u3, controller: true},"
                + " {apiVersion: v1, kind: Pod, uid: u4, name: q}]",
            one);
    for (String sub : List.of("", "status")) {
      for (boolean copy : List.of(false, true)) {
        for (String owners : taken) {
          assertThat(same(claim(one), claim(owners), sub, copy)).as(owners).isTrue();
        }
        for (String owners : takenTwo) {
          assertThat(same(claim(two), claim(owners), sub, copy)).as(owners).isTrue();
        }
        for (String owners : missed) {
          assertThat(same(claim(one), claim(owners), sub, copy)).as(owners).isFalse();
        }
        for (String owners : missedTwo) {
          assertThat(same(claim(two), claim(owners), sub, copy)).as(owners).isFalse();
        }
      }
    }
    // a remembered list with a uid twice (invalid, but the general path records it) is not used
    assertThat(same(claim(dup()), claim(two), "", false)).isFalse();
  }

  private static String dup() {
    return "[{apiVersion: v1, kind: Pod, name: p, uid: u1, controller: true},"
        + " {apiVersion: v1, kind: Pod, name: q, uid: u1}]";
  }

  private static ObjectNode claim(String owners) {
    return Yaml.obj(
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata:
          name: c
          namespace: default
          annotations: {resource.kubernetes.io/pod-claim-name: resource}
          ownerReferences: %s
        spec:
          devices:
            requests:
            - {name: req-0, exactly: {deviceClassName: d, allocationMode: ExactCount, count: 1}}
        """
            .formatted(owners));
  }

  @Test
  void kindsSharingTheUntypedSchemaAreToldApart() {
    CreateShapes shapes = new CreateShapes();
    ObjectNode a = Yaml.obj("{apiVersion: x.io/v1, kind: A, metadata: {name: a}, spec: {f: 1}}");
    ObjectNode b = Yaml.obj("{apiVersion: x.io/v1, kind: B, metadata: {name: a}, spec: {f: 1}}");
    track(a, "", false, shapes);
    assertThat(shapes.find(Schema.forKind("x.io/v1", "B"), "x.io/v1", "B", "", b)).isNull();
    assertThat(shapes.find(Schema.forKind("x.io/v1", "A"), "x.io/v1", "A", "", a)).isNotNull();
    assertThat(shapes.find(Schema.forKind("x.io/v1", "A"), "x.io/v2", "A", "", a)).isNull();
    assertThat(shapes.find(Schema.forKind("x.io/v1", "A"), "x.io/v1", "A", "status", a)).isNull();
  }

  @Test
  void aShapeThatNeverRepeatsIsReplacedOnlyNowAndThen() {
    CreateShapes shapes = new CreateShapes();
    Schema.Type type = Schema.forKind("v1", "Pod");
    ObjectNode a = Yaml.obj("{apiVersion: v1, kind: Pod, metadata: {name: a}, spec: {x: 1}}");
    ObjectNode b = Yaml.obj("{apiVersion: v1, kind: Pod, metadata: {name: b}, spec: {y: 1}}");
    track(a, "", false, shapes);
    for (int i = 1; i < CreateShapes.RETRY_EVERY; i++) {
      track(b, "", false, shapes);
      assertThat(CreateShapes.sameShape(shapes.last(type).shape(), a)).as("miss %s", i).isTrue();
    }
    track(b, "", false, shapes);
    assertThat(CreateShapes.sameShape(shapes.last(type).shape(), b)).isTrue();
    assertThat(shapes.find(type, "v1", "Pod", "", b)).isNotNull();
    // once taken, the next create of another shape replaces it at once
    track(a, "", false, shapes);
    assertThat(shapes.find(type, "v1", "Pod", "", a)).isNotNull();
  }

  @Test
  void aCreateGivenEntriesRecordsWhatTheGeneralPathRecords() {
    CreateShapes shapes = new CreateShapes();
    ObjectNode pod = Yaml.obj("{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {x: 1}}");
    track(pod, "", false, shapes);
    ObjectNode given = pod.deepCopy();
    ObjectNode entry =
        Yaml.obj(
            "{manager: other, operation: Update, apiVersion: v1, fieldsType: FieldsV1,"
                + " fieldsV1: {'f:spec': {'f:y': {}}}}");
    ((ObjectNode) given.get("metadata")).putArray("managedFields").add(entry);
    ObjectNode fast =
        FieldManager.trackUpdate("v1", "Pod", null, given.deepCopy(), "m", T1, "", false, shapes);
    ObjectNode slow =
        FieldManager.trackUpdate("v1", "Pod", null, given.deepCopy(), "m", T1, "", false, null);
    assertThat(fast).isEqualTo(slow);
  }

  /**
   * Creates {@code o}, then {@code v} with the remembered outcome, and compares with {@code v}
   * created by the general path; true when the remembered outcome was taken.
   */
  private static boolean same(ObjectNode o, ObjectNode v, String sub, boolean copy) {
    CreateShapes shapes = new CreateShapes();
    track(o, sub, copy, shapes);
    String apiVersion = o.get("apiVersion").stringValue();
    String kind = o.get("kind").stringValue();
    boolean taken = shapes.find(Schema.forKind(apiVersion, kind), apiVersion, kind, sub, v) != null;
    ObjectNode given = v.deepCopy();
    ObjectNode fast =
        FieldManager.trackUpdate(apiVersion, kind, null, given, "second", T1, sub, copy, shapes);
    ObjectNode slow =
        FieldManager.trackUpdate(
            apiVersion, kind, null, v.deepCopy(), "second", T1, sub, copy, null);
    assertThat(fast).as("%s %s after %s", sub, v, o).isEqualTo(slow);
    assertThat(fast.toString()).isEqualTo(slow.toString());
    if (copy) {
      assertThat(given).isEqualTo(v); // the caller's object is left as it was
    }
    return taken;
  }

  private static void track(ObjectNode o, String sub, boolean copy, CreateShapes shapes) {
    FieldManager.trackUpdate(
        o.get("apiVersion").stringValue(),
        o.get("kind").stringValue(),
        null,
        o.deepCopy(),
        "first",
        T0,
        sub,
        copy,
        shapes);
  }

  /** Copies with one scalar replaced by another value of its class, or by null. */
  private static void valueChanges(ObjectNode root, JsonNode at, List<JsonNode> out) {
    if (at instanceof ObjectNode o) {
      for (Map.Entry<String, JsonNode> e : o.properties()) {
        String k = e.getKey();
        JsonNode value = e.getValue();
        if (value.isString()) {
          out.add(TreeCopies.changed(root, o, c -> ((ObjectNode) c).put(k, value + "-other")));
        } else if (value.isIntegralNumber()) {
          out.add(TreeCopies.changed(root, o, c -> ((ObjectNode) c).put(k, value.asInt() + 1)));
        } else if (value.isBoolean()) {
          out.add(TreeCopies.changed(root, o, c -> ((ObjectNode) c).put(k, !value.booleanValue())));
        }
        out.add(TreeCopies.changed(root, o, c -> ((ObjectNode) c).putNull(k)));
        out.add(TreeCopies.changed(root, o, c -> renamed((ObjectNode) c, k)));
        valueChanges(root, value, out);
      }
    } else if (at instanceof ArrayNode a) {
      for (JsonNode item : a) {
        valueChanges(root, item, out);
      }
    }
  }

  /** Renames member {@code k} of {@code o} in its place (the same size and order of members). */
  private static void renamed(ObjectNode o, String k) {
    ObjectNode members = o.deepCopy();
    o.removeAll();
    for (Map.Entry<String, JsonNode> e : members.properties()) {
      o.set(e.getKey().equals(k) ? k + "-renamed" : e.getKey(), e.getValue());
    }
  }

  private static List<ObjectNode> objects() throws IOException {
    List<ObjectNode> objects = new ArrayList<>(ExampleManifests.all());
    objects.add(
        Yaml.obj(
            """
            apiVersion: v1
            kind: Pod
            metadata: {name: p, namespace: default, labels: {app: x}, uid: u, creationTimestamp: t}
            spec:
              containers:
              - {name: pause, image: img, resources: {claims: [{name: resource}]}}
              resourceClaims: [{name: resource, resourceClaimTemplateName: t}]
              tolerations: [{key: k, operator: Exists, effect: NoSchedule, tolerationSeconds: 300}]
            status: {phase: Pending, qosClass: BestEffort}
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
            """));
    objects.add(
        Yaml.obj(
            """
            apiVersion: events.k8s.io/v1
            kind: Event
            metadata: {name: p.123, namespace: default}
            eventTime: "2026-11-27T10:00:00.000000Z"
            reportingController: default-scheduler
            reportingInstance: default-scheduler-host
            action: Binding
            reason: Scheduled
            regarding: {kind: Pod, namespace: default, name: p, uid: u, apiVersion: v1}
            note: Successfully assigned default/p to node-1
            type: Normal
            """));
    return objects;
  }
}
