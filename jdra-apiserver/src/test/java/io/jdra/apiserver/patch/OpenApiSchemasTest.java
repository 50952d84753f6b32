package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.patch.OpenApiSchemas.Gvk;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class OpenApiSchemasTest {
  private static final ObjectNode RESOURCE =
      OpenApiSchemas.componentSchemas(
          List.of(
              new Gvk("resource.k8s.io", "v1", "ResourceClaim"),
              new Gvk("resource.k8s.io", "v1", "ResourceSlice")));
  private static final ObjectNode CORE =
      OpenApiSchemas.componentSchemas(List.of(new Gvk("", "v1", "Pod"), new Gvk("", "v1", "Nope")));

  private static final String CLAIM = "/io.k8s.api.resource.v1.ResourceClaim";
  private static final String REQUEST = "/io.k8s.api.resource.v1.DeviceRequest/properties";
  private static final String DEVICE = "/io.k8s.api.resource.v1.Device/properties";
  private static final String CONTAINER = "/io.k8s.api.core.v1.Container/properties";

  static Stream<Arguments> cases() {
    return Stream.of(
        c(
            "top-level kind carries its group-version-kind",
            RESOURCE,
            CLAIM + "/x-kubernetes-group-version-kind",
            "[{\"group\":\"resource.k8s.io\",\"kind\":\"ResourceClaim\",\"version\":\"v1\"}]"),
        c(
            "struct field references its type through allOf",
            RESOURCE,
            CLAIM + "/properties/metadata",
            "{\"allOf\":[{\"$ref\":\"#/components/schemas/"
                + "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta\"}]}"),
        c(
            "scalar typed from the model class",
            RESOURCE,
            REQUEST + "/name",
            "{\"type\":\"string\"}"),
        c(
            "atomic list of structs",
            RESOURCE,
            REQUEST + "/firstAvailable",
            "{\"type\":\"array\",\"items\":{\"allOf\":[{\"$ref\":\"#/components/schemas/"
                + "io.k8s.api.resource.v1.DeviceSubRequest\"}]},"
                + "\"x-kubernetes-list-type\":\"atomic\"}"),
        c(
            "map of structs",
            RESOURCE,
            DEVICE + "/attributes",
            "{\"type\":\"object\",\"additionalProperties\":{\"allOf\":[{\"$ref\":"
                + "\"#/components/schemas/io.k8s.api.resource.v1.DeviceAttribute\"}]}}"),
        c(
            "boolean and int64 scalars",
            RESOURCE,
            "/io.k8s.api.resource.v1.DeviceAttribute/properties/int",
            "{\"type\":\"integer\",\"format\":\"int64\"}"),
        c(
            "quantity is a shared oneOf schema",
            RESOURCE,
            "/io.k8s.apimachinery.pkg.api.resource.Quantity",
            "{\"oneOf\":[{\"type\":\"string\"},{\"type\":\"number\"}]}"),
        c(
            "list map with patch strategy and merge key",
            CORE,
            "/io.k8s.api.core.v1.PodSpec/properties/containers",
            "{\"type\":\"array\",\"items\":{\"allOf\":[{\"$ref\":\"#/components/schemas/"
                + "io.k8s.api.core.v1.Container\"}]},\"x-kubernetes-list-type\":\"map\","
                + "\"x-kubernetes-list-map-keys\":[\"name\"],"
                + "\"x-kubernetes-patch-strategy\":\"merge\","
                + "\"x-kubernetes-patch-merge-key\":\"name\"}"),
        c(
            "set of strings",
            CORE,
            "/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta/properties/finalizers",
            "{\"type\":\"array\",\"items\":{\"type\":\"string\"},"
                + "\"x-kubernetes-list-type\":\"set\",\"x-kubernetes-patch-strategy\":\"merge\"}"),
        c(
            "map of quantities from the model's value type",
            CORE,
            "/io.k8s.api.core.v1.ResourceRequirements/properties/limits",
            "{\"type\":\"object\",\"additionalProperties\":{\"allOf\":[{\"$ref\":"
                + "\"#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity\"}]}}"),
        c(
            "int32 scalar",
            CORE,
            "/io.k8s.api.core.v1.ContainerPort/properties/containerPort",
            "{\"type\":\"integer\",\"format\":\"int32\"}"),
        c(
            "atomic struct",
            CORE,
            "/io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference/x-kubernetes-map-type",
            "\"atomic\""),
        c(
            "string list element typed from the model",
            CORE,
            CONTAINER + "/args/items",
            "{\"type\":\"string\"}"));
  }

  private static Arguments c(String name, ObjectNode doc, String pointer, String json) {
    return Arguments.of(Named.of(name, doc), pointer, json);
  }

  @ParameterizedTest
  @MethodSource("cases")
  void schemaAt(ObjectNode doc, String pointer, String json) {
    JsonNode actual = doc.at(pointer);
    assertThat(actual.isMissingNode()).as(pointer).isFalse();
    assertThat(actual).isEqualTo(Json.MAPPER.readTree(json));
  }

  @Test
  void undescribedKindsAreLeftOutAndOnlyReachableTypesIncluded() {
    assertThat(CORE.propertyNames())
        .contains("io.k8s.api.core.v1.Pod", "io.k8s.api.core.v1.PodSpec")
        .noneMatch(n -> n.contains("resource.v1"))
        .noneMatch(n -> n.endsWith(".Nope"));
    assertThat(RESOURCE.propertyNames()).doesNotContain("io.k8s.api.core.v1.Pod");
  }

  @Test
  void everyReferenceResolves() {
    for (ObjectNode doc : List.of(RESOURCE, CORE)) {
      doc.findValuesAsString("$ref")
          .forEach(ref ->
              assertThat(doc.has(ref.substring("#/components/schemas/".length())))
                  .as(ref)
                  .isTrue());
    }
  }

  @Test
  void schemaNamesFollowUpstreamDefinitions() {
    assertThat(OpenApiSchemas.schemaName("meta/v1.ObjectMeta"))
        .isEqualTo("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    assertThat(OpenApiSchemas.schemaName("resource/v1.ResourceClaim"))
        .isEqualTo("io.k8s.api.resource.v1.ResourceClaim");
  }
}
