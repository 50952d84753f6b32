package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

class StrategicMergePatchTest {
  private static final String POD =
      """
      apiVersion: v1
      kind: Pod
      metadata:
        name: p
        labels: {app: web, tier: fe}
        finalizers: [a, b]
      spec:
        containers:
        - name: c1
          image: nginx
          env: [{name: A, value: "1"}, {name: B, value: "2"}]
          ports: [{containerPort: 80}, {containerPort: 443}]
        - name: c2
          image: busybox
        tolerations: [{key: k1, operator: Exists}]
        volumes:
        - name: v1
          emptyDir: {}
      """;

  record Case(String apiVersion, String kind, String original, String patch, String expected) {}

  static Stream<Arguments> cases() {
    return Stream.of(
        c(
            "kubectl label adds a label",
            POD,
            "{\"metadata\":{\"labels\":{\"env\":\"prod\"}}}",
            "metadata.labels",
            "{app: web, tier: fe, env: prod}"),
        c(
            "kubectl label key- removes a label",
            POD,
            "{\"metadata\":{\"labels\":{\"tier\":null}}}",
            "metadata.labels",
            "{app: web}"),
        c(
            "kubectl annotate on an object without annotations",
            POD,
            "{\"metadata\":{\"annotations\":{\"a.example.com/x\":\"1\"}}}",
            "metadata.annotations",
            "{a.example.com/x: \"1\"}"),
        c(
            "null for a missing key is ignored",
            POD,
            "{\"metadata\":{\"annotations\":{\"gone\":null}}}",
            "metadata.annotations",
            "{}"),
        c(
            "containers merge by name",
            POD,
            "{\"spec\":{\"containers\":[{\"name\":\"c2\",\"image\":\"busybox:2\"}]}}",
            "spec.containers",
            "[{name: c1, image: nginx, env: [{name: A, value: \"1\"}, {name: B, value: \"2\"}],"
                + " ports: [{containerPort: 80}, {containerPort: 443}]},"
                + " {name: c2, image: busybox:2}]"),
        c(
            "a new container goes first, as upstream orders unknown items",
            POD,
            "{\"spec\":{\"containers\":[{\"name\":\"c3\",\"image\":\"x\"}]}}",
            "spec.containers[*].name",
            "[c3, c1, c2]"),
        c(
            "env merges by name inside a container",
            POD,
            "{\"spec\":{\"containers\":[{\"name\":\"c1\",\"env\":[{\"name\":\"B\",\"value\":\"3\"},"
                + "{\"name\":\"C\",\"value\":\"4\"}]}]}}",
            "spec.containers[0].env",
            "[{name: A, value: \"1\"}, {name: B, value: \"3\"}, {name: C, value: \"4\"}]"),
        c(
            "ports merge by containerPort",
            POD,
            "{\"spec\":{\"containers\":[{\"name\":\"c1\",\"ports\":[{\"containerPort\":443,"
                + "\"name\":\"https\"}]}]}}",
            "spec.containers[0].ports",
            "[{containerPort: 80}, {containerPort: 443, name: https}]"),
        c(
            "$patch: delete removes a list element by merge key",
            POD,
            "{\"spec\":{\"containers\":[{\"name\":\"c1\",\"$patch\":\"delete\"}]}}",
            "spec.containers[*].name",
            "[c2]"),
        c(
            "$patch: replace in a list replaces it",
            POD,
            "{\"spec\":{\"containers\":[{\"name\":\"only\",\"image\":\"i\"},{\"$patch\":\"replace\"}]}}",
            "spec.containers",
            "[{name: only, image: i}]"),
        c(
            "$patch: replace in a map replaces it",
            POD,
            "{\"metadata\":{\"labels\":{\"$patch\":\"replace\",\"x\":\"y\"}}}",
            "metadata.labels",
            "{x: y}"),
        c(
            "$patch: delete in a map empties it",
            POD,
            "{\"metadata\":{\"labels\":{\"$patch\":\"delete\"}}}",
            "metadata.labels",
            "{}"),
        c(
            "finalizers merge as a set",
            POD,
            "{\"metadata\":{\"finalizers\":[\"b\",\"c\"]}}",
            "metadata.finalizers",
            "[a, b, c]"),
        c(
            "$deleteFromPrimitiveList removes finalizers",
            POD,
            "{\"metadata\":{\"$deleteFromPrimitiveList/finalizers\":[\"a\"]}}",
            "metadata.finalizers",
            "[b]"),
        c(
            "$setElementOrder reorders containers",
            POD,
            "{\"spec\":{\"$setElementOrder/containers\":[{\"name\":\"c2\"},{\"name\":\"c1\"}]}}",
            "spec.containers[*].name",
            "[c2, c1]"),
        c(
            "$setElementOrder with a changed element",
            POD,
            "{\"spec\":{\"$setElementOrder/containers\":[{\"name\":\"c2\"},{\"name\":\"c1\"}],"
                + "\"containers\":[{\"name\":\"c1\",\"image\":\"nginx:2\"}]}}",
            "spec.containers[*].image",
            "[busybox, nginx:2]"),
        c(
            "$setElementOrder for finalizers",
            POD,
            "{\"metadata\":{\"$setElementOrder/finalizers\":[\"b\",\"a\"]}}",
            "metadata.finalizers",
            "[b, a]"),
        c(
            "tolerations have no strategy: replaced",
            POD,
            "{\"spec\":{\"tolerations\":[{\"key\":\"k2\",\"operator\":\"Exists\"}]}}",
            "spec.tolerations",
            "[{key: k2, operator: Exists}]"),
        c(
            "$retainKeys switches a volume source",
            POD,
            "{\"spec\":{\"volumes\":[{\"name\":\"v1\",\"hostPath\":{\"path\":\"/x\"},"
                + "\"$retainKeys\":[\"hostPath\",\"name\"]}]}}",
            "spec.volumes",
            "[{name: v1, hostPath: {path: /x}}]"),
        c(
            "without $retainKeys both volume sources stay",
            POD,
            "{\"spec\":{\"volumes\":[{\"name\":\"v1\",\"hostPath\":{\"path\":\"/x\"}}]}}",
            "spec.volumes",
            "[{name: v1, emptyDir: {}, hostPath: {path: /x}}]"),
        c(
            "nulls in new values are dropped",
            POD,
            "{\"spec\":{\"nodeSelector\":{\"a\":\"b\",\"c\":null}}}",
            "spec.nodeSelector",
            "{a: b}"),
        c(
            "directives in new values are dropped",
            POD,
            "{\"spec\":{\"affinity\":{\"nodeAffinity\":{\"$patch\":\"delete\"},\"podAffinity\":{}}}}",
            "spec.affinity",
            "{podAffinity: {}}"),
        c(
            "scalar replaced by a map",
            POD,
            "{\"spec\":{\"containers\":[{\"name\":\"c2\",\"image\":{\"x\":1}}]}}",
            "spec.containers[1].image",
            "{x: 1}"),
        c(
            "kubectl client-side apply three-way patch",
            POD,
            "{\"metadata\":{\"annotations\":{\"kubectl.kubernetes.io/last-applied-configuration\":"
                + "\"{}\\n\"},\"labels\":{\"tier\":null}},\"spec\":{\"$setElementOrder/containers\":"
                + "[{\"name\":\"c1\"},{\"name\":\"c2\"}],\"containers\":[{\"image\":\"nginx:1.27\","
                + "\"name\":\"c1\"}]}}",
            "",
            """
            apiVersion: v1
            kind: Pod
            metadata:
              name: p
              labels: {app: web}
              finalizers: [a, b]
              annotations: {kubectl.kubernetes.io/last-applied-configuration: "{}\\n"}
            spec:
              containers:
              - name: c1
                image: nginx:1.27
                env: [{name: A, value: "1"}, {name: B, value: "2"}]
                ports: [{containerPort: 80}, {containerPort: 443}]
              - name: c2
                image: busybox
              tolerations: [{key: k1, operator: Exists}]
              volumes:
              - name: v1
                emptyDir: {}
            """),
        c(
            "node status conditions merge by type",
            """
            apiVersion: v1
            kind: Node
            metadata: {name: n}
            status:
              conditions: [{type: Ready, status: "False"}, {type: DiskPressure, status: "False"}]
              addresses: [{type: InternalIP, address: 10.0.0.1}]
            """,
            "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}],"
                + "\"addresses\":[{\"type\":\"Hostname\",\"address\":\"n\"}]}}",
            "status",
            "{conditions: [{type: Ready, status: \"True\"}, {type: DiskPressure, status: \"False\"}],"
                + " addresses: [{type: Hostname, address: n}, {type: InternalIP, address: 10.0.0.1}]}"),
        c(
            "ownerReferences merge by uid",
            """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: cm
              ownerReferences: [{uid: u1, kind: Pod, name: a, apiVersion: v1}]
            """,
            "{\"metadata\":{\"ownerReferences\":[{\"uid\":\"u2\",\"kind\":\"Pod\",\"name\":\"b\","
                + "\"apiVersion\":\"v1\"}]}}",
            "metadata.ownerReferences[*].uid",
            "[u2, u1]"),
        c(
            "deployment template containers merge by name",
            """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: d}
            spec:
              template:
                spec:
                  containers: [{name: a, image: x}, {name: b, image: y}]
            """,
            "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"b\",\"image\":\"z\"}]}}}}",
            "spec.template.spec.containers",
            "[{name: a, image: x}, {name: b, image: z}]"),
        c(
            "kubectl apply switching a deployment strategy uses $retainKeys",
            """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: d}
            spec:
              strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
            """,
            "{\"spec\":{\"strategy\":{\"$retainKeys\":[\"type\"],\"rollingUpdate\":null,"
                + "\"type\":\"Recreate\"}}}",
            "spec.strategy",
            "{type: Recreate}"),
        c(
            "kubectl rollout restart annotates the template",
            """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: d}
            spec:
              template:
                metadata: {labels: {app: a}}
                spec:
                  containers: [{name: a, image: x}]
            """,
            "{\"spec\":{\"template\":{\"metadata\":{\"annotations\":"
                + "{\"kubectl.kubernetes.io/restartedAt\":\"2026-11-21T10:00:00Z\"}}}}}",
            "spec.template.metadata",
            "{labels: {app: a}, annotations: {kubectl.kubernetes.io/restartedAt:"
                + " \"2026-11-21T10:00:00Z\"}}"),
        c(
            "kubectl set image",
            """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: d}
            spec:
              template:
                spec:
                  containers: [{name: a, image: x}, {name: b, image: y}]
            """,
            "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"b\","
                + "\"image\":\"y:2\"}]}}}}",
            "spec.template.spec.containers[*].image",
            "[x, \"y:2\"]"),
        c(
            "kubectl cordon",
            "{apiVersion: v1, kind: Node, metadata: {name: n}, spec: {taints: [{key: a, effect:"
                + " NoSchedule}]}}",
            "{\"spec\":{\"unschedulable\":true}}",
            "spec",
            "{unschedulable: true, taints: [{key: a, effect: NoSchedule}]}"),
        c(
            "job template containers merge by name",
            """
            apiVersion: batch/v1
            kind: Job
            metadata: {name: j}
            spec:
              template:
                spec:
                  containers: [{name: a, image: x}]
            """,
            "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"a\",\"args\":[\"1\"]}]}}}}",
            "spec.template.spec.containers",
            "[{name: a, image: x, args: [\"1\"]}]"),
        c(
            "claim status reservedFor merges by uid",
            claim(),
            "{\"status\":{\"reservedFor\":[{\"resource\":\"pods\",\"name\":\"p2\",\"uid\":\"u2\"}]}}",
            "status.reservedFor[*].uid",
            "[u2, u1]"),
        c(
            "claim status reservedFor entry deleted by uid",
            claim(),
            "{\"status\":{\"reservedFor\":[{\"uid\":\"u1\",\"$patch\":\"delete\"}]}}",
            "status.reservedFor",
            "[]"),
        c(
            "claim status devices merge by driver/pool/device key (listType=map, no strategy:"
                + " replaced)",
            claim(),
            "{\"status\":{\"devices\":[{\"driver\":\"d\",\"pool\":\"p\",\"device\":\"g1\"}]}}",
            "status.devices",
            "[{driver: d, pool: p, device: g1}]"),
        c(
            "claim spec requests (atomic) replaced",
            claim(),
            "{\"spec\":{\"devices\":{\"requests\":[{\"name\":\"r2\",\"exactly\":"
                + "{\"deviceClassName\":\"c\"}}]}}}",
            "spec.devices.requests[*].name",
            "[r2]"),
        c(
            "device taint rule status conditions merge by type",
            """
            apiVersion: resource.k8s.io/v1alpha3
            kind: DeviceTaintRule
            metadata: {name: r}
            status:
              conditions: [{type: A, status: "True"}, {type: B, status: "True"}]
            """,
            "{\"status\":{\"conditions\":[{\"type\":\"B\",\"status\":\"False\"}]}}",
            "status.conditions[*].status",
            "[\"True\", \"False\"]"),
        c(
            "pod resourceClaims merge by name",
            """
            apiVersion: v1
            kind: Pod
            metadata: {name: p}
            spec:
              resourceClaims: [{name: a, resourceClaimName: x}]
            """,
            "{\"spec\":{\"resourceClaims\":[{\"name\":\"b\",\"resourceClaimTemplateName\":\"t\"}]}}",
            "spec.resourceClaims[*].name",
            "[b, a]"),
        c(
            "v1beta2 device taint rule spec merges",
            """
            apiVersion: resource.k8s.io/v1beta2
            kind: DeviceTaintRule
            metadata: {name: r}
            spec:
              taint: {key: k, effect: NoExecute}
            """,
            "{\"spec\":{\"taint\":{\"value\":\"v\"}}}",
            "spec.taint",
            "{key: k, effect: NoExecute, value: v}"));
  }

