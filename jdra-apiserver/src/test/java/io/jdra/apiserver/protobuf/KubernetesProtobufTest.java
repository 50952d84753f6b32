package io.jdra.apiserver.protobuf;

import static io.jdra.apiserver.protobuf.Pb.envelope;
import static io.jdra.apiserver.protobuf.Pb.msg;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jdra.apiserver.meta.Json;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * Protobuf bodies, written field by field as Go's generated marshallers write them (every
 * non-pointer field, empty or not), decode to the JSON kubectl would have sent.
 */
class KubernetesProtobufTest {
  /** A body, the kind the request path expects, and the JSON it must read as. */
  record Decodes(String name, byte[] body, String apiVersion, String kind, String json) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** Go writes empty strings and an empty creationTimestamp for unset metadata. */
  static Pb meta(String name) {
    return msg().str(1, name).str(2, "").str(3, "").str(4, "").str(5, "").str(6, "").msg(8, msg());
  }

  static Pb deployment() {
    Pb container =
        msg()
            .str(1, "c")
            .str(2, "busybox")
            .msg(6, msg().varint(3, 80).str(4, "TCP"))
            .msg(8, msg().entry(1, "cpu", msg().str(1, "500m")));
    Pb template = msg().msg(1, meta("").entry(11, "app", "d")).msg(2, msg().msg(2, container));
    Pb rollingUpdate =
        msg().msg(1, msg().varint(1, 0).varint(2, 1)).msg(2, msg().varint(1, 1).str(3, "25%"));
    Pb spec =
        msg()
            .varint(1, 0)
            .msg(2, msg().entry(1, "app", "d"))
            .msg(3, template)
            .msg(4, msg().str(1, "RollingUpdate").msg(2, rollingUpdate))
            .varint(5, 0)
            .bool(7, false);
    return msg().msg(1, meta("d")).msg(2, spec).msg(3, msg());
  }

  /** A claim whose one config has opaque parameters holding {@code json}. */
  static Pb claim(String json) {
    Pb opaque = msg().str(1, "gpu.example.com").msg(2, msg().str(1, json));
    Pb config = msg().str(1, "gpu").msg(2, msg().msg(1, opaque));
    return msg().msg(1, meta("rc")).msg(2, msg().msg(1, msg().msg(3, config)));
  }

