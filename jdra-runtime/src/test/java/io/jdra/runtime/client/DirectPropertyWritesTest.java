package io.jdra.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jdra.runtime.bench.DecodeBench;
import io.jdra.runtime.bench.WatchDecodeBench;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;

/**
 * {@link DirectPropertyWrites}: objects are written as fabric8's mapper writes them, with and
 * without additional properties (also ones under a property's name, which fabric8 writes instead of
 * the property), and the classes clients write are written directly.
 */
class DirectPropertyWritesTest {
  private static final KubernetesSerialization FABRIC8 =
      new KubernetesSerialization(Clients.mapper(), true);
  private static final ClientSerialization OURS = (ClientSerialization) Clients.serialization();

  @Test
  void everyObjectOfTheCorpusIsWrittenAsFabric8WritesIt() throws IOException {
    List<String> corpus = ClientSerializationTest.corpus();
    assertThat(corpus).hasSizeGreaterThan(50);
    int written = 0;
    for (String json : corpus) {
      KubernetesResource o;
      try {
        o = FABRIC8.unmarshal(json, KubernetesResource.class);
      } catch (RuntimeException e) {
        continue; // a kind that is no string, for the decoding tests
      }
      assertThat(OURS.asJson(o)).as(json).isEqualTo(FABRIC8.asJson(o));
      written++;
    }
    assertThat(written).isGreaterThan(50);
    for (String event : WatchDecodeBench.steadyStatePodEvents()) {
      Object o = FABRIC8.unmarshal(event, WatchEvent.class).getObject();
      assertThat(OURS.asJson(o)).as(event).isEqualTo(FABRIC8.asJson(o));
    }
  }

  @Test
  void additionalPropertiesAreWrittenAsFabric8WritesThem() {
    Pod pod = FABRIC8.unmarshal(DecodeBench.POD, Pod.class);
    pod.setAdditionalProperty("zUnknown", List.of(1, Map.of("b", true)));
    pod.getMetadata().setAdditionalProperty("zUnknown", "x");
    assertSameJson(pod);
    // A value under a property's name replaces the property, in the object and in a nested one.
    pod.setAdditionalProperty("spec", Map.of("replaced", true));
    assertSameJson(pod);
    PodSpec spec = pod.getSpec();
    pod.getAdditionalProperties().remove("spec");
    spec.setAdditionalProperty("nodeName", "elsewhere");
    assertThat(OURS.asJson(pod)).contains("\"nodeName\":\"elsewhere\"");
    assertSameJson(pod);
    // An empty map again: written directly, with the property.
    spec.getAdditionalProperties().clear();
    pod.getAdditionalProperties().clear();
    pod.getMetadata().getAdditionalProperties().clear();
    assertSameJson(pod);
    ResourceClaim claim = FABRIC8.unmarshal(DecodeBench.claim("u1"), ResourceClaim.class);
    claim.setAdditionalProperties(null);
    claim.setStatus(new ResourceClaimStatus());
    claim.getStatus().setAdditionalProperty("allocation", null);
    assertSameJson(claim);
  }

  @Test
  void theClassesClientsWriteAreWrittenDirectly() {
    SerializationContext ctxt = OURS.configuredMapper()._serializationContext();
    for (Class<?> type :
        List.of(
            Pod.class,
            ResourceClaim.class,
            ResourceClaimStatus.class,
            ObjectMeta.class,
            ManagedFieldsEntry.class,
            PodSpec.class,
            Node.class)) {
      ValueSerializer<Object> s = ctxt.findRootValueSerializer(type);
      assertThat(s).as(type.getSimpleName()).isInstanceOf(DirectPropertyWrites.Direct.class);
      assertThat(((DirectPropertyWrites.Direct) s).writesDirectly())
          .as(type.getSimpleName())
          .isTrue();
    }
    // Their scalar properties through compiled getters (ScalarWrite): ObjectMeta's eight
    // strings and two longs, a managedFields entry's six strings.
    assertThat(scalarWrites(ctxt, ObjectMeta.class)).isEqualTo(10);
    assertThat(scalarWrites(ctxt, ManagedFieldsEntry.class)).isEqualTo(6);
    // The others through compiled getters too (ValueWrite): ObjectMeta's two maps and three
    // lists, the entry's fieldsV1, a Pod's metadata, spec and status (its apiVersion and kind
    // are scalar).
    assertThat(direct(ctxt, ObjectMeta.class).valueWrites()).isEqualTo(5);
    assertThat(direct(ctxt, ManagedFieldsEntry.class).valueWrites()).isEqualTo(1);
    assertThat(direct(ctxt, Pod.class).valueWrites()).isEqualTo(3);
  }

  private static int scalarWrites(SerializationContext ctxt, Class<?> type) {
    return direct(ctxt, type).scalarWrites();
  }

  private static DirectPropertyWrites.Direct direct(SerializationContext ctxt, Class<?> type) {
    return (DirectPropertyWrites.Direct) ctxt.findRootValueSerializer(type);
  }

  private static void assertSameJson(Object o) {
    assertThat(OURS.asJson(o)).isEqualTo(FABRIC8.asJson(o));
  }
}
