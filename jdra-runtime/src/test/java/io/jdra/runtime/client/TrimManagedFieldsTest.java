package io.jdra.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jdra.runtime.bench.DecodeBench;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link Clients#trimmedSerialization()}: every object decodes as with {@link
 * Clients#serialization()}, except that an object's own {@code metadata.managedFields} is the empty
 * list fabric8 gives an absent field; template metadata keeps its managedFields.
 */
class TrimManagedFieldsTest {
  private static final KubernetesSerialization FULL = Clients.serialization();
  private static final KubernetesSerialization TRIMMED = Clients.trimmedSerialization();

  @Test
  void watchEventsAndResponsesDecodeAsBeforeLessTheObjectsOwnManagedFields() throws IOException {
    List<String> objects = new ArrayList<>();
    for (String o : ClientSerializationTest.corpus()) {
      objects.add(withManagedFields(o));
      objects.add(ClientSerializationTest.typeLast(withManagedFields(o)));
    }
    objects.add(DEPLOYMENT);
    objects.add(CLAIM_TEMPLATE);
    int trimmed = 0;
    for (String o : objects) {
      for (String event : ClientSerializationTest.events("MODIFIED", o)) {
        trimmed += assertTrimmedEvent(event) ? 1 : 0;
      }
      assertTrimmedResponse(o);
    }
    assertThat(trimmed).as("events whose object had managedFields").isGreaterThan(200);
  }

  /** Whether the event's object had managedFields. */
  private static boolean assertTrimmedEvent(String event) {
    Throwable fails = catchThrowable(() -> FULL.unmarshal(event, WatchEvent.class));
    if (fails != null) {
      assertThat(catchThrowable(() -> TRIMMED.unmarshal(event, WatchEvent.class)))
          .as(event)
          .hasSameClassAs(fails);
      return false;
    }
    WatchEvent expected = FULL.unmarshal(event, WatchEvent.class);
    boolean had = clearManagedFields(expected.getObject());
    WatchEvent actual = TRIMMED.unmarshal(event, WatchEvent.class);
    if (expected.getObject() instanceof KubernetesList) { // no equals
      assertThat(actual).as(event).hasToString(expected.toString());
    } else {
      assertThat(actual).as(event).isEqualTo(expected);
    }
    return had;
  }

  private static void assertTrimmedResponse(String o) {
    TypeReference<KubernetesResource> type = new TypeReference<>() {};
    Throwable fails = catchThrowable(() -> FULL.unmarshal(body(o), type));
    if (fails != null) {
      assertThat(catchThrowable(() -> TRIMMED.unmarshal(body(o), type)))
          .as(o)
          .hasSameClassAs(fails);
      return;
    }
    KubernetesResource expected = FULL.unmarshal(body(o), type);
    clearManagedFields(expected);
    KubernetesResource actual = TRIMMED.unmarshal(body(o), type);
    if (expected instanceof KubernetesList) { // no equals
      assertThat(actual).as(o).hasToString(expected.toString());
    } else {
      assertThat(actual).as(o).isEqualTo(expected);
    }
  }

  @Test
  void listItemsAreTrimmed() {
    String list =
        "{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"metadata\":{\"resourceVersion\":\"9\"},"
            + "\"items\":["
            + withManagedFields(DecodeBench.POD)
            + ","
            + withManagedFields(DecodeBench.POD)
            + "]}";
    PodList full = FULL.unmarshal(body(list), new TypeReference<PodList>() {});
    PodList trimmed = TRIMMED.unmarshal(body(list), new TypeReference<PodList>() {});
    assertThat(full.getItems()).allSatisfy(p -> assertThat(managedFields(p)).isNotEmpty());
    assertThat(trimmed.getItems())
        .hasSize(2)
        .allSatisfy(p -> assertThat(managedFields(p)).isEmpty());
    clearManagedFields(full);
    assertThat(trimmed).isEqualTo(full);
  }

