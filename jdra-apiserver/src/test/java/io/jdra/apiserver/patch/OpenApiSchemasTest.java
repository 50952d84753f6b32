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
        c("scalar typed from the Go type", RESOURCE, REQUEST + "/name", "{\"type\":\"string\"}"),
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
            "map of quantities",
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
        c("string list element", CORE, CONTAINER + "/args/items", "{\"type\":\"string\"}"));
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

  /** Every kind the server serves, in every version it serves it (gated kinds included). */
  static Stream<Arguments> servedKinds() {
    return io.jdra.apiserver.registry.ResourceRegistry.builtIn(
            io.jdra.api.features.FeatureGates.parse("GenericWorkload=true"))
        .all()
        .stream()
        .flatMap(t -> t.versions().stream().map(v -> new Gvk(t.group(), v, t.kind())))
        .map(Arguments::of);
  }

  private static final java.util.Set<String> UNTYPED_SCALARS =
      java.util.Set.of("any", "raw", "fieldsv1");

  /**
   * kubectl explain shows {@code <Object>} for a schema without a type (or with type object): no
   * scalar field or scalar list item or map value of any served kind may come out that way.
   */
  @ParameterizedTest
  @MethodSource("servedKinds")
  void scalarsOfServedKindsAreNotObjects(Gvk k) {
    assertThat(Schema.known(k.apiVersion(), k.kind())).as("%s described", k).isTrue();
    ObjectNode doc = OpenApiSchemas.componentSchemas(List.of(k));
    java.util.Set<String> seen = new java.util.HashSet<>();
    java.util.ArrayDeque<Schema.Type> todo = new java.util.ArrayDeque<>();
    todo.add(Schema.forKind(k.apiVersion(), k.kind()));
    int scalars = 0;
    while (!todo.isEmpty()) {
      Schema.Type t = todo.pop();
      if (!t.isStruct() || !seen.add(t.name)) {
        continue;
      }
      JsonNode props = doc.at("/" + OpenApiSchemas.schemaName(t.name) + "/properties");
      for (Schema.Field f : t.fields.values()) {
        String where = t.name + "." + f.name();
        if (!"-".equals(f.elem())) {
          todo.add(Schema.type(f.elem()));
          continue;
        }
        assertThat(f.scalar()).as(where + " has a scalar type").isNotEmpty();
        if (UNTYPED_SCALARS.contains(f.scalar())) {
          continue;
        }
        JsonNode s = props.get(f.name());
        JsonNode leaf =
            switch (f.kind()) {
              case LIST -> s.get("items");
              case MAP -> s.get("additionalProperties");
              default -> s;
            };
        JsonNode resolved = resolve(doc, leaf);
        assertThat(resolved.has("type") || resolved.has("oneOf")).as(where + ": " + s).isTrue();
        assertThat(resolved.path("type").asString("")).as(where + ": " + s).isNotEqualTo("object");
        scalars++;
      }
    }
    assertThat(scalars).as("scalars checked").isPositive();
  }

  private static JsonNode resolve(ObjectNode doc, JsonNode s) {
    JsonNode ref = s.at("/allOf/0/$ref");
    return ref.isMissingNode()
        ? s
        : doc.get(ref.asString().substring("#/components/schemas/".length()));
  }

  @Test
  void workloadScalarsAreTyped() {
    ObjectNode apps = OpenApiSchemas.componentSchemas(List.of(new Gvk("apps", "v1", "Deployment")));
    assertThat(apps.at("/io.k8s.api.apps.v1.DeploymentSpec/properties/replicas"))
        .isEqualTo(Json.MAPPER.readTree("{\"type\":\"integer\",\"format\":\"int32\"}"));
    ObjectNode batch = OpenApiSchemas.componentSchemas(List.of(new Gvk("batch", "v1", "Job")));
    assertThat(batch.at("/io.k8s.api.batch.v1.JobSpec/properties/completions/type").asString())
        .isEqualTo("integer");
    assertThat(batch.at("/io.k8s.apimachinery.pkg.apis.meta.v1.Time"))
        .isEqualTo(Json.MAPPER.readTree("{\"type\":\"string\",\"format\":\"date-time\"}"));
  }

  @Test
  void swaggerDefinitionsUsePlainReferences() {
    ObjectNode defs =
        OpenApiSchemas.swaggerDefinitions(
            List.of(new Gvk("", "v1", "Pod"), new Gvk("apps", "v1", "Deployment")));
    assertThat(defs.at("/io.k8s.api.core.v1.Pod/properties/spec"))
        .isEqualTo(Json.MAPPER.readTree("{\"$ref\":\"#/definitions/io.k8s.api.core.v1.PodSpec\"}"));
    assertThat(
            defs.at("/io.k8s.api.apps.v1.Deployment/x-kubernetes-group-version-kind/0/kind")
                .asString())
        .isEqualTo("Deployment");
    assertThat(defs.at("/io.k8s.apimachinery.pkg.api.resource.Quantity"))
        .isEqualTo(Json.MAPPER.readTree("{\"type\":\"string\"}"));
    assertThat(defs.toString()).doesNotContain("#/components/schemas/", "allOf");
    defs.findValuesAsString("$ref")
        .forEach(
            ref -> assertThat(defs.has(ref.substring("#/definitions/".length()))).as(ref).isTrue());
  }

  @Test
  void schemaNamesFollowUpstreamDefinitions() {
    assertThat(OpenApiSchemas.schemaName("meta/v1.ObjectMeta"))
        .isEqualTo("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    assertThat(OpenApiSchemas.schemaName("resource/v1.ResourceClaim"))
        .isEqualTo("io.k8s.api.resource.v1.ResourceClaim");
  }
}
