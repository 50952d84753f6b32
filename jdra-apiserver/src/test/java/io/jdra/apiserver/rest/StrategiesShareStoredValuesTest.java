package io.jdra.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceRegistry;
import io.jdra.apiserver.registry.ResourceType;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link Strategies#shareStoredValues}: a PUT's tree takes the stored values it writes alike, only
 * where {@link Strategies#copyForWrite} would share them, and still writes the same JSON.
 */
class StrategiesShareStoredValuesTest {
  private static final ResourceRegistry REGISTRY = ResourceRegistry.builtIn();
  private static final String STORED =
      """
      {"apiVersion":"v1","kind":"K","metadata":{"name":"a","labels":{"l":"v","m":"w"},
       "finalizers":["f"],"managedFields":[{"manager":"m","fieldsV1":{"f:spec":{}}}]},
       "spec":{"x":{"y":1,"z":2.50}},"status":{"phase":"P"}}
      """;

  @Test
  void aClaimTakesEqualValuesButTheMetadataObject() {
    ObjectNode old = parse(STORED);
    ObjectNode put = parse(STORED.replace("\"finalizers\":[\"f\"]", "\"finalizers\":[\"g\"]"));
    String before = put.toString();
    Strategies.shareStoredValues(claims(), put, old, true);

    assertThat(put.toString()).isEqualTo(before);
    assertThat(put.get("metadata")).isNotSameAs(old.get("metadata"));
    assertThat(put.at("/metadata/labels")).isSameAs(old.at("/metadata/labels"));
    assertThat(put.at("/metadata/managedFields")).isSameAs(old.at("/metadata/managedFields"));
    assertThat(put.at("/metadata/finalizers")).isNotSameAs(old.at("/metadata/finalizers"));
    assertThat(put.get("spec")).isSameAs(old.get("spec"));
    // the status a PUT sends is replaced by the stored one: left as sent, not compared
    assertThat(put.get("status")).isNotSameAs(old.get("status"));
  }

  @Test
  void managedFieldsTheServerEncodedAreSharedWhenSentBack() {
    ObjectNode old = parse(STORED);
    // as the server stores them: each entry's FieldsV1 a node written once
    ObjectNode entry = (ObjectNode) old.at("/metadata/managedFields/0");
    io.jdra.apiserver.meta.WrittenOnce fields = new io.jdra.apiserver.meta.WrittenOnce() {};
    fields.setAll((ObjectNode) entry.get("fieldsV1"));
    entry.set("fieldsV1", fields);
    ObjectNode put = parse(STORED.replace("\"finalizers\":[\"f\"]", "\"finalizers\":[\"g\"]"));
    String before = put.toString();
    Strategies.shareStoredValues(claims(), put, old, true);

    assertThat(put.toString()).isEqualTo(before);
    assertThat(put.at("/metadata/managedFields")).isSameAs(old.at("/metadata/managedFields"));
  }

  @Test
  void aPodKeepsItsOwnSpecWhichAdmissionChangesInPlace() {
    ObjectNode old = parse(STORED);
    ObjectNode put = parse(STORED);
    Strategies.shareStoredValues(type("", "pods"), put, old, true);

    assertThat(put.get("spec")).isNotSameAs(old.get("spec"));
    // the status a PUT sends is replaced by the stored one: left as sent, not compared
    assertThat(put.get("status")).isNotSameAs(old.get("status"));
    assertThat(put.at("/metadata/labels")).isSameAs(old.at("/metadata/labels"));
  }

  @Test
  void valuesWrittenOtherwiseStayTheRequestsOwn() {
    ObjectNode old = parse(STORED);
    for (String other :
        new String[] {
          STORED.replace("\"l\":\"v\",\"m\":\"w\"", "\"m\":\"w\",\"l\":\"v\""), // key order
          STORED.replace("2.50", "2.5"), // a decimal's scale
          STORED.replace("\"y\":1", "\"y\":1.0"), // an integer written as a decimal
        }) {
      ObjectNode put = parse(other);
      String before = put.toString();
      Strategies.shareStoredValues(claims(), put, old, true);
      assertThat(put.toString()).isEqualTo(before);
      assertThat(
              put.get("spec") != old.get("spec")
                  || put.at("/metadata/labels") != old.at("/metadata/labels"))
          .as(other)
          .isTrue();
    }
  }

  @Test
  void nothingIsSharedWithoutSharingNorForOtherKinds() {
    ObjectNode old = parse(STORED);
    ObjectNode claim = parse(STORED);
    ObjectNode configMap = parse(STORED);
    Strategies.shareStoredValues(claims(), claim, old, false);
    Strategies.shareStoredValues(type("", "configmaps"), configMap, old, true);
    for (ObjectNode put : new ObjectNode[] {claim, configMap}) {
      assertThat(put.get("spec")).isNotSameAs(old.get("spec"));
      assertThat(put.at("/metadata/labels")).isNotSameAs(old.at("/metadata/labels"));
    }
  }

  @Test
  void writtenAlikeAsTheBytesSay() {
    String[][] pairs = {
      {"{\"a\":1,\"b\":[true,null,\"s\"]}", "{\"a\":1,\"b\":[true,null,\"s\"]}", "true"},
      {"{\"a\":1,\"b\":2}", "{\"b\":2,\"a\":1}", "false"},
      {"{\"a\":2.50}", "{\"a\":2.5}", "false"},
      {"{\"a\":1}", "{\"a\":1.0}", "false"},
      {"{\"a\":[1,2]}", "{\"a\":[2,1]}", "false"},
      {"{\"a\":{}}", "{\"a\":[]}", "false"},
      {"{\"a\":\"1\"}", "{\"a\":1}", "false"},
    };
    for (String[] p : pairs) {
      ObjectNode a = parse(p[0]);
      ObjectNode b = parse(p[1]);
      boolean alike = Boolean.parseBoolean(p[2]);
      assertThat(Json.writtenAlike(a, b)).as(p[0] + " " + p[1]).isEqualTo(alike);
      assertThat(a.toString().equals(b.toString())).isEqualTo(alike);
    }
    ObjectNode shared = parse("{\"x\":1}");
    assertThat(Json.writtenAlike(shared, shared)).isTrue();
  }

  private static ResourceType claims() {
    return type("resource.k8s.io", "resourceclaims");
  }

  private static ResourceType type(String group, String plural) {
    return REGISTRY.find(group, "v1", plural).orElseThrow();
  }

  private static ObjectNode parse(String s) {
    return Json.parseObject(s.getBytes(StandardCharsets.UTF_8));
  }
}
