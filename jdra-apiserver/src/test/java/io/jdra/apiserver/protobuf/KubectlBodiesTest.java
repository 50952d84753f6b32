package io.jdra.apiserver.protobuf;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bodies kubectl 1.33 really sent for its generator commands decode to exactly the JSON that
 * kubectl prints for the same commands with {@code --dry-run=client -o json}: same fields, same
 * order.
 */
class KubectlBodiesTest {
  record Captured(String kind, String command, byte[] body, String json) {
    @Override
    public String toString() {
      return "kubectl " + command;
    }
  }

  static Stream<Captured> captured() throws IOException {
    try (InputStream in = KubectlBodiesTest.class.getResourceAsStream("kubectl-1.33-bodies.txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
              .lines()
              .filter(l -> !l.startsWith("#") && !l.isBlank())
              .map(l -> l.split("\t"))
              .map(p -> new Captured(p[0], p[1], HexFormat.of().parseHex(p[2]), p[3]))
              .toList()
              .stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("captured")
  void decodesAsKubectlWritesJson(Captured c) {
    String apiVersion = Json.MAPPER.readTree(c.json()).get("apiVersion").asString();
    var got = KubernetesProtobuf.decode(c.body(), apiVersion, c.kind());
    assertThat(Json.MAPPER.writeValueAsString(got)).isEqualTo(c.json());
  }
}