  static Stream<Decodes> decodes() {
    return Stream.of(
        new Decodes(
            "configmap: string and bytes maps, zero metadata fields left out",
            envelope(
                "v1",
                "ConfigMap",
                msg()
                    .msg(1, meta("cm"))
                    .entry(2, "c", "d")
                    .entry(2, "a", "b")
                    .msg(3, msg().str(1, "bin").bytes(2, new byte[] {0, 1, 2}))),
            "v1",
            "ConfigMap",
            """
            {"kind":"ConfigMap","apiVersion":"v1",
             "metadata":{"name":"cm","creationTimestamp":null},
             "data":{"a":"b","c":"d"},"binaryData":{"bin":"AAEC"}}\
            """),
        new Decodes(
            "secret: bytes values base64, bool pointer kept",
            envelope(
                "v1",
                "Secret",
                msg()
                    .msg(1, meta("s"))
                    .msg(2, msg().str(1, "user").bytes(2, "admin".getBytes(StandardCharsets.UTF_8)))
                    .str(3, "Opaque")
                    .bool(5, false)),
            "v1",
            "Secret",
            """
            {"kind":"Secret","apiVersion":"v1","metadata":{"name":"s","creationTimestamp":null},
             "immutable":false,"data":{"user":"YWRtaW4="},"type":"Opaque"}\
            """),
        new Decodes(
            "deployment: zero pointer kept, quantities, int-or-string, nested template",
            envelope("apps/v1", "Deployment", deployment()),
            "apps/v1",
            "Deployment",
            """
            {"kind":"Deployment","apiVersion":"apps/v1",
             "metadata":{"name":"d","creationTimestamp":null},
             "spec":{"replicas":0,"selector":{"matchLabels":{"app":"d"}},
              "template":{"metadata":{"labels":{"app":"d"},"creationTimestamp":null},
               "spec":{"containers":[{"name":"c","image":"busybox",
                "ports":[{"containerPort":80,"protocol":"TCP"}],
                "resources":{"limits":{"cpu":"500m"}}}]}},
              "strategy":{"type":"RollingUpdate",
               "rollingUpdate":{"maxUnavailable":1,"maxSurge":"25%"}}},
             "status":{}}\
            """),
        new Decodes(
            "pod: inline volume source, packed and unpacked ints, unknown fields skipped",
            envelope(
                "v1",
                "Pod",
                msg()
                    .msg(1, meta("p"))
                    .msg(
                        2,
                        msg()
                            .msg(1, msg().str(1, "v").msg(2, msg().msg(2, msg())))
                            .msg(2, msg().str(1, "c"))
                            .msg(14, msg().varint(2, 0).packed(4, 1, 2).varint(4, 3))
                            .varint(999, 7)
                            .str(998, "ignored"))),
            "v1",
            "Pod",
            """
            {"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","creationTimestamp":null},
             "spec":{"volumes":[{"name":"v","emptyDir":{}}],
              "containers":[{"name":"c","resources":{}}],
              "securityContext":{"runAsUser":0,"supplementalGroups":[1,2,3]}},
             "status":{}}\
            """),
        new Decodes(
            "events.k8s.io event: Time and MicroTime as RFC 3339, zero times null",
            envelope(
                "events.k8s.io/v1",
                "Event",
                msg()
                    .msg(1, msg().str(1, "e").msg(8, msg().varint(1, 1700000000)))
                    .msg(2, msg().varint(1, 1700000000).varint(2, 123456789))
                    .str(7, "Started")),
            "events.k8s.io/v1",
            "Event",
            """
            {"kind":"Event","apiVersion":"events.k8s.io/v1",
             "metadata":{"name":"e","creationTimestamp":"2023-11-14T22:13:20Z"},
             "eventTime":"2023-11-14T22:13:20.123456Z","reason":"Started",
             "regarding":{},"deprecatedSource":{},
             "deprecatedFirstTimestamp":null,"deprecatedLastTimestamp":null}\
            """),
        new Decodes(
            "resource claim: opaque parameters (RawExtension) embedded as JSON",
            envelope("resource.k8s.io/v1", "ResourceClaim", claim("{\"a\":[1,\"x\"]}")),
            "resource.k8s.io/v1",
            "ResourceClaim",
            """
            {"kind":"ResourceClaim","apiVersion":"resource.k8s.io/v1",
             "metadata":{"name":"rc","creationTimestamp":null},
             "spec":{"devices":{"config":[{"requests":["gpu"],
              "opaque":{"driver":"gpu.example.com","parameters":{"a":[1,"x"]}}}]}},
             "status":{}}\
            """),
        new Decodes(
            "an envelope without type meta is what the path expects",
            envelope("", "", msg().msg(1, meta("ns"))),
            "v1",
            "Namespace",
            """
            {"kind":"Namespace","apiVersion":"v1",
             "metadata":{"name":"ns","creationTimestamp":null},"spec":{},"status":{}}\
            """),
        new Decodes(
            "delete options, whatever group they travel in",
            envelope("meta.k8s.io/v1", "DeleteOptions", msg().varint(1, 0).str(4, "Foreground")),
            "v1",
            "DeleteOptions",
            """
            {"kind":"DeleteOptions","apiVersion":"meta.k8s.io/v1",
             "gracePeriodSeconds":0,"propagationPolicy":"Foreground"}\
            """),
        new Decodes(
            "a kind the table does not hold gives its type meta only, for the kind check",
            envelope("v1", "Widget", msg().str(1, "x")),
            "v1",
            "ConfigMap",
            """
            {"kind":"Widget","apiVersion":"v1"}\
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("decodes")
  void decodesToTheJsonKubectlSends(Decodes c) {
    JsonNode got = KubernetesProtobuf.decode(c.body(), c.apiVersion(), c.kind());
    assertThat(got).isEqualTo(Json.MAPPER.readTree(c.json()));
  }

  @Test
  void keepsGoFieldOrder() {
    JsonNode got =
        KubernetesProtobuf.decode(
            envelope("v1", "Secret", msg().str(3, "Opaque").msg(1, meta("s"))), "v1", "Secret");
    assertThat(Json.MAPPER.writeValueAsString(got))
        .isEqualTo(
            "{\"kind\":\"Secret\",\"apiVersion\":\"v1\","
                + "\"metadata\":{\"name\":\"s\",\"creationTimestamp\":null},\"type\":\"Opaque\"}");
  }

  /** A malformed body, and Go's error for it; kind and version are null for envelope errors. */
  record Fails(String name, byte[] body, String message, String kind, String version) {
    @Override
    public String toString() {
      return name;
    }
  }

  static byte[] configMap(byte... raw) {
    return envelope("v1", "ConfigMap", msg().raw(raw));
  }

  static Stream<Fails> failures() {
    byte[] truncated = {'k', '8', 's', 0, 0x0a, 0x05, 'a'};
    return Stream.of(
        new Fails("empty", new byte[0], "empty data", null, null),
        new Fails(
            "no magic",
            "xx".getBytes(StandardCharsets.UTF_8),
            "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]",
            null,
            null),
        new Fails("magic only", new byte[] {'k', '8', 's', 0}, "empty body", null, null),
        new Fails("truncated envelope", truncated, "unexpected EOF", null, null),
        new Fails(
            "wrong wire type",
            configMap((byte) 0x08, (byte) 0x01),
            "proto: wrong wireType = 0 for field ObjectMeta",
            "ConfigMap",
            "v1"),
        new Fails(
            "wrong wire type deep down",
            configMap((byte) 0x0a, (byte) 0x02, (byte) 0x08, (byte) 0x01),
            "proto: wrong wireType = 0 for field Name",
            "ConfigMap",
            "v1"),
        new Fails(
            "field number zero",
            configMap((byte) 0x00),
            "proto: ConfigMap: illegal tag 0 (wire type 0)",
            "ConfigMap",
            "v1"),
        new Fails(
            "end group outside a group",
            configMap((byte) 0x0c),
            "proto: ConfigMap: wiretype end group for non-group",
            "ConfigMap",
            "v1"),
        new Fails(
            "illegal wire type in an unknown field",
            configMap((byte) 0xf6, (byte) 0x01),
            "proto: illegal wireType 6",
            "ConfigMap",
            "v1"),
        new Fails(
            "length past the end",
            configMap((byte) 0x0a, (byte) 0x09, (byte) 0x0a),
            "unexpected EOF",
            "ConfigMap",
            "v1"),
        new Fails(
            "negative length",
            configMap(
                (byte) 0x0a,
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0x01),
            "proto: negative length found during unmarshaling",
            "ConfigMap",
            "v1"),
        new Fails(
            "varint too long",
            configMap(
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0xff,
                (byte) 0xff),
            "proto: integer overflow",
            "ConfigMap",
            "v1"),
        new Fails(
            "RawExtension that is not JSON",
            envelope("resource.k8s.io/v1", "ResourceClaim", claim("{nope")),
            "json: error calling MarshalJSON for type *runtime.RawExtension",
            "ResourceClaim",
            "v1"),
        new Fails(
            "impossible int-or-string",
            envelope(
                "apps/v1",
                "Deployment",
                msg().msg(2, msg().msg(4, msg().msg(2, msg().msg(2, msg().varint(1, 7)))))),
            "impossible IntOrString.Type",
            "Deployment",
            "v1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("failures")
  void malformedBodiesFailWithGoErrors(Fails c) {
    ProtobufException e =
        catchThrowableOfType(
            ProtobufException.class, () -> KubernetesProtobuf.decode(c.body(), "v1", "ConfigMap"));
    assertThat(e).isNotNull();
    assertThat(e.getMessage()).startsWith(c.message());
    assertThat(e.kind()).isEqualTo(c.kind());
    assertThat(e.version()).isEqualTo(c.version());
    assertThat(e.unsupported()).isFalse();
  }

  @Test
  void aServedKindWithoutLayoutIsUnsupported() {
    ProtobufException e =
        catchThrowableOfType(
            ProtobufException.class,
            () ->
                KubernetesProtobuf.decode(
                    envelope("scheduling.k8s.io/v1alpha2", "PodGroup", msg()),
                    "scheduling.k8s.io/v1alpha2",
                    "PodGroup"));
    assertThat(e.unsupported()).isTrue();
  }

  @Test
  void everyServedKindHasALayout() {
    for (String key :
        new String[] {
          "v1 ConfigMap",
          "v1 Secret",
          "v1 Namespace",
          "v1 ServiceAccount",
          "v1 Pod",
          "v1 Node",
          "v1 Event",
          "v1 Binding",
          "apps/v1 Deployment",
          "apps/v1 ReplicaSet",
          "batch/v1 Job",
          "events.k8s.io/v1 Event",
          "coordination.k8s.io/v1 Lease",
          "policy/v1 Eviction",
          "resource.k8s.io/v1 ResourceClaim",
          "resource.k8s.io/v1beta1 ResourceSlice",
          "resource.k8s.io/v1beta2 DeviceTaintRule",
          "resource.k8s.io/v1alpha3 DeviceTaintRule"
        }) {
      String[] p = key.split(" ");
      assertThat(ProtoSchema.get().root(p[0], p[1])).as(key).isNotNull();
    }
  }
}
