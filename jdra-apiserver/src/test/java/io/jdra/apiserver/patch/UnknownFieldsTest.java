package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class UnknownFieldsTest {
  static Stream<Arguments> cases() {
    return Stream.of(
        c("none", "v1", "Pod", "{apiVersion: v1, kind: Pod, metadata: {name: p, labels: {a: b}}}"),
        c(
            "top level and nested, in document order",
            "v1",
            "Pod",
            "{apiVersion: v1, kind: Pod, foo: 1, spec: {containers: [{name: a}, {name: b, bar:"
                + " 2}]}}",
            "foo",
            "spec.containers[1].bar"),
        c(
            "a map entry's struct",
            "v1",
            "Pod",
            "{apiVersion: v1, kind: Pod, spec: {overhead: {cpu: 1}}, metadata: {zz: 1}}",
            "metadata.zz"),
        c(
            "resource claim request",
            "resource.k8s.io/v1",
            "ResourceClaim",
            "{spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c, counts: 2}}]}}}",
            "spec.devices.requests[0].exactly.counts"),
        c(
            "opaque driver parameters are free-form",
            "resource.k8s.io/v1",
            "ResourceClaim",
            "{spec: {devices: {config: [{opaque: {driver: d, parameters: {anything: {x: 1}}}}]}}}"),
        c("kinds without a schema", "example.com/v1", "Widget", "{spec: {foo: 1}}"));
  }

  private static Arguments c(
      String name, String apiVersion, String kind, String yaml, String... expected) {
    return Arguments.of(Named.of(name, apiVersion), kind, yaml, List.of(expected));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void finds(String apiVersion, String kind, String yaml, List<String> expected) {
    assertThat(Patcher.unknownFields(apiVersion, kind, Yaml.obj(yaml)))
        .containsExactlyElementsOf(expected);
  }
}
