package io.jdra.apiserver.http;

import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.rest.ApiException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.JacksonAnnotationIntrospector;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Known-field checks for {@code fieldValidation=Strict}, with the fabric8 model classes as the
 * schema: they are decoded with their catch-all {@code additionalProperties} switched off, so an
 * unknown field fails with its path. Kinds whose model is not on the classpath are not checked.
 * Thread-safe.
 */
final class Schemas {
  private static final JsonMapper STRICT =
      JsonMapper.builder()
          .annotationIntrospector(
              new JacksonAnnotationIntrospector() {
                @Override
                public Boolean hasAnySetter(MapperConfig<?> config, Annotated a) {
                  return Boolean.FALSE;
                }
              })
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .build();

  private static final Map<String, String> CLASSES =
      Map.ofEntries(
          Map.entry("/Namespace", "io.fabric8.kubernetes.api.model.Namespace"),
          Map.entry("/Event", "io.fabric8.kubernetes.api.model.Event"),
          Map.entry("/ConfigMap", "io.fabric8.kubernetes.api.model.ConfigMap"),
          Map.entry("/Secret", "io.fabric8.kubernetes.api.model.Secret"),
          Map.entry("/ServiceAccount", "io.fabric8.kubernetes.api.model.ServiceAccount"),
          Map.entry(
              "coordination.k8s.io/Lease", "io.fabric8.kubernetes.api.model.coordination.v1.Lease"),
          Map.entry(
              "resource.k8s.io/DeviceClass",
              "io.fabric8.kubernetes.api.model.resource.v1.DeviceClass"),
          Map.entry(
              "resource.k8s.io/ResourceClaim",
              "io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim"),
          Map.entry(
              "resource.k8s.io/ResourceClaimTemplate",
              "io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate"),
          Map.entry(
              "resource.k8s.io/ResourceSlice",
              "io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice"),
          Map.entry(
              "resource.k8s.io/DeviceTaintRule",
              "io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule"));

  private static final Map<String, Optional<Class<?>>> LOADED = new ConcurrentHashMap<>();

  private Schemas() {}

  /** Throws 400 BadRequest naming the first unknown field, as upstream's strict decoding. */
  static void checkKnown(ResourceType type, ObjectNode body) {
    Optional<Class<?>> c = LOADED.computeIfAbsent(type.group() + "/" + type.kind(), Schemas::load);
    if (c.isEmpty()) {
      return;
    }
    ObjectNode copy = body;
    for (int attempt = 0; attempt < 100; attempt++) {
      try {
        STRICT.treeToValue(copy, c.get());
        return;
      } catch (UnrecognizedPropertyException e) {
        if (!freeForm(e.getReferringClass()) && !opaque(e)) {
          throw ApiException.badRequest(
              type.kind()
                  + " in version \""
                  + type.storageVersion()
                  + "\" cannot be handled as a "
                  + type.kind()
                  + ": strict decoding error: unknown field \""
                  + path(e)
                  + "\"");
        }
        // Free-form content (opaque driver parameters): anything goes; drop it, look further.
        if (copy == body) {
          copy = body.deepCopy();
        }
        if (!remove(copy, e.getPath())) {
          return;
        }
      } catch (JacksonException e) {
        // Type errors are reported by admission with upstream's wording.
        return;
      }
    }
  }

  /** Opaque driver parameters (a RawExtension upstream) are not checked. */
  private static boolean opaque(JacksonException e) {
    return e.getPath().stream().anyMatch(r -> "parameters".equals(r.getPropertyName()));
  }

  private static boolean freeForm(Class<?> c) {
    if (c == null) {
      return true;
    }
    String n = c.getSimpleName();
    return !c.getName().startsWith("io.fabric8.kubernetes.api.model.")
        || n.equals("GenericKubernetesResource")
        || n.equals("AnyType")
        || n.equals("RawExtension")
        || java.util.Map.class.isAssignableFrom(c);
  }

  private static boolean remove(ObjectNode root, java.util.List<JacksonException.Reference> path) {
    tools.jackson.databind.JsonNode n = root;
    for (int i = 0; i < path.size() - 1; i++) {
      JacksonException.Reference r = path.get(i);
      n = r.getPropertyName() != null ? n.get(r.getPropertyName()) : n.get(r.getIndex());
      if (n == null) {
        return false;
      }
    }
    JacksonException.Reference last = path.get(path.size() - 1);
    if (n instanceof ObjectNode o && last.getPropertyName() != null) {
      return o.remove(last.getPropertyName()) != null;
    }
    return false;
  }

  private static String path(JacksonException e) {
    StringBuilder sb = new StringBuilder();
    for (JacksonException.Reference r : e.getPath()) {
      if (r.getPropertyName() != null) {
        if (!sb.isEmpty()) {
          sb.append('.');
        }
        sb.append(r.getPropertyName());
      } else if (r.getIndex() >= 0) {
        sb.append('[').append(r.getIndex()).append(']');
      }
    }
    return sb.toString();
  }

  private static Optional<Class<?>> load(String key) {
    String name = CLASSES.get(key);
    if (name == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Class.forName(name));
    } catch (ClassNotFoundException e) {
      return Optional.empty();
    }
  }
}
