package io.jdra.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.storage.StoredObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

/** The version spliced into prepared bytes gives exactly what serializing at that version gives. */
class PreparedObjectTest {
  static Stream<String> objects() {
    return Stream.of(
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}",
        "{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"resourceVersion\":\"17\"},"
            + "\"data\":{\"resourceVersion\":\"x\",\"k\":\"\\\"resourceVersion\\\":\\\"y\\\"\"}}",
        "{\"metadata\":{\"labels\":{\"resourceVersion\":\"v\"},\"name\":\"\u00e9t\u00e9\"},"
            + "\"spec\":{\"resourceVersion\":\"1\"}}",
        "{\"spec\":{\"x\":[1,2,3]}}");
  }

  @ParameterizedTest
  @MethodSource("objects")
  void splicedVersionEqualsSerializingAtThatVersion(String json) {
    for (long rv : List.of(1L, 9L, 10L, 123456789012L)) {
      ObjectNode expected = Json.parseObject(json.getBytes(StandardCharsets.UTF_8));
      Json.child(expected, "metadata").put("resourceVersion", Long.toString(rv));

      PreparedObject p =
          PreparedObject.of(
              Json.parseObject(json.getBytes(StandardCharsets.UTF_8)),
              "ns",
              "a",
              "uid",
              Map.of(),
              Map.of(),
              null);
      StoredObject o = p.apply(rv);

      assertThat(new String(o.json(), StandardCharsets.UTF_8))
          .isEqualTo(new String(Json.bytes(expected), StandardCharsets.UTF_8));
      assertThat(o.resourceVersion()).isEqualTo(rv);
    }
  }

  @Test
  void indexOfFindsTheFirstWholeOccurrence() {
    byte[] needle = "\"ab\"".getBytes(StandardCharsets.UTF_8);
    assertThat(PreparedObject.indexOf(bytes("\"ab\""), needle)).isZero();
    assertThat(PreparedObject.indexOf(bytes("x\"a\"\"ab\"y\"ab\""), needle)).isEqualTo(4);
    assertThat(PreparedObject.indexOf(bytes("xx\"ab\""), needle)).isEqualTo(2);
    assertThat(PreparedObject.indexOf(bytes("\"ab"), needle)).isEqualTo(-1);
    assertThat(PreparedObject.indexOf(bytes("\"aX\""), needle)).isEqualTo(-1);
    assertThat(PreparedObject.indexOf(bytes(""), needle)).isEqualTo(-1);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
