package io.jdra.runtime.client;

import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.WatchEvent;
import java.util.function.BiFunction;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.ValueDeserializerModifier;
import tools.jackson.databind.module.SimpleModule;

/**
 * A Jackson module that wraps the deserializer of fabric8's {@link WatchEvent} in {@link
 * WatchEventDeserializer}, which decodes the event's object straight into its class.
 */
final class OnePassWatchEvents extends SimpleModule {
  /**
   * @param kinds the class registered for an apiVersion and kind, or null: the lookup of the
   *     serialization's own deserializer ({@code KubernetesSerialization
   *     .getRegisteredKubernetesResource})
   */
  OnePassWatchEvents(BiFunction<String, String, Class<? extends KubernetesResource>> kinds) {
    super("jdra-one-pass-watch-events");
    setDeserializerModifier(
        new ValueDeserializerModifier() {
          @Override
          public ValueDeserializer<?> modifyDeserializer(
              DeserializationConfig config,
              BeanDescription.Supplier beanDesc,
              ValueDeserializer<?> deserializer) {
            return beanDesc.getBeanClass() == WatchEvent.class
                ? new WatchEventDeserializer(deserializer, kinds)
                : deserializer;
          }
        });
  }
}