  private static String claim() {
    return """
    apiVersion: resource.k8s.io/v1
    kind: ResourceClaim
    metadata: {name: c, namespace: default}
    spec:
      devices:
        requests: [{name: r1, exactly: {deviceClassName: c}}]
    status:
      conditions: [{type: A, status: "True"}]
      reservedFor: [{resource: pods, name: p1, uid: u1}]
      devices: [{driver: d, pool: p, device: g0}]
    """;
  }

  private static Arguments c(
      String name, String original, String patch, String select, String expected) {
    return Arguments.of(Named.of(name, original), patch, select, expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void patches(String original, String patch, String select, String expected) throws Exception {
    ObjectNode orig = Yaml.obj(original);
    ObjectNode before = orig.deepCopy();
    ObjectNode out =
        Patcher.patch(
            PatchType.STRATEGIC_MERGE_PATCH,
            orig.get("apiVersion").stringValue(),
            orig.get("kind").stringValue(),
            orig,
            Yaml.bytes(patch));
    assertThat(orig).as("input unchanged").isEqualTo(before);
    assertThat(Select.at(out, select)).isEqualTo(Select.yaml(expected));
  }

  static Stream<Arguments> errors() {
    return Stream.of(
        Arguments.of(
            Named.of("missing merge key", "{\"spec\":{\"containers\":[{\"image\":\"x\"}]}}"),
            400,
            "BadRequest",
            "map: map[image:x] does not contain declared merge key: name"),
        Arguments.of(
            Named.of("unknown $patch in a map", "{\"metadata\":{\"labels\":{\"$patch\":\"foo\"}}}"),
            400,
            "BadRequest",
            "unknown patch type: foo in map: map[$patch:foo]"),
        Arguments.of(
            Named.of(
                "$patch: merge in a list",
                "{\"spec\":{\"containers\":[{\"name\":\"c1\",\"$patch\":\"merge\"}]}}"),
            400,
            "BadRequest",
            "merging lists cannot yet be specified in the patch"),
        Arguments.of(
            Named.of(
                "$retainKeys not a list",
                "{\"spec\":{\"volumes\":[{\"name\":\"v1\",\"$retainKeys\":\"name\"}]}}"),
            400,
            "BadRequest",
            "invalid patch format of retainKeys"),
        Arguments.of(
            Named.of(
                "patch key outside $retainKeys",
                "{\"spec\":{\"volumes\":[{\"name\":\"v1\",\"hostPath\":{\"path\":\"/\"},"
                    + "\"$retainKeys\":[\"name\"]}]}}"),
            400,
            "BadRequest",
            "invalid patch format of retainKeys"),
        Arguments.of(
            Named.of("$setElementOrder without a field", "{\"spec\":{\"$setElementOrder\":[]}}"),
            400,
            "BadRequest",
            "invalid patch format of setElementOrder list"),
        Arguments.of(
            Named.of(
                "$deleteFromPrimitiveList without a field",
                "{\"metadata\":{\"$deleteFromPrimitiveList\":[\"a\"]}}"),
            400,
            "BadRequest",
            "invalid patch format of primitive list"),
        Arguments.of(
            Named.of("mixed element types", "{\"metadata\":{\"finalizers\":[[\"x\"]]}}"),
            400,
            "BadRequest",
            "list element types are not identical: [[a b] [[x]]]"),
        Arguments.of(
            Named.of(
                "$setElementOrder not matching the patch",
                "{\"metadata\":{\"$setElementOrder/finalizers\":[\"a\"],\"finalizers\":[\"c\"]}}"),
            400,
            "BadRequest",
            "The order in patch list:\n[c]\n doesn't match $setElementOrder list:\n[a]\n"),
        Arguments.of(Named.of("not JSON", "{"), 400, "BadRequest", "invalid JSON patch"),
        Arguments.of(
            Named.of("a JSON array", "[]"),
            400,
            "BadRequest",
            "json: cannot unmarshal array into Go value of type map[string]interface {}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errors")
  void rejects(String patch, int code, String reason, String message) {
    assertThatThrownBy(() ->
            Patcher.patch(
                PatchType.STRATEGIC_MERGE_PATCH, "v1", "Pod", Yaml.obj(POD), Yaml.bytes(patch)))
        .isInstanceOfSatisfying(
            PatchException.class,
            e -> {
              assertThat(e.code()).isEqualTo(code);
              assertThat(e.reason()).isEqualTo(reason);
              assertThat(e.getMessage()).isEqualTo(message);
            });
  }

  @Test
  void unknownKindIsUnsupported() {
    assertThatThrownBy(() ->
            Patcher.patch(
                PatchType.STRATEGIC_MERGE_PATCH,
                "example.com/v1",
                "Widget",
                Yaml.obj("{}"),
                Yaml.bytes("{}")))
        .isInstanceOfSatisfying(PatchException.class, e -> assertThat(e.code()).isEqualTo(415));
  }

  @Test
  void listOfListsIsUnprocessable() {
    ObjectNode pod = Yaml.obj("{apiVersion: v1, kind: Pod, metadata: {finalizers: []}}");
    assertThatThrownBy(() ->
            Patcher.patch(
                PatchType.STRATEGIC_MERGE_PATCH,
                "v1",
                "Pod",
                pod,
                Yaml.bytes("{\"metadata\":{\"finalizers\":[[\"x\"]]}}")))
        .isInstanceOfSatisfying(
            PatchException.class,
            e -> {
              assertThat(e.code()).isEqualTo(422);
              assertThat(e.reason()).isEqualTo("Invalid");
              assertThat(e.getCause()).hasMessage("lists of lists are not supported");
            });
  }

  @Test
  void nullPatchIsANoOp() throws Exception {
    ObjectNode pod = Yaml.obj(POD);
    assertThat(Patcher.patch(PatchType.STRATEGIC_MERGE_PATCH, "v1", "Pod", pod, Yaml.bytes("null")))
        .isEqualTo(pod);
  }
}
