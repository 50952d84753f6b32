package io.jdra.apiserver.admission;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.BooleanNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.LongNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Object metadata (and a claim made of metadata alone) read into the fabric8 model by hand, for the
 * claim writes every scheduled pod causes: the create's metadata, the finalizer Update's written
 * and stored metadata. As {@link ClaimStatusTrees}: only the fields and JSON types read here
 * (managed fields and the rarer fields are not), else null and the caller decodes with Jackson; the
 * model is then the one Jackson builds ({@code MetaTreesTest} compares the two).
 */
final class MetaTrees {
  private MetaTrees() {}

  /** Thrown inside a read to give up on the tree; no stack trace (it is control flow). */
  private static final class Unread extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unread() {
      super(null, null, false, false);
    }
  }

  private static final Unread UNREAD = new Unread();

  /** The metadata, or null when the tree is not of the shape read here. */
  static ObjectMeta meta(JsonNode tree) {
    if (!(tree instanceof ObjectNode o)) {
      return null;
    }
    try {
      return meta(o);
    } catch (Unread e) {
      return null;
    }
  }

  /**
   * A claim of apiVersion, kind and metadata only (a create's claim without its spec), or null when
   * the tree holds anything else.
   */
  static ResourceClaim claim(ObjectNode tree) {
    try {
      ResourceClaim c = new ResourceClaim();
      for (Map.Entry<String, JsonNode> e : tree.properties()) {
        JsonNode v = e.getValue();
        switch (e.getKey()) {
          case "apiVersion" -> c.setApiVersion(string(v));
          case "kind" -> c.setKind(string(v));
          case "metadata" -> c.setMetadata(meta(object(v)));
          default -> throw UNREAD;
        }
      }
      return c;
    } catch (Unread e) {
      return null;
    }
  }

  private static ObjectMeta meta(ObjectNode o) {
    ObjectMeta m = new ObjectMeta();
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      JsonNode v = e.getValue();
      switch (e.getKey()) {
        case "name" -> m.setName(string(v));
        case "generateName" -> m.setGenerateName(string(v));
        case "namespace" -> m.setNamespace(string(v));
        case "uid" -> m.setUid(string(v));
        case "resourceVersion" -> m.setResourceVersion(string(v));
        case "generation" -> m.setGeneration(integer(v));
        case "creationTimestamp" -> m.setCreationTimestamp(string(v));
        case "deletionTimestamp" -> m.setDeletionTimestamp(string(v));
        case "deletionGracePeriodSeconds" -> m.setDeletionGracePeriodSeconds(integer(v));
        case "labels" -> m.setLabels(strings(object(v)));
        case "annotations" -> m.setAnnotations(strings(object(v)));
        case "finalizers" -> m.setFinalizers(stringList(v));
        case "ownerReferences" -> m.setOwnerReferences(owners(v));
        default -> throw UNREAD;
      }
    }
    return m;
  }

  private static List<OwnerReference> owners(JsonNode n) {
    if (!(n instanceof ArrayNode a)) {
      throw UNREAD;
    }
    List<OwnerReference> out = new ArrayList<>(a.size());
    for (JsonNode item : a) {
      OwnerReference r = new OwnerReference();
      for (Map.Entry<String, JsonNode> e : object(item).properties()) {
        JsonNode v = e.getValue();
        switch (e.getKey()) {
          case "apiVersion" -> r.setApiVersion(string(v));
          case "kind" -> r.setKind(string(v));
          case "name" -> r.setName(string(v));
          case "uid" -> r.setUid(string(v));
          case "controller" -> r.setController(bool(v));
          case "blockOwnerDeletion" -> r.setBlockOwnerDeletion(bool(v));
          default -> throw UNREAD;
        }
      }
      out.add(r);
    }
    return out;
  }

  /** A map of strings, in the object's order (Jackson's map is a LinkedHashMap too). */
  private static Map<String, String> strings(ObjectNode o) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      out.put(e.getKey(), string(e.getValue()));
    }
    return out;
  }

  private static List<String> stringList(JsonNode n) {
    if (!(n instanceof ArrayNode a)) {
      throw UNREAD;
    }
    List<String> out = new ArrayList<>(a.size());
    for (JsonNode item : a) {
      out.add(string(item));
    }
    return out;
  }

  private static ObjectNode object(JsonNode n) {
    if (n instanceof ObjectNode o) {
      return o;
    }
    throw UNREAD;
  }

  private static String string(JsonNode n) {
    if (n instanceof StringNode s) {
      return s.stringValue();
    }
    throw UNREAD;
  }

  private static Long integer(JsonNode n) {
    if (n instanceof IntNode || n instanceof LongNode) {
      return n.longValue();
    }
    throw UNREAD;
  }

  private static Boolean bool(JsonNode n) {
    if (n instanceof BooleanNode b) {
      return b.booleanValue();
    }
    throw UNREAD;
  }
}
