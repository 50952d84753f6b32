package io.jdra.apiserver.protobuf;

import static io.jdra.apiserver.protobuf.Pb.envelope;
import static io.jdra.apiserver.protobuf.Pb.msg;
import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.EmbeddedApiServer;
import io.jdra.apiserver.meta.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * Protobuf request bodies over HTTP, as client-go's typed clients send them: objects are created,
 * updated and deleted as from JSON, answers stay JSON, bad bodies get kube-apiserver's 400s.
 */
class ProtobufBodyTest {
  static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
  static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
  static EmbeddedApiServer server;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    server = EmbeddedApiServer.startInMemory();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static HttpResponse<String> send(String method, String path, String contentType, byte[] body)
      throws Exception {
    HttpRequest r =
        HttpRequest.newBuilder(URI.create(server.url() + path))
            .header("Content-Type", contentType)
            .header("Accept", PROTOBUF + ", application/json")
            .method(method, HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    return HTTP.send(r, HttpResponse.BodyHandlers.ofString());
  }

  static Pb meta(String name, String resourceVersion) {
    return msg().str(1, name).str(6, resourceVersion).msg(8, msg());
  }

  @Test
  void createUpdateAndDeleteAnswerJson() throws Exception {
    byte[] create = envelope("v1", "ConfigMap", msg().msg(1, meta("pb", "")).entry(2, "a", "b"));
    HttpResponse<String> created = send("POST", CONFIGMAPS, PROTOBUF, create);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(created.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode obj = Json.MAPPER.readTree(created.body());
    assertThat(obj.at("/data/a").asString()).isEqualTo("b");
    String rv = obj.at("/metadata/resourceVersion").asString();

    byte[] update = envelope("v1", "ConfigMap", msg().msg(1, meta("pb", rv)).entry(2, "a", "c"));
    HttpResponse<String> updated = send("PUT", CONFIGMAPS + "/pb", PROTOBUF, update);
    assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
    assertThat(Json.MAPPER.readTree(updated.body()).at("/data/a").asString()).isEqualTo("c");

    byte[] options = envelope("v1", "DeleteOptions", msg().varint(1, 0));
    HttpResponse<String> deleted = send("DELETE", CONFIGMAPS + "/pb", PROTOBUF, options);
    assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
  }

  @Test
  void podBindingAndEvictionTakeProtobuf() throws Exception {
    String pods = "/api/v1/namespaces/default/pods";
    String pod =
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"pb-pod\"},"
            + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}";
    HttpResponse<String> created =
        send("POST", pods, "application/json", pod.getBytes(StandardCharsets.UTF_8));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

    byte[] binding =
        envelope(
            "v1",
            "Binding",
            msg().msg(1, meta("pb-pod", "")).msg(2, msg().str(1, "Node").str(3, "node-1")));
    HttpResponse<String> bound = send("POST", pods + "/pb-pod/binding", PROTOBUF, binding);
    assertThat(bound.statusCode()).as(bound.body()).isEqualTo(201);
    HttpResponse<String> got = send("GET", pods + "/pb-pod", "application/json", new byte[0]);
    assertThat(Json.MAPPER.readTree(got.body()).at("/spec/nodeName").asString())
        .isEqualTo("node-1");

    byte[] eviction =
        envelope(
            "policy/v1", "Eviction", msg().msg(1, meta("pb-pod", "")).msg(2, msg().varint(1, 0)));
    HttpResponse<String> evicted = send("POST", pods + "/pb-pod/eviction", PROTOBUF, eviction);
    assertThat(evicted.statusCode()).as(evicted.body()).isEqualTo(201);
    HttpResponse<String> gone = send("GET", pods + "/pb-pod", "application/json", new byte[0]);
    assertThat(gone.statusCode()).as(gone.body()).isEqualTo(404);
  }

  /** A protobuf body and the JSON body that must get the very same answer. */
  record Same(String name, byte[] protobuf, String json) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Same> sameAnswers() {
    return Stream.of(
        new Same(
            "another served kind",
            envelope("v1", "Secret", msg().msg(1, meta("s", ""))),
            "{\"kind\":\"Secret\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"s\"}}"),
        new Same(
            "a kind nobody serves",
            envelope("v1", "Widget", msg().str(1, "x")),
            "{\"kind\":\"Widget\",\"apiVersion\":\"v1\"}"),
        new Same(
            "another API version",
            envelope("v2", "ConfigMap", msg()),
            "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v2\"}"),
        new Same(
            "an invalid name",
            envelope("v1", "ConfigMap", msg().msg(1, meta("Bad_Name", ""))),
            "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"Bad_Name\"}}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sameAnswers")
  void kindChecksAndValidationAnswerAsForJson(Same c) throws Exception {
    HttpResponse<String> pb = send("POST", CONFIGMAPS, PROTOBUF, c.protobuf());
    HttpResponse<String> json =
        send("POST", CONFIGMAPS, "application/json", c.json().getBytes(StandardCharsets.UTF_8));
    assertThat(pb.statusCode()).as(pb.body()).isBetween(400, 499).isEqualTo(json.statusCode());
    assertThat(pb.body()).isEqualTo(json.body());
  }

  /** A malformed body and kube-apiserver's message for it. */
  record Bad(String name, byte[] body, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Bad> badBodies() {
    return Stream.of(
        new Bad(
            "no magic",
            "{\"kind\":\"ConfigMap\"}".getBytes(StandardCharsets.UTF_8),
            "the object provided is unrecognized (must be of type ConfigMap): provided data does"
                + " not appear to be a protobuf message, expected prefix [107 56 115 0]"
                + " ({\\\"kind\\\":\\\"ConfigMap\\\"})"),
        new Bad(
            "truncated envelope",
            new byte[] {'k', '8', 's', 0, 0x0a, 0x05, 'a'},
            "the object provided is unrecognized (must be of type ConfigMap): unexpected EOF"
                + " (6b3873000a0561)"),
        new Bad(
            "wrong wire type in the object",
            envelope("v1", "ConfigMap", msg().varint(1, 1)),
            "ConfigMap in version \\\"v1\\\" cannot be handled as a ConfigMap: proto: wrong"
                + " wireType = 0 for field ObjectMeta"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badBodies")
  void malformedBodiesAre400(Bad c) throws Exception {
    HttpResponse<String> r = send("POST", CONFIGMAPS, PROTOBUF, c.body());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(r.body())
        .isEqualTo(
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                + "\"message\":\""
                + c.message()
                + "\",\"reason\":\"BadRequest\",\"code\":400}");
  }
}
