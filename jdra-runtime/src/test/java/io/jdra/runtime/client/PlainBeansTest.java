package io.jdra.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;

/**
 * The classes informers decode most are plain beans, so that their watch events take {@link
 * PlainBeans}' way (the stream read directly). ClientSerializationTest checks they decode as
 * fabric8 decodes them.
 */
class PlainBeansTest {
  @Test
  void theClassesInformersDecodeArePlainBeans() {
    for (ClientSerialization s :
        List.of(
            (ClientSerialization) Clients.serialization(),
            (ClientSerialization) Clients.trimmedSerialization())) {
      DeserializationContext ctxt = s.configuredMapper()._deserializationContext();
      assertThat(PlainBeans.isPlain(deserializer(ctxt, WatchEvent.class).getDelegatee()))
          .as("fabric8's WatchEvent deserializer")
          .isTrue();
      for (Class<?> type :
          List.of(
              Pod.class,
              Node.class,
              ResourceClaim.class,
              ResourceClaimTemplate.class,
              ResourceSlice.class,
              DeviceClass.class)) {
        assertThat(PlainBeans.isPlain(deserializer(ctxt, type))).as(type.getSimpleName()).isTrue();
      }
    }
  }

  private static ValueDeserializer<Object> deserializer(
      DeserializationContext ctxt, Class<?> type) {
    return ctxt.findRootValueDeserializer(ctxt.constructType(type));
  }
}
