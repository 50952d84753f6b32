package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class ServerSideApplyTest {
  private static final Instant T1 = Instant.parse("2026-11-21T10:00:00.123Z");
  private static final Instant T2 = Instant.parse("2026-11-21T11:00:00Z");

  private static final String POD =
      """
      apiVersion: v1
      kind: Pod
      metadata: {name: p, namespace: default, labels: {app: web}}
      spec:
        containers: [{name: nginx, image: nginx}]
      """;

  private static ObjectNode apply(ObjectNode current, String yaml, String manager, boolean force)
      throws PatchException {
    JsonNode cfg = Yaml.obj(yaml);
    return Patcher.apply(
        cfg.get("apiVersion").stringValue(),
        cfg.get("kind").stringValue(),
        current,
        Yaml.bytes(yaml),
        manager,
        force,
        T1);
  }

  private static JsonNode entry(ObjectNode obj, String manager) {
    for (JsonNode e : obj.get("metadata").get("managedFields")) {
      if (e.get("manager").stringValue().equals(manager)) {
        return e;
      }
    }
    return null;
  }

  private static String fields(ObjectNode obj, String manager) {
    JsonNode e = entry(obj, manager);
    return e == null ? null : Json.write(e.get("fieldsV1"));
  }

  @Test
  void createRecordsAnApplyEntry() throws Exception {
    ObjectNode pod = apply(null, POD, "kubectl", false);
    assertThat(pod.get("spec")).isEqualTo(Yaml.obj(POD).get("spec"));
    JsonNode e = entry(pod, "kubectl");
    assertThat(Json.write(e))
        .isEqualTo(
            "{\"manager\":\"kubectl\",\"operation\":\"Apply\",\"apiVersion\":\"v1\","
                + "\"time\":\"2026-11-21T10:00:00Z\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":"
                + "{\"f:metadata\":{\"f:labels\":{\"f:app\":{}}},\"f:spec\":{\"f:containers\":"
                + "{\"k:{\\\"name\\\":\\\"nginx\\\"}\":{\".\":{},\"f:image\":{},\"f:name\":{}}}}}}");
  }

  @Test
  void reapplyBySameManagerChangesWithoutConflict() throws Exception {
    ObjectNode pod = apply(null, POD, "kubectl", false);
    ObjectNode out = apply(pod, POD.replace("image: nginx", "image: nginx:2"), "kubectl", false);
    assertThat(Select.at(out, "spec.containers[0].image").stringValue()).isEqualTo("nginx:2");
    assertThat(out.get("metadata").get("managedFields")).hasSize(1);
  }

  @Test
  void conflictWithAnotherApplier() throws Exception {
    ObjectNode pod = apply(null, POD, "kubectl", false);
    String other =
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: default}
        spec:
          containers: [{name: nginx, image: nginx:3}]
        """;
    assertThatThrownBy(() -> apply(pod, other, "ctrl", false))
        .isInstanceOfSatisfying(
            PatchException.class,
            e -> {
              assertThat(e.code()).isEqualTo(409);
              assertThat(e.reason()).isEqualTo("Conflict");
              assertThat(e.getMessage())
                  .isEqualTo(
                      "Apply failed with 1 conflict: conflict with \"kubectl\":"
                          + " .spec.containers[name=\"nginx\"].image");
              assertThat(e.causes())
                  .containsExactly(
                      new PatchException.Cause(
                          "FieldManagerConflict",
                          "conflict with \"kubectl\"",
                          ".spec.containers[name=\"nginx\"].image"));
            });
    ObjectNode forced = apply(pod, other, "ctrl", true);
    assertThat(Select.at(forced, "spec.containers[0].image").stringValue()).isEqualTo("nginx:3");
    assertThat(fields(forced, "kubectl"))
        .isEqualTo(
            "{\"f:metadata\":{\"f:labels\":{\"f:app\":{}}},\"f:spec\":{\"f:containers\":"
                + "{\"k:{\\\"name\\\":\\\"nginx\\\"}\":{\".\":{},\"f:name\":{}}}}}");
    assertThat(fields(forced, "ctrl"))
        .isEqualTo(
            "{\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"nginx\\\"}\":"
                + "{\".\":{},\"f:image\":{},\"f:name\":{}}}}}");
  }

  @Test
  void sameValueIsSharedNotConflicting() throws Exception {
    ObjectNode pod = apply(null, POD, "kubectl", false);
    ObjectNode out = apply(pod, POD, "ctrl", false);
    assertThat(fields(out, "ctrl")).isEqualTo(fields(out, "kubectl"));
  }

  @Test
  void conflictWithClientSideApplyUpdater() throws Exception {
    ObjectNode created =
        Patcher.trackUpdate("v1", "Pod", null, Yaml.obj(POD), "kubectl-client-side-apply", T1);
    String cfg =
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers: [{name: nginx, image: other}]
        """;
    assertThatThrownBy(() -> apply(created, cfg, "mgr", false))
        .isInstanceOfSatisfying(
            PatchException.class,
            e ->
                assertThat(e.getMessage())
                    .isEqualTo(
                        "Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\""
                            + " using v1: .spec.containers[name=\"nginx\"].image"));
  }

  @Test
  void multipleConflictsAreGroupedByManager() throws Exception {
    ObjectNode pod = apply(null, POD, "kubectl", false);
    String cfg =
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p, labels: {app: db}}
        spec:
          containers: [{name: nginx, image: x}]
        """;
    assertThatThrownBy(() -> apply(pod, cfg, "ctrl", false))
        .isInstanceOfSatisfying(
            PatchException.class,
            e -> {
              assertThat(e.getMessage())
                  .isEqualTo(
                      "Apply failed with 2 conflicts: conflicts with \"kubectl\":\n"
                          + "- .metadata.labels.app\n"
                          + "- .spec.containers[name=\"nginx\"].image");
              assertThat(e.causes()).hasSize(2);
            });
  }

  @Test
  void fieldsNoLongerAppliedAreRemoved() throws Exception {
    String two =
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p, labels: {app: web, tier: fe}}
        spec:
          containers: [{name: nginx, image: nginx}, {name: side, image: busybox}]
        """;
    ObjectNode pod = apply(null, two, "kubectl", false);
    ObjectNode out = apply(pod, POD, "kubectl", false);
    assertThat(out.get("metadata").get("labels")).isEqualTo(Yaml.obj("{app: web}"));
    assertThat(Select.at(out, "spec.containers[*].name")).isEqualTo(Select.yaml("[nginx]"));
  }

  @Test
  void inputsAreNeverModified() throws Exception {
    String two =
        """
        apiVersion: v1
        kind: Pod
        metadata:
          name: p
          labels: {app: web, tier: fe}
          annotations: {kubectl.kubernetes.io/last-applied-configuration: "{}"}
        spec:
          containers: [{name: nginx, image: nginx}, {name: side, image: busybox}]
        """;
    ObjectNode pod = apply(null, two, "kubectl", false);
    ObjectNode before = pod.deepCopy();
    ObjectNode out = apply(pod, POD.replace("image: nginx", "image: nginx:2"), "kubectl", false);
    assertThat(pod).isEqualTo(before);
    assertThat(out.get("metadata").has("annotations")).as("pruned: no longer applied").isFalse();
    ObjectNode updated = out.deepCopy();
    ((ObjectNode) updated.get("metadata")).remove("managedFields");
    ObjectNode updatedBefore = updated.deepCopy();
    ObjectNode outBefore = out.deepCopy();
    ObjectNode tracked = Patcher.trackUpdate("v1", "Pod", out, updated, "x", T2);
    assertThat(updated).isEqualTo(updatedBefore);
    assertThat(out).isEqualTo(outBefore);
    ((ObjectNode) tracked.get("spec")).put("nodeName", "n");
    assertThat(updated).isEqualTo(updatedBefore);
    ((ObjectNode) tracked.get("spec")).remove("nodeName");
    // the registry's variant takes updated over instead of copying: the same result (key order
    // included), written into updated itself; the old object is not changed
    ObjectNode given = updatedBefore.deepCopy();
    ((ObjectNode) given.get("metadata")).set("managedFields", out.at("/metadata/managedFields"));
    ObjectNode sharing = Patcher.trackUpdateSharing("v1", "Pod", out, given, "x", T2, "");
    assertThat(sharing).isSameAs(given);
    assertThat(sharing).isEqualTo(tracked);
    assertThat(sharing.toString()).isEqualTo(tracked.toString());
    assertThat(out).isEqualTo(outBefore);
    // an updated object holding the old one's metadata object: that one is left as it was
    ObjectNode sameMeta = updatedBefore.deepCopy();
    sameMeta.set("metadata", out.get("metadata"));
    ((ObjectNode) sameMeta.get("spec")).put("nodeName", "n"); // a change: x gets an entry
    ObjectNode copied = Patcher.trackUpdate("v1", "Pod", out, sameMeta.deepCopy(), "x", T2);
    ObjectNode shared = Patcher.trackUpdateSharing("v1", "Pod", out, sameMeta, "x", T2, "");
    assertThat(shared.toString()).isEqualTo(copied.toString());
    assertThat(shared.at("/metadata/managedFields").toString()).contains("\"x\"");
    assertThat(out).isEqualTo(outBefore);
    assertThat(sameMeta.get("metadata")).isSameAs(out.get("metadata"));
  }

  @Test
  void fieldsOwnedByAnotherManagerSurviveRemoval() throws Exception {
    String two =
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p, labels: {app: web, tier: fe}}
        spec:
          containers: [{name: nginx, image: nginx}]
        """;
    ObjectNode pod = apply(null, two, "kubectl", false);
    ObjectNode shared = apply(pod, two, "ctrl", false);
    ObjectNode out = apply(shared, POD, "kubectl", false);
    assertThat(out.get("metadata").get("labels")).isEqualTo(Yaml.obj("{app: web, tier: fe}"));
  }

  @Test
  void fieldsSetByOthersAreNotRemoved() throws Exception {
    ObjectNode pod = apply(null, POD, "kubectl", false);
    ObjectNode labelled = pod.deepCopy();
    ((ObjectNode) labelled.get("metadata").get("labels")).put("extra", "1");
    labelled = Patcher.trackUpdate("v1", "Pod", pod, labelled, "kubectl-label", T2);
    assertThat(fields(labelled, "kubectl-label"))
        .isEqualTo("{\"f:metadata\":{\"f:labels\":{\"f:extra\":{}}}}");
    ObjectNode out = apply(labelled, POD, "kubectl", false);
    assertThat(out.get("metadata").get("labels")).isEqualTo(Yaml.obj("{app: web, extra: \"1\"}"));
  }

  @Test
  void listMapWithSeveralKeysAndSets() throws Exception {
    String cfg =
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p, finalizers: [a.example.com/f]}
        spec:
          containers:
          - name: c
            ports: [{containerPort: 80, protocol: TCP}]
        """;
    ObjectNode pod = apply(null, cfg, "m", false);
    assertThat(fields(pod, "m"))
        .isEqualTo(
            "{\"f:metadata\":{\"f:finalizers\":{\"v:\\\"a.example.com/f\\\"\":{}}},"
                + "\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"c\\\"}\":{\".\":{},"
                + "\"f:name\":{},\"f:ports\":{\"k:{\\\"containerPort\\\":80,\\\"protocol\\\":"
                + "\\\"TCP\\\"}\":{\".\":{},\"f:containerPort\":{},\"f:protocol\":{}}}}}}}");
  }

  @Test
  void nestedListMapItemsArePruned() throws Exception {
    String v1 =
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: d}
        spec:
          replicas: 2
          template:
            spec:
              containers:
              - name: a
                image: x
                env: [{name: A, value: "1"}, {name: B, value: "2"}]
        """;
    ObjectNode d = apply(null, v1, "kubectl", false);
    ObjectNode out =
        apply(
            d,
            v1.replace(", {name: B, value: \"2\"}", "").replace("  replicas: 2\n", ""),
            "kubectl",
            false);
    assertThat(Select.at(out, "spec.template.spec.containers[0].env"))
        .isEqualTo(Select.yaml("[{name: A, value: \"1\"}]"));
    assertThat(out.get("spec").has("replicas")).isFalse();
  }

  @Test
  void twoControllersShareAClaimStatus() throws Exception {
    ObjectNode claim =
        Yaml.obj(
            "{apiVersion: resource.k8s.io/v1, kind: ResourceClaim, metadata: {name: c, namespace:"
                + " default}, spec: {devices: {requests: [{name: r, exactly: {deviceClassName:"
                + " g}}]}}}");
    String alloc =
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: c, namespace: default}
        status:
          allocation:
            devices:
              results: [{request: r, driver: d, pool: p, device: g0}]
          reservedFor: [{resource: pods, name: p1, uid: u1}]
        """;
    ObjectNode s1 =
        Patcher.apply(
            "resource.k8s.io/v1",
            "ResourceClaim",
            claim,
            Yaml.bytes(alloc),
            "scheduler",
            false,
            T1,
            "status");
    String reserve =
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: c, namespace: default}
        status:
          reservedFor: [{resource: pods, name: p2, uid: u2}]
        """;
    ObjectNode s2 =
        Patcher.apply(
            "resource.k8s.io/v1",
            "ResourceClaim",
            s1,
            Yaml.bytes(reserve),
            "controller",
            false,
            T2,
            "status");
    assertThat(Select.at(s2, "status.reservedFor[*].uid")).isEqualTo(Select.yaml("[u1, u2]"));
    String unreserve =
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: c, namespace: default}
        status: {}
        """;
    ObjectNode s3 =
        Patcher.apply(
            "resource.k8s.io/v1",
            "ResourceClaim",
            s2,
            Yaml.bytes(unreserve),
            "controller",
            false,
            T2,
            "status");
    assertThat(Select.at(s3, "status.reservedFor[*].uid")).isEqualTo(Select.yaml("[u1]"));
    assertThat(Select.at(s3, "status.allocation.devices.results[0].device").stringValue())
        .isEqualTo("g0");
  }

  @Test
  void portKeyUsesTheProtocolDefault() throws Exception {
    String stored =
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers:
          - name: c
            ports: [{containerPort: 80, protocol: TCP}]
        """;
    String cfg =
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers:
          - name: c
            ports: [{containerPort: 80, name: http}]
        """;
    ObjectNode out = apply(Yaml.obj(stored), cfg, "m", false);
    assertThat(Select.at(out, "spec.containers[0].ports"))
        .isEqualTo(Select.yaml("[{containerPort: 80, protocol: TCP, name: http}]"));
    assertThat(fields(out, "m"))
        .contains("k:{\\\"containerPort\\\":80,\\\"protocol\\\":\\\"TCP\\\"}");
  }

  @Test
  void statusIsNotOwnedThroughTheMainResource() throws Exception {
    String cfg = POD + "status: {phase: Running}\n";
    ObjectNode pod = apply(null, cfg, "m", false);
    assertThat(fields(pod, "m")).doesNotContain("status");
  }

  @Test
  void statusSubresourceApplyRecordsTheSubresource() throws Exception {
    String claim =
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: c, namespace: default}
        status:
          reservedFor: [{resource: pods, name: p, uid: u1}]
        """;
    ObjectNode out =
        Patcher.apply(
            "resource.k8s.io/v1",
            "ResourceClaim",
            Yaml.obj("{apiVersion: resource.k8s.io/v1, kind: ResourceClaim, metadata: {name: c}}"),
            Yaml.bytes(claim),
            "scheduler",
            false,
            T1,
            "status");
    JsonNode e = entry(out, "scheduler");
    assertThat(e.get("subresource").stringValue()).isEqualTo("status");
    assertThat(Json.write(e.get("fieldsV1")))
        .isEqualTo(
            "{\"f:status\":{\"f:reservedFor\":{\"k:{\\\"uid\\\":\\\"u1\\\"}\":{\".\":{},"
                + "\"f:name\":{},\"f:resource\":{},\"f:uid\":{}}}}}");
  }

  @Test
  void kubectlTakesOverFromClientSideApplyAndUpdatesTheAnnotation() throws Exception {
    String lastApplied =
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"labels\":{\"app\":\"web\"},"
            + "\"name\":\"p\",\"namespace\":\"default\"},\"spec\":{\"containers\":"
            + "[{\"image\":\"nginx\",\"name\":\"nginx\"}]}}\n";
    ObjectNode csa = Yaml.obj(POD);
    ((ObjectNode) csa.get("metadata"))
        .putObject("annotations")
        .put(FieldManager.LAST_APPLIED, lastApplied);
    ObjectNode created =
        Patcher.trackUpdate("v1", "Pod", null, csa, "kubectl-client-side-apply", T1);
    String cfg = POD.replace("image: nginx", "image: nginx:2");
    ObjectNode out = apply(created, cfg, "kubectl", false);
    assertThat(Select.at(out, "spec.containers[0].image").stringValue()).isEqualTo("nginx:2");
    assertThat(out.get("metadata").get("annotations").get(FieldManager.LAST_APPLIED).stringValue())
        .isEqualTo(lastApplied.replace("\"image\":\"nginx\"", "\"image\":\"nginx:2\""));
  }

  static Stream<Arguments> badApplies() {
    return Stream.of(
        Arguments.of(
            Named.of("wrong version", "{apiVersion: v2, kind: Pod, metadata: {name: p}}"),
            "invalid object type: /v2, Kind=Pod"),
        Arguments.of(
            Named.of("missing kind", "{apiVersion: apps/v1, metadata: {name: p}}"),
            "invalid object type: apps/v1, Kind="),
        Arguments.of(
            Named.of(
                "managedFields set",
                "{apiVersion: v1, kind: Pod, metadata: {name: p, managedFields: [{manager: x}]}}"),
            "metadata.managedFields must be nil"),
        Arguments.of(
            Named.of(
                "unknown field",
                "{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: ns}, spec: {foo: 1}}"),
            "failed to create typed patch object (ns/p; /v1, Kind=Pod): .spec.foo: field not"
                + " declared in schema"),
        Arguments.of(
            Named.of(
                "several errors",
                "{apiVersion: v1, kind: Pod, metadata: {name: p, zzz: 1}, spec: {containers:"
                    + " [{name: a}, {name: a}]}}"),
            "failed to create typed patch object (/p; /v1, Kind=Pod): errors:\n"
                + "  .metadata.zzz: field not declared in schema\n"
                + "  .spec.containers: duplicate entries for key [name=\"a\"]"),
        Arguments.of(
            Named.of(
                "duplicate list-map keys only",
                "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: a},"
                    + " {name: a}]}}"),
            "failed to create typed patch object (/p; /v1, Kind=Pod): .spec.containers:"
                + " duplicate entries for key [name=\"a\"]"),
        Arguments.of(
            Named.of("a list", "[1, 2]"),
            "error decoding patch: json: cannot unmarshal array into Go value of type"
                + " map[string]interface {}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badApplies")
  void rejectsBadConfigurations(String body, String message) {
    assertThatThrownBy(() -> Patcher.apply("v1", "Pod", null, Yaml.bytes(body), "m", false, T1))
        .isInstanceOfSatisfying(
            PatchException.class,
            e -> {
              assertThat(e.code()).isEqualTo(400);
              assertThat(e.reason()).isEqualTo("BadRequest");
              assertThat(e.getMessage()).isEqualTo(message);
            });
  }

  @Test
  void fieldManagerIsRequired() {
    assertThatThrownBy(() -> Patcher.apply("v1", "Pod", null, Yaml.bytes(POD), "", false, T1))
        .isInstanceOfSatisfying(
            PatchException.class,
            e -> {
              assertThat(e.code()).isEqualTo(422);
              assertThat(e.reason()).isEqualTo("Invalid");
              assertThat(e.getMessage())
                  .isEqualTo(
                      "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is"
                          + " required for apply patch");
              assertThat(e.causes())
                  .containsExactly(
                      new PatchException.Cause(
                          "FieldValueRequired",
                          "Required value: is required for apply patch",
                          "fieldManager"));
            });
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"a: [b", "a: {b"})
  void malformedYamlIsBadRequest(String body) {
    assertThatThrownBy(() -> Patcher.apply("v1", "Pod", null, Yaml.bytes(body), "m", false, T1))
        .isInstanceOfSatisfying(
            PatchException.class,
            e -> {
              assertThat(e.code()).isEqualTo(400);
              assertThat(e.getMessage())
                  .startsWith("error encoding patch: error converting YAML to JSON: yaml: ");
            });
  }

  @Test
  void aRepeatedKeyKeepsItsLastValueAsUpstreamsNonStrictYaml() throws Exception {
    ObjectNode pod =
        Patcher.apply(
            "v1",
            "Pod",
            null,
            Yaml.bytes("apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  name: b\n"),
            "m",
            false,
            T1);
    assertThat(pod.at("/metadata/name").asString()).isEqualTo("b");
  }

  @Test
  void noopApplyKeepsTheObjectAndTime() throws Exception {
    ObjectNode pod = apply(null, POD, "kubectl", false);
    JsonNode cfg = Yaml.obj(POD);
    ObjectNode again = Patcher.apply("v1", "Pod", pod, Yaml.bytes(POD), "kubectl", false, T2);
    assertThat(again).isEqualTo(pod);
    assertThat(cfg).isNotNull();
  }

  @Test
  void updateTrackingOnCreateAndChange() throws Exception {
    ObjectNode created =
        Patcher.trackUpdate("v1", "Pod", null, Yaml.obj(POD), "kubectl-create", T1);
    assertThat(fields(created, "kubectl-create"))
        .isEqualTo(
            "{\"f:metadata\":{\"f:labels\":{\".\":{},\"f:app\":{}}},\"f:spec\":{\"f:containers\":"
                + "{\"k:{\\\"name\\\":\\\"nginx\\\"}\":{\".\":{},\"f:image\":{},\"f:name\":{},"
                // resources is a value struct: Go objects always carry it, so upstream records it
                + "\"f:resources\":{}}}}}");
    assertThat(entry(created, "kubectl-create").get("operation").stringValue()).isEqualTo("Update");
    ObjectNode changed = created.deepCopy();
    ((ObjectNode) Select.at(changed, "spec.containers[0]")).put("image", "x");
    ObjectNode out = Patcher.trackUpdate("v1", "Pod", created, changed, "editor", T2);
    assertThat(fields(out, "editor"))
        .isEqualTo(
            "{\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"nginx\\\"}\":{\"f:image\":{}}}}}");
    assertThat(fields(out, "kubectl-create")).doesNotContain("f:image");
    assertThat(entry(out, "editor").get("time").stringValue()).isEqualTo("2026-11-21T11:00:00Z");
    List<String> managers =
        Select.at(out, "metadata.managedFields[*].manager")
            .valueStream()
            .map(JsonNode::stringValue)
            .toList();
    assertThat(managers).containsExactly("kubectl-create", "editor");
  }

  @Test
  void updateWithoutChangesKeepsManagers() {
    ObjectNode created = Patcher.trackUpdate("v1", "Pod", null, Yaml.obj(POD), "a", T1);
    ObjectNode same = Patcher.trackUpdate("v1", "Pod", created, created, "b", T2);
    assertThat(same).isEqualTo(created);
  }

  @Test
  void updateManagersAreCappedIntoAncientChanges() {
    ObjectNode obj =
        Patcher.trackUpdate(
            "v1",
            "ConfigMap",
            null,
            Yaml.obj("{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}"),
            "m0",
            T1);
    for (int i = 1; i <= 11; i++) {
      ObjectNode next = obj.deepCopy();
      next.withObjectProperty("data").put("k" + i, "v");
      obj = Patcher.trackUpdate("v1", "ConfigMap", obj, next, "m" + i, T1.plusSeconds(i));
    }
    List<String> managers =
        Select.at(obj, "metadata.managedFields[*].manager")
            .valueStream()
            .map(JsonNode::stringValue)
            .toList();
    assertThat(managers)
        .containsExactly("ancient-changes", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "m10", "m11");
    assertThat(fields(obj, "ancient-changes"))
        .isEqualTo("{\"f:data\":{\".\":{},\"f:k1\":{},\"f:k2\":{}}}");
  }

  @Test
  void managedFieldsResetByTheRequest() {
    ObjectNode created = Patcher.trackUpdate("v1", "Pod", null, Yaml.obj(POD), "a", T1);
    ObjectNode reset = created.deepCopy();
    ((ObjectNode) reset.get("metadata")).putArray("managedFields");
    ObjectNode out = Patcher.trackUpdate("v1", "Pod", created, reset, "b", T2);
    assertThat(out.get("metadata").has("managedFields")).isFalse();
  }
}
