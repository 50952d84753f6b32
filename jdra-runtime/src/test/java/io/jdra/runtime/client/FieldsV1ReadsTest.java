package io.jdra.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationContext;

/**
 * {@link FieldsV1Reads}: {@code fieldsV1} of every shape decodes as fabric8's mapper decodes it
 * (equal objects, or the same failure with the same message), and the shared serialization reads it
 * directly. ClientSerializationTest covers the managedFields of whole objects and events.
 */
class FieldsV1ReadsTest {
  private static final KubernetesSerialization FABRIC8 =
      new KubernetesSerialization(Clients.mapper(), true);
  private static final ClientSerialization OURS = (ClientSerialization) Clients.serialization();

  private static final List<String> FIELDS =
      List.of(
          "{}",
          "{\"f:metadata\":{\"f:finalizers\":{\".\":{},\"v:\\\"x\\\"\":{}}}}",
          "{\"f:spec\":{\"k:{\\\"name\\\":\\\"gpu\\\"}\":{\".\":{},\"f:name\":{}}},\"f:status\":{}}",
          "{\"a\":null,\"b\":[1,2.5,\"s\",true,null,{\"c\":[]}],\"d\":12345678901234567890}",
          "{\"a\":1,\"a\":2}",
          // fabric8's any-setter is also reached under the name of its ignored property
          "{\"additionalProperties\":{\"x\":1},\"y\":{}}",
          "null",
          "\"text\"",
          "[1]",
          "7",
          "{\"a\":{\"b\":}}",
          "{\"a\":[1,}",
          "{\"a\"",
          "{\"a\":1");

  @Test
  void fieldsV1DecodesAsFabric8DecodesIt() {
    for (String f : FIELDS) {
      assertSame(f, FieldsV1.class);
      assertSame(
          "{\"name\":\"n\",\"managedFields\":[{\"manager\":\"m\",\"fieldsV1\":" + f + "}]}",
          ObjectMeta.class);
    }
  }

  @Test
  void theSharedSerializationReadsFieldsV1Directly() {
    for (ClientSerialization s :
        List.of(
            (ClientSerialization) Clients.sharedSerialization(),
            (ClientSerialization) Clients.trimmedSerialization(),
            OURS)) {
      DeserializationContext ctxt = s.configuredMapper()._deserializationContext();
      Object d = ctxt.findRootValueDeserializer(ctxt.constructType(FieldsV1.class));
      assertThat(d).isInstanceOf(FieldsV1Reads.Direct.class);
      assertThat(((FieldsV1Reads.Direct) d).readsDirectly()).isTrue();
    }
  }

  private static void assertSame(String json, Class<?> type) {
    Throwable expected = catchThrowable(() -> FABRIC8.unmarshal(json, type));
    Throwable actual = catchThrowable(() -> OURS.unmarshal(json, type));
    if (expected != null) {
      assertThat(actual).as(json).isNotNull().hasSameClassAs(expected);
      assertThat(actual.getCause()).as(json).hasSameClassAs(expected.getCause());
      assertThat(actual.getCause().getMessage())
          .as(json)
          .isEqualTo(expected.getCause().getMessage());
      return;
    }
    assertThat(actual).as(json).isNull();
    Object decoded = OURS.unmarshal(json, type);
    assertThat(decoded).as(json).isEqualTo(FABRIC8.unmarshal(json, type));
    assertThat(String.valueOf(decoded))
        .as(json)
        .isEqualTo(String.valueOf(FABRIC8.unmarshal(json, type)));
  }
}
