package io.jdra.api.names;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class QualifiedNameTest {
  private static final String DRIVER = "gpu.example.com";

  static Stream<Arguments> names() {
    return Stream.of(
        // input, domain, id, resolved against DRIVER
        Arguments.of("model", "", "model", "gpu.example.com/model"),
        Arguments.of("gpu.example.com/model", "gpu.example.com", "model", "gpu.example.com/model"),
        Arguments.of("dra.k8s.io/pcieRoot", "dra.k8s.io", "pcieRoot", "dra.k8s.io/pcieRoot"),
        Arguments.of("a/b/c", "a", "b/c", "a/b/c"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("names")
  void parsesAndResolves(String in, String domain, String id, String resolved) {
    QualifiedName q = QualifiedName.parse(in);
    assertThat(q.domain()).isEqualTo(domain);
    assertThat(q.id()).isEqualTo(id);
    assertThat(q.isQualified()).isEqualTo(!domain.isEmpty());
    assertThat(q).hasToString(in);
    assertThat(q.resolve(DRIVER)).hasToString(resolved);
    assertThat(q.resolve(DRIVER).isQualified()).isTrue();
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("", "qualified name \"\": must not be empty"),
        Arguments.of("/model", "qualified name \"/model\": the domain before \"/\" is empty"),
        Arguments.of(
            "gpu.example.com/",
            "qualified name \"gpu.example.com/\": the name after the domain is empty"),
        Arguments.of("/", "qualified name \"/\": the domain before \"/\" is empty"));
  }

  @ParameterizedTest(name = "\"{0}\"")
  @MethodSource("invalid")
  void rejectsEmptyParts(String in, String message) {
    assertThatThrownBy(() -> QualifiedName.parse(in))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void constructorRejectsEmptyId() {
    assertThatThrownBy(() -> new QualifiedName("", ""))
        .hasMessage("qualified name \"\": must not be empty");
    assertThatThrownBy(() -> new QualifiedName("d", ""))
        .hasMessage("qualified name \"d/\": the name after the domain is empty");
    assertThatThrownBy(() -> new QualifiedName(null, "x")).isInstanceOf(NullPointerException.class);
  }

  @Test
  void resolveNeedsADriverOnlyWhenUnqualified() {
    assertThat(QualifiedName.parse("a.b/c").resolve("")).hasToString("a.b/c");
    assertThatThrownBy(() -> QualifiedName.parse("c").resolve(""))
        .hasMessage("cannot resolve \"c\": the DRA driver name is empty");
  }

  static Stream<Arguments> lookups() {
    Map<String, String> attrs =
        Map.of(
            "model", "bare",
            "other.example.com/model", "other",
            "gpu.example.com/memory", "qualified-own");
    return Stream.of(
        Arguments.of(attrs, "gpu.example.com/model", "bare"),
        Arguments.of(attrs, "model", "bare"),
        Arguments.of(attrs, "other.example.com/model", "other"),
        Arguments.of(attrs, "gpu.example.com/memory", "qualified-own"),
        Arguments.of(attrs, "memory", "qualified-own"),
        Arguments.of(attrs, "third.example.com/model", null),
        Arguments.of(attrs, "other.example.com/memory", null),
        Arguments.of(Map.of("gpu.example.com/model", "q", "model", "b"), "model", "q"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("lookups")
  void looksUpAsTheAllocator(Map<String, String> attrs, String name, String expected) {
    assertThat(QualifiedName.parse(name).lookup(attrs, DRIVER)).isEqualTo(expected);
  }
}
