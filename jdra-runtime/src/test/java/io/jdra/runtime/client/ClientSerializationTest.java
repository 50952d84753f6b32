package io.jdra.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jdra.runtime.bench.DecodeBench;
import io.jdra.runtime.bench.WatchDecodeBench;
import io.jdra.testing.objects.Make;
import io.jdra.testing.objects.UpstreamExamples;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link Clients#serialization()} ({@link ClientSerialization}) against fabric8's with the same
 * mapper: a corpus of objects as API servers send them, as watch events of every type in the orders
 * and shapes a stream may have and as response bodies, must decode to equal objects (or fail as
 * fabric8 fails).
 */
class ClientSerializationTest {
  private static final KubernetesSerialization FABRIC8 =
      new KubernetesSerialization(Clients.mapper(), true);
  private static final KubernetesSerialization ONE_PASS = Clients.serialization();
  private static final List<String> TYPES =
      List.of("ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR");

  @Test
  void everyObjectOfTheCorpusDecodesAsFabric8DecodesIt() throws IOException {
    List<String> objects = new ArrayList<>();
    for (String o : corpus()) {
      objects.add(o);
      objects.add(typeLast(o));
      objects.add(withUnknownFields(o));
    }
    assertThat(objects).hasSizeGreaterThan(150);
    for (String type : TYPES) {
      for (String object : List.of("null", "[" + DecodeBench.POD + "]", "\"x\"")) {
        events(type, object).forEach(ClientSerializationTest::assertSameDecoding);
      }
      assertSameDecoding("{\"type\":\"" + type + "\"}");
    }
    for (String o : objects) {
      for (String type : TYPES) {
        for (String event : events(type, o)) {
          assertSameDecoding(event);
        }
      }
    }
  }

  @Test
  void responseBodiesDecodeAsFabric8DecodesThem() throws IOException {
    List<String> bodies = new ArrayList<>(corpus());
    bodies.addAll(List.of("", "  ", " \n\t" + DecodeBench.POD, "[" + DecodeBench.POD + "]"));
    bodies.add("apiVersion: v1\nkind: Pod\nmetadata:\n  name: y\n");
    bodies.add("---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\nkind: Pod\n");
    bodies.add("\u2003{\"kind\":\"Pod\"}"); // white space only as a character: YAML as in fabric8
    bodies.add(
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"caf\u00e9 \ud83d\ude00\"}}");
    for (String body : bodies) {
      for (TypeReference<?> type :
          List.of(
              new TypeReference<KubernetesResource>() {},
              new TypeReference<Pod>() {},
              new TypeReference<GenericKubernetesResource>() {},
              new TypeReference<Map<String, Object>>() {})) {
        assertSameResponse(body, type);
        assertSameText(body, type);
      }
    }
  }

  /** Text (as watch events reach the serialization) decodes as fabric8 decodes it. */
  private static void assertSameText(String body, TypeReference<?> type) {
    String what = "text " + type.getType() + " " + body;
    Throwable fails = catchThrowable(() -> FABRIC8.unmarshal(body, type));
    Throwable alsoFails = catchThrowable(() -> ONE_PASS.unmarshal(body, type));
    if (fails != null) {
      assertThat(alsoFails).as(what).hasSameClassAs(fails);
      return;
    }
    assertThat(alsoFails).as(what).isNull();
    assertThat(String.valueOf(ONE_PASS.unmarshal(body, type)))
        .as(what)
        .isEqualTo(String.valueOf(FABRIC8.unmarshal(body, type)));
  }

