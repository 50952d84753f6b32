package io.jdra.apiserver.patch;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Java types of the fabric8 model classes, by JSON property: the field table ({@code
 * schema.txt}) knows the shape of every field but not which primitive a scalar is, fabric8's
 * generated classes do. Kinds whose model jar is not on the classpath are simply unknown.
 * Thread-safe (lookups only read class metadata).
 */
final class ModelTypes {
  private static final String MODEL = "io.fabric8.kubernetes.api.model";

  private ModelTypes() {}

  /** The fabric8 class of a Go type name such as {@code resource/v1.DeviceRequest}. */
  static Optional<Class<?>> classOf(String goType) {
    int dot = goType.indexOf('.');
    int slash = goType.indexOf('/');
    if (dot < 0 || slash < 0 || slash > dot) {
      return Optional.empty();
    }
    String group = goType.substring(0, slash);
    String version = goType.substring(slash + 1, dot);
    String simple = goType.substring(dot + 1);
    List<String> candidates =
        switch (group) {
          case "core", "meta" -> List.of(MODEL + "." + simple);
          default ->
              List.of(
                  MODEL + "." + group + "." + version + "." + simple,
                  MODEL + "." + group + "." + simple);
        };
    for (String name : candidates) {
      try {
        return Optional.of(Class.forName(name, false, ModelTypes.class.getClassLoader()));
      } catch (ClassNotFoundException | LinkageError e) {
        // try the next package layout
      }
    }
    return Optional.empty();
  }

  /** JSON property name to the declared (generic) Java type of a fabric8 model class. */
  static Map<String, Type> properties(Class<?> c) {
    Map<String, Type> out = new HashMap<>();
    for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
      for (Field f : k.getDeclaredFields()) {
        JsonProperty p = f.getAnnotation(JsonProperty.class);
        if (p != null && !p.value().isEmpty()) {
          out.putIfAbsent(p.value(), f.getGenericType());
        }
      }
    }
    return out;
  }

  /** The element type of a List or the value type of a Map; null when not parameterized. */
  static Type elementOf(Type t) {
    if (t instanceof ParameterizedType p) {
      Type[] args = p.getActualTypeArguments();
      return args.length == 0 ? null : args[args.length - 1];
    }
    return null;
  }
}
