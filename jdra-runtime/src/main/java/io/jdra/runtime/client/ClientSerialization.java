package io.jdra.runtime.client;

import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;

/**
 * fabric8's serialization with two shortcuts on the decoding every request and watch event goes
 * through, each giving what fabric8's path gives:
 *
 * <ul>
 *   <li>Watch events are decoded in one pass ({@link OnePassWatchEvents}). fabric8 types the {@code
 *       object} of an event from its {@code kind} and {@code apiVersion}: its deserializer reads
 *       the object into a JSON tree to look them up, then converts the tree into the registered
 *       class. Here the two fields are read from the stream and the rest of the stream goes to the
 *       class's own deserializer, with the same lookup (this serialization's registered kinds).
 *   <li>JSON in memory is read where it is, with a reader kept per target type, where fabric8
 *       copies it through a buffered stream to look for YAML and builds a reader per call: 7.5
 *       against 5.6 us for a claim response. Response bodies (fabric8 hands them over as a {@link
 *       ByteArrayInputStream}) are read from their bytes; watch events, which fabric8 hands over as
 *       a String and would encode to UTF-8 bytes for its stream, are read from the String's
 *       characters (this mapper does not canonicalize property names, so Jackson would read bytes
 *       through a UTF-8 reader into characters anyway). YAML and other streams still take fabric8's
 *       way.
 *   <li>The kind lookup of a watch event is cached per kind and apiVersion ({@link
 *       #registeredKind}).
 * </ul>
 *
 * <p>Its mapper also writes objects without fabric8's per-property check when their additional
 * properties are empty ({@link DirectPropertyWrites}) and reads managedFields' {@code fieldsV1}
 * without reflection ({@link FieldsV1Reads}) and the scalar fields of the hot model classes by
 * direct setter calls ({@link ScalarReads}) and the other properties through compiled setter calls
 * ({@link CompiledSetters}), and creates model objects by compiled constructor calls ({@link
 * DirectCreators}), each giving what fabric8's mapper gives.
 */
public final class ClientSerialization extends KubernetesSerialization {
  private final Map<Type, ObjectReader> readers = new ConcurrentHashMap<>();

  /**
   * The mapper fabric8 configured, set by {@link #configureMapper} while the super constructor runs
   * (so not final, and without an initializer that would reset it afterwards).
   */
  private ObjectMapper configured;

  /** See {@link KubernetesSerialization#KubernetesSerialization(ObjectMapper, boolean)}. */
  public ClientSerialization(ObjectMapper mapper, boolean searchClassloaders) {
    super(mapper, searchClassloaders);
  }

  @Override
  protected ObjectMapper configureMapper(ObjectMapper mapper) {
    // The module looks kinds up through this instance when it decodes, never now.
    configured =
        super.configureMapper(mapper)
            .rebuild()
            .addModule(new OnePassWatchEvents(this::registeredKind))
            .addModule(new DirectPropertyWrites())
            .addModule(new FieldsV1Reads())
            .addModule(new ScalarReads())
            .addModule(new DirectCreators())
            .addModule(new CompiledSetters())
            .build();
    return configured;
  }

  /**
   * What {@link #getRegisteredKubernetesResource} answers, kept per kind and apiVersion: fabric8's
   * lookup splits the apiVersion and builds a key object for every watch event. Only classes are
   * kept (a kind without one is looked up again, so a later registration is seen); a registration
   * replaces the whole cache, so that a lookup still running puts its answer in a discarded one.
   */
  private volatile Map<String, Map<String, Class<? extends KubernetesResource>>> kinds =
      new ConcurrentHashMap<>();

  /** {@link #getRegisteredKubernetesResource}, from the cache above when it has the kind. */
  Class<? extends KubernetesResource> registeredKind(String apiVersion, String kind) {
    if (apiVersion == null || kind == null) {
      return getRegisteredKubernetesResource(apiVersion, kind);
    }
    Map<String, Map<String, Class<? extends KubernetesResource>>> cache = kinds;
    Map<String, Class<? extends KubernetesResource>> versions = cache.get(kind);
    Class<? extends KubernetesResource> type = versions == null ? null : versions.get(apiVersion);
    if (type == null) {
      type = getRegisteredKubernetesResource(apiVersion, kind);
      if (type != null) {
        cache.computeIfAbsent(kind, k -> new ConcurrentHashMap<>()).put(apiVersion, type);
      }
    }
    return type;
  }

  @Override
  public void registerKubernetesResource(Class<? extends KubernetesResource> clazz) {
    super.registerKubernetesResource(clazz);
    kinds = new ConcurrentHashMap<>();
  }

  @Override
  public void registerKubernetesResource(
      String apiVersion, String kind, Class<? extends KubernetesResource> clazz) {
    super.registerKubernetesResource(apiVersion, kind, clazz);
    kinds = new ConcurrentHashMap<>();
  }

  /** The mapper fabric8 configured (with the modules above), for tests. */
  ObjectMapper configuredMapper() {
    return configured;
  }

  @Override
  public <T> T unmarshal(InputStream is, TypeReference<T> type) {
    if (!(is instanceof ByteArrayInputStream in)) {
      return super.unmarshal(is, type);
    }
    return unmarshal(in.readAllBytes(), type.getType());
  }

  /** What fabric8 gives for this text (watch events come this way), read from its characters. */
  @Override
  public <T> T unmarshal(String text, Class<T> type) {
    return isJson(text) ? read(text, type) : super.unmarshal(text, type);
  }

  @Override
  public <T> T unmarshal(String text, TypeReference<T> type) {
    return isJson(text) ? read(text, type.getType()) : super.unmarshal(text, type);
  }

  /**
   * What {@link #unmarshal(InputStream, Class)} gives for a stream of these bytes, read from them
   * without a copy (answers {@code ApiRequests} holds as bytes).
   */
  <T> T unmarshal(byte[] content, Type type) {
    if (!isJson(content)) {
      return super.unmarshal(
          new ByteArrayInputStream(content),
          new TypeReference<T>() {
            @Override
            public Type getType() {
              return type;
            }
          });
    }
    try {
      return reader(type).readValue(content);
    } catch (JacksonException e) {
      throw new KubernetesClientException("An error has occurred.", e); // as fabric8's
    }
  }

  private <T> T read(String text, Type type) {
    try {
      return reader(type).readValue(text);
    } catch (JacksonException e) {
      throw new KubernetesClientException("An error has occurred.", e); // as fabric8's
    }
  }

  private ObjectReader reader(Type type) {
    return readers.computeIfAbsent(type, t -> configured.readerFor(configured.constructType(t)));
  }

  /** fabric8's test: the first character that is not white space opens an object or array. */
  private static boolean isJson(byte[] content) {
    for (byte b : content) {
      int c = b & 0xff;
      if (!Character.isWhitespace(c)) {
        return c == '{' || c == '[';
      }
    }
    return false;
  }

  /**
   * The same test on the UTF-8 bytes of {@code text}: a character beyond ASCII is no white space
   * there (its bytes are not), so it is not JSON.
   */
  private static boolean isJson(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c >= 0x80 || !Character.isWhitespace(c)) {
        return c == '{' || c == '[';
      }
    }
    return false;
  }
}
