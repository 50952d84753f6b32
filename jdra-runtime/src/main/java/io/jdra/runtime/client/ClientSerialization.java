package io.jdra.runtime.client;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import tools.jackson.databind.ObjectMapper;

/**
 * fabric8's serialization with watch events decoded in one pass ({@link OnePassWatchEvents}).
 *
 * <p>fabric8 types the {@code object} of a watch event from its {@code kind} and {@code
 * apiVersion}: its deserializer reads the object into a JSON tree to look them up, then converts
 * the tree into the registered class. This serialization reads the two fields from the stream and
 * hands the rest of the stream to the class's own deserializer, with the same lookup (this
 * serialization's registered kinds) and the same result; everything else is fabric8's.
 */
public final class ClientSerialization extends KubernetesSerialization {
  /** See {@link KubernetesSerialization#KubernetesSerialization(ObjectMapper, boolean)}. */
  public ClientSerialization(ObjectMapper mapper, boolean searchClassloaders) {
    super(mapper, searchClassloaders);
  }

  @Override
  protected ObjectMapper configureMapper(ObjectMapper mapper) {
    // Called by the super constructor: the module looks kinds up through this instance later,
    // when it decodes, never now.
    return super.configureMapper(mapper)
        .rebuild()
        .addModule(new OnePassWatchEvents(this::getRegisteredKubernetesResource))
        .build();
  }
}