  @Test
  void templateMetadataKeepsItsManagedFields() {
    Deployment d = TRIMMED.unmarshal(DEPLOYMENT, Deployment.class);
    assertThat(managedFields(d)).isEmpty();
    assertThat(d.getSpec().getTemplate().getMetadata().getManagedFields()).hasSize(1);
    ResourceClaimTemplate t = TRIMMED.unmarshal(CLAIM_TEMPLATE, ResourceClaimTemplate.class);
    assertThat(managedFields(t)).isEmpty();
    assertThat(t.getSpec().getMetadata().getManagedFields()).hasSize(1);
  }

  @Test
  void writingKeepsManagedFields() {
    Pod pod = FULL.unmarshal(withManagedFields(DecodeBench.POD), Pod.class);
    assertThat(managedFields(pod)).isNotEmpty();
    assertThat(TRIMMED.asJson(pod)).isEqualTo(FULL.asJson(pod));
  }

  @Test
  void trimmedObjectsWriteNoManagedFieldsSoUpdatesLeaveTheServersAlone() {
    Pod pod = TRIMMED.unmarshal(withManagedFields(DecodeBench.POD), Pod.class);
    assertThat(FULL.asJson(pod)).doesNotContain("managedFields");
  }

  private static List<?> managedFields(HasMetadata o) {
    return o.getMetadata().getManagedFields();
  }

  /** Clears what the trimmed serialization skips; whether there was something to clear. */
  private static boolean clearManagedFields(Object o) {
    boolean had = false;
    if (o instanceof HasMetadata h && h.getMetadata() != null) {
      had = !h.getMetadata().getManagedFields().isEmpty();
      h.getMetadata().setManagedFields(new ArrayList<>());
    }
    if (o instanceof KubernetesResourceList<?> l && l.getItems() != null) {
      for (Object item : l.getItems()) {
        had |= clearManagedFields(item);
      }
    }
    return had;
  }

  private static ByteArrayInputStream body(String json) {
    return new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8));
  }

  /** The object with two managedFields entries in its metadata and in its list items'. */
  static String withManagedFields(String json) {
    JsonNode root = FULL.unmarshal(json, JsonNode.class);
    if (root instanceof ObjectNode o) {
      addManagedFields(o);
      if (o.get("items") instanceof ArrayNode items) {
        items.forEach(i -> addManagedFields((ObjectNode) i));
      }
    }
    return root.toString();
  }

  private static void addManagedFields(ObjectNode o) {
    if (o.get("metadata") instanceof ObjectNode m) {
      m.set("managedFields", FULL.unmarshal(MANAGED_FIELDS, JsonNode.class));
    }
  }

  private static final String MANAGED_FIELDS =
      """
      [{"manager":"kubectl","operation":"Apply","apiVersion":"v1","time":"2026-11-26T14:22:41Z",\
      "fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{\
      "f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:image":{},"f:name":{}}}}}},\
      {"manager":"ResourceClaimController","operation":"Apply","apiVersion":"v1",\
      "time":"2026-11-26T14:22:42Z","fieldsType":"FieldsV1","subresource":"status",\
      "fieldsV1":{"f:status":{"f:resourceClaimStatuses":{"k:{\\"name\\":\\"gpu\\"}":{".":{},\
      "f:name":{},"f:resourceClaimName":{}}}}}}]\
      """;

  private static final String TEMPLATE_MANAGED_FIELDS =
      """
      [{"manager":"odd","operation":"Update","fieldsType":"FieldsV1","fieldsV1":{"f:x":{}}}]\
      """;

  private static final String DEPLOYMENT =
      ("""
      {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","namespace":"n",\
      "managedFields":MF},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"a"}},\
      "template":{"metadata":{"labels":{"app":"a"},"managedFields":TMF},"spec":{\
      "containers":[{"name":"c","image":"i"}]}}}}\
      """)
          .replace("TMF", TEMPLATE_MANAGED_FIELDS)
          .replace("MF", MANAGED_FIELDS);

  private static final String CLAIM_TEMPLATE =
      ("""
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate","metadata":{"name":"t",\
      "namespace":"n","managedFields":MF},"spec":{"metadata":{"labels":{"a":"b"},\
      "managedFields":TMF},"spec":{"devices":{"requests":[{"name":"gpu","exactly":{\
      "deviceClassName":"gpu.example.com"}}]}}}}\
      """)
          .replace("TMF", TEMPLATE_MANAGED_FIELDS)
          .replace("MF", MANAGED_FIELDS);
}