  private static void assertSameResponse(String body, TypeReference<?> type) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    Throwable fails =
        catchThrowable(() -> FABRIC8.unmarshal(new ByteArrayInputStream(bytes), type));
    Throwable alsoFails =
        catchThrowable(() -> ONE_PASS.unmarshal(new ByteArrayInputStream(bytes), type));
    String what = type.getType() + " " + body;
    if (fails != null) {
      assertThat(alsoFails).as(what).hasSameClassAs(fails);
      return;
    }
    assertThat(alsoFails).as(what).isNull();
    Object expected = FABRIC8.unmarshal(new ByteArrayInputStream(bytes), type);
    Object actual = ONE_PASS.unmarshal(new ByteArrayInputStream(bytes), type);
    assertThat(String.valueOf(actual)).as(what).isEqualTo(String.valueOf(expected));
    if (expected != null
        && expected.equals(FABRIC8.unmarshal(new ByteArrayInputStream(bytes), type))) {
      assertThat(actual).as(what).isEqualTo(expected);
    }
  }

  @Test
  void typedObjectsStatusesAndUnknownKindsGetFabric8sClasses() {
    assertThat(decode("ADDED", DecodeBench.POD)).isInstanceOf(Pod.class);
    assertThat(decode("MODIFIED", DecodeBench.claim("u1"))).isInstanceOf(ResourceClaim.class);
    assertThat(decode("ERROR", STATUS)).isInstanceOf(Status.class);
    assertThat(decode("ADDED", WIDGET)).isInstanceOf(GenericKubernetesResource.class);
    Pod bookmark = (Pod) decode("BOOKMARK", BOOKMARK);
    assertThat(bookmark.getMetadata().getResourceVersion()).isEqualTo("12");
  }

  @Test
  void kindsRegisteredAfterTheirFirstEventDecodeIntoTheirNewClasses() {
    KubernetesSerialization s = Clients.serialization();
    String pod = "{\"type\":\"ADDED\",\"object\":" + DecodeBench.POD + "}";
    String widget = "{\"type\":\"ADDED\",\"object\":" + WIDGET + "}";
    assertThat(s.unmarshal(pod, WatchEvent.class).getObject()).isExactlyInstanceOf(Pod.class);
    assertThat(s.unmarshal(widget, WatchEvent.class).getObject())
        .isExactlyInstanceOf(GenericKubernetesResource.class);
    s.registerKubernetesResource("v1", "Pod", OtherPod.class);
    s.registerKubernetesResource("example.com/v1", "Widget", Widget.class);
    assertThat(s.unmarshal(pod, WatchEvent.class).getObject()).isExactlyInstanceOf(OtherPod.class);
    assertThat(s.unmarshal(widget, WatchEvent.class).getObject()).isExactlyInstanceOf(Widget.class);
    s.registerKubernetesResource(Pod.class);
    assertThat(s.unmarshal(pod, WatchEvent.class).getObject()).isExactlyInstanceOf(Pod.class);
  }

  /** A class registered for Pods instead of fabric8's. */
  public static final class OtherPod extends Pod {}

  /** A class registered for the Widget kind. */
  public static final class Widget extends Pod {}

  @Test
  void unknownFieldsAreKeptAsFabric8KeepsThem() {
    Pod pod = (Pod) decode("ADDED", withUnknownFields(DecodeBench.POD));
    assertThat(pod.getAdditionalProperties())
        .containsEntry("zUnknown", List.of(1, 2.5, Map.of("b", true), 12345678901234567890.0));
    assertThat(pod.getMetadata().getAdditionalProperties()).containsEntry("zUnknown", "x");
  }

  @Test
  void malformedEventsFailAsTheyDoInFabric8() {
    for (String event :
        List.of(
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"spec\":7}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\"}")) {
      Throwable expected = catchThrowable(() -> FABRIC8.unmarshal(event, WatchEvent.class));
      Throwable actual = catchThrowable(() -> ONE_PASS.unmarshal(event, WatchEvent.class));
      assertThat(actual == null ? null : actual.getClass())
          .as(event)
          .isEqualTo(expected == null ? null : expected.getClass());
    }
  }

  private static Object decode(String type, String object) {
    String event = "{\"type\":\"" + type + "\",\"object\":" + object + "}";
    return ONE_PASS.unmarshal(event, WatchEvent.class).getObject();
  }

  private static void assertSameDecoding(String event) {
    Throwable fails = catchThrowable(() -> FABRIC8.unmarshal(event, WatchEvent.class));
    if (fails != null) {
      assertThat(catchThrowable(() -> ONE_PASS.unmarshal(event, WatchEvent.class)))
          .as(event)
          .hasSameClassAs(fails)
          .hasRootCauseInstanceOf(fails.getCause().getClass());
      return;
    }
    WatchEvent expected = FABRIC8.unmarshal(event, WatchEvent.class);
    WatchEvent actual = ONE_PASS.unmarshal(event, WatchEvent.class);
    // fabric8's KubernetesList has no equals: two decodings by fabric8 itself differ.
    if (expected.equals(FABRIC8.unmarshal(event, WatchEvent.class))) {
      assertThat(actual).as(event).isEqualTo(expected);
    } else {
      assertThat(actual).as(event).hasToString(expected.toString());
    }
    if (expected.getObject() != null) {
      assertThat(actual.getObject()).as(event).hasSameClassAs(expected.getObject());
    }
    assertThat(ONE_PASS.asJson(actual)).as(event).isEqualTo(FABRIC8.asJson(expected));
  }

  /** An event of each shape a stream may send for the object. */
  static List<String> events(String type, String object) {
    String t = "\"type\":\"" + type + "\"";
    return List.of(
        "{" + t + ",\"object\":" + object + "}",
        "{\"object\":" + object + "," + t + "}",
        "{" + t + ",\"object\":" + object + ",\"zExtra\":{\"a\":[1,2.0]}}",
        "{\"zExtra\":\"x\"," + t + ",\"object\":" + object + "}");
  }

  /** The object with apiVersion and kind after every other field. */
  static String typeLast(String json) {
    ObjectNode o = (ObjectNode) FABRIC8.unmarshal(json, tools.jackson.databind.JsonNode.class);
    ObjectNode moved = o.objectNode();
    o.properties().stream()
        .filter(e -> !e.getKey().equals("apiVersion") && !e.getKey().equals("kind"))
        .forEach(e -> moved.set(e.getKey(), e.getValue()));
    if (o.has("apiVersion")) {
      moved.set("apiVersion", o.get("apiVersion"));
    }
    if (o.has("kind")) {
      moved.set("kind", o.get("kind"));
    }
    return moved.toString();
  }

  /** The object with fields its class does not have, at the top and in its metadata. */
  private static String withUnknownFields(String json) {
    ObjectNode o = (ObjectNode) FABRIC8.unmarshal(json, tools.jackson.databind.JsonNode.class);
    o.putArray("zUnknown")
        .add(1)
        .add(2.5)
        .add(o.objectNode().put("b", true))
        .add(new java.math.BigDecimal("12345678901234567890.0"));
    if (o.get("metadata") instanceof ObjectNode m) {
      m.put("zUnknown", "x");
    }
    return o.toString();
  }

  /**
   * Objects as API servers send them (also read by {@link TrimManagedFieldsTest}), among them the
   * pods and claims of the scheduler benchmark's steady state as jdra's API server sent them.
   */
  static List<String> corpus() throws IOException {
    List<String> c = new ArrayList<>(literals());
    Stream.of(
            Make.pod("p1")
                .uid("u1")
                .claimFromTemplate("gpu", "t")
                .resourceClaimStatus("gpu", "p1-gpu-abcde")
                .container("c", "gpu")
                .containerWithLimits("d", "cpu", "500m", "memory", "1Gi")
                .ownerReference("ReplicaSet", "rs", "u0")
                .obj(),
            Make.claim("c1")
                .ownerPod("p1", "u1")
                .request("gpu.example.com")
                .allocatedOn("n1", "gpu.example.com", "gpu-0")
                .reservedForPod("p1", "u1")
                .obj(),
            Make.slice("s1", "n1", "gpu.example.com")
                .pool("n1", 3, 1)
                .devices(
                    Make.device("gpu-0")
                        .attr("model", "LATEST-GPU-MODEL")
                        .attr("index", 0L)
                        .attr("healthy", true)
                        .version("driverVersion", "1.2.3")
                        .capacity("memory", "80Gi")
                        .taint("k", "v", "NoSchedule")
                        .obj())
                .obj(),
            Make.node("n1").labels("a", "b").allocatable("cpu", "4", "memory", "16Gi").obj(),
            Make.deviceClass("gpu.example.com").selectors("device.driver == 'x'").obj(),
            Make.claimTemplate("t").request("gpu.example.com").obj(),
            Make.deviceTaintRule("r").driver("d").taint("k", "v", "NoExecute").obj())
        .map(FABRIC8::asJson)
        .forEach(c::add);
    c.addAll(upstreamExamples());
    for (String event : WatchDecodeBench.steadyStatePodEvents()) {
      c.add(FABRIC8.unmarshal(event, ObjectNode.class).get("object").toString());
    }
    return c;
  }

  /** Every document of the upstream example manifests (Go templates skipped), as JSON. */
  private static List<String> upstreamExamples() throws IOException {
    Path dir = UpstreamExamples.dir().orElseThrow();
    List<String> docs = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
        String text = Files.readString(f);
        if (text.contains("{{")) {
          continue;
        }
        for (Object doc : new Load(LoadSettings.builder().build()).loadAllFromString(text)) {
          if (doc instanceof Map<?, ?> m && m.containsKey("kind")) {
            docs.add(FABRIC8.asJson(m));
          }
        }
      }
    }
    assertThat(docs).hasSizeGreaterThan(40);
    return docs;
  }

  private static final String STATUS =
      """
      {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",\
      "message":"too old resource version: 1 (5)","reason":"Expired","code":410}\
      """;
  private static final String WIDGET =
      """
      {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"d",\
      "generation":4},"spec":{"size":3,"ratio":0.25,"big":12345678901234567890,"huge":1e400,\
      "tags":["a",null],"nested":{"x":null,"y":-0.0}},"status":{"ready":true}}\
      """;
  private static final String BOOKMARK =
      """
      {"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"12","creationTimestamp":null,\
      "annotations":{"k8s.io/initial-events-end":"true"}},"spec":{"containers":null},"status":{}}\
      """;

  private static List<String> literals() {
    return List.of(
        DecodeBench.POD,
        DecodeBench.claim("9d1f4a27-0c1e-4b8e-a1f5-1d2c3b4a5e6f"),
        STATUS,
        WIDGET,
        BOOKMARK,
        """
        {"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"p1.1","namespace":"d",\
        "resourceVersion":"40"},"eventTime":"2026-11-26T14:22:41.123456Z","reportingController":\
        "resourceclaim-controller","reportingInstance":"cm-1","action":"Create","reason":\
        "FailedResourceClaimCreation","regarding":{"kind":"Pod","namespace":"d","name":"p1",\
        "uid":"u1","apiVersion":"v1"},"note":"boom","type":"Warning","series":{"count":3,\
        "lastObservedTime":"2026-11-26T14:22:45.000001Z"}}\
        """,
        """
        {"apiVersion":"v1","kind":"Event","metadata":{"name":"p1.2","namespace":"d"},"count":2,\
        "firstTimestamp":"2026-11-26T14:22:41Z","lastTimestamp":"2026-11-26T14:22:42Z",\
        "involvedObject":{"kind":"Pod","name":"p1"},"reason":"Scheduled","source":{}}\
        """,
        """
        {"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l",\
        "namespace":"kube-system"},"spec":{"holderIdentity":"a","leaseDurationSeconds":15,\
        "acquireTime":"2026-11-26T14:22:41.000000Z","renewTime":"2026-11-26T14:22:43.500000Z",\
        "leaseTransitions":2}}\
        """,
        """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"q"},"spec":{"containers":[{"name":"c",\
        "resources":{"limits":{"cpu":1.50,"memory":1024,"example.com/gpu":"1"}}}],\
        "overhead":{"cpu":0.25}}}\
        """,
        """
        {"metadata":{"name":"nokind"},"data":{"a":1}}\
        """,
        """
        {"kind":"Pod","metadata":{"name":"noversion"}}\
        """,
        """
        {"apiVersion":"v1","kind":5,"metadata":{"name":"numberkind"}}\
        """,
        """
        {"apiVersion":"v9","kind":"Pod","metadata":{"name":"unknownversion"}}\
        """,
        """
        {"apiVersion":"v1","kind":"PodList","metadata":{"resourceVersion":"3"},"items":[\
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"}}]}\
        """,
        """
        {"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Pod",\
        "metadata":{"name":"a"}},{"apiVersion":"example.com/v1","kind":"Widget",\
        "metadata":{"name":"w"}}]}\
        """,
        """
        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":{"k":"v"},\
        "binaryData":{"b":"AAE="}}\
        """,
        """
        {"apiVersion":"v1","kind":"Pod","apiVersion":"v1","kind":"Pod","metadata":{"name":"dup"}}\
        """);
  }
}
