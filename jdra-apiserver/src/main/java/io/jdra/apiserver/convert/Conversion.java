package io.jdra.apiserver.convert;

import io.jdra.apiserver.registry.ResourceType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Converts objects between served versions and the storage version. resource.k8s.io v1beta2 has
 * v1's shapes; v1beta1 wraps ResourceSlice devices in {@code basic} and has flat claim requests
 * where v1 has {@code exactly}; events.k8s.io Events are stored as core Events. Stateless; converts
 * the given tree in place.
 */
public final class Conversion {
  private Conversion() {}

  /** Whether objects of {@code t} need work to be served as {@code version}. */
  public static boolean needed(ResourceType t, String version) {
    return !version.equals(t.storageVersion()) || t.storedElsewhere();
  }

  /** Converts a stored object to a served version (in place; returns it). */
  public static ObjectNode toVersion(ResourceType t, String version, ObjectNode obj) {
    obj.put("apiVersion", t.apiVersion(version));
    if (t.group().equals(EventConversion.GROUP)) {
      return EventConversion.fromCore(obj);
    }
    if (version.equals("v1beta1") && t.group().equals("resource.k8s.io")) {
      switch (t.kind()) {
        case "ResourceSlice" -> forEach(obj.at("/spec/devices"), Conversion::wrapBasic);
        case "ResourceClaim" -> forEach(obj.at("/spec/devices/requests"), Conversion::flatten);
        case "ResourceClaimTemplate" ->
            forEach(obj.at("/spec/spec/devices/requests"), Conversion::flatten);
        default -> {}
      }
    }
    return obj;
  }

  /** Converts an object of a served version to the storage version (in place; returns it). */
  public static ObjectNode fromVersion(ResourceType t, String version, ObjectNode obj) {
    obj.put("apiVersion", t.storageApiVersion());
    if (t.group().equals(EventConversion.GROUP)) {
      return EventConversion.toCore(obj);
    }
    if (version.equals("v1beta1") && t.group().equals("resource.k8s.io")) {
      switch (t.kind()) {
        case "ResourceSlice" -> forEach(obj.at("/spec/devices"), Conversion::unwrapBasic);
        case "ResourceClaim" -> forEach(obj.at("/spec/devices/requests"), Conversion::nestExactly);
        case "ResourceClaimTemplate" ->
            forEach(obj.at("/spec/spec/devices/requests"), Conversion::nestExactly);
        default -> {}
      }
    }
    return obj;
  }

  private static void forEach(JsonNode array, java.util.function.Consumer<ObjectNode> f) {
    if (array instanceof ArrayNode a) {
      for (JsonNode n : a) {
        if (n instanceof ObjectNode o) {
          f.accept(o);
        }
      }
    }
  }

  private static void wrapBasic(ObjectNode device) {
    ObjectNode basic = JsonNodeFactory.instance.objectNode();
    for (String f : fieldsExcept(device, "name")) {
      basic.set(f, device.remove(f));
    }
    device.set("basic", basic);
  }

  private static void unwrapBasic(ObjectNode device) {
    JsonNode basic = device.remove("basic");
    if (basic instanceof ObjectNode b) {
      for (Map.Entry<String, JsonNode> e : b.properties()) {
        device.set(e.getKey(), e.getValue());
      }
    }
  }

  private static void flatten(ObjectNode request) {
    JsonNode exactly = request.remove("exactly");
    if (exactly instanceof ObjectNode e) {
      for (Map.Entry<String, JsonNode> p : e.properties()) {
        request.set(p.getKey(), p.getValue());
      }
    }
  }

  private static void nestExactly(ObjectNode request) {
    if (request.has("exactly") || request.has("firstAvailable")) {
      return;
    }
    ObjectNode exactly = JsonNodeFactory.instance.objectNode();
    for (String f : fieldsExcept(request, "name")) {
      exactly.set(f, request.remove(f));
    }
    request.set("exactly", exactly);
  }

  private static List<String> fieldsExcept(ObjectNode o, String keep) {
    List<String> names = new ArrayList<>();
    for (String n : o.propertyNames()) {
      if (!n.equals(keep)) {
        names.add(n);
      }
    }
    return names;
  }
}
