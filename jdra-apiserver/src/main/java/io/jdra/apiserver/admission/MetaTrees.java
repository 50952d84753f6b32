package io.jdra.apiserver.admission;

import static io.jdra.apiserver.admission.TreeReads.bool;
import static io.jdra.apiserver.admission.TreeReads.integer;
import static io.jdra.apiserver.admission.TreeReads.list;
import static io.jdra.apiserver.admission.TreeReads.object;
import static io.jdra.apiserver.admission.TreeReads.read;
import static io.jdra.apiserver.admission.TreeReads.string;
import static io.jdra.apiserver.admission.TreeReads.strings;
import static io.jdra.apiserver.admission.TreeReads.unread;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Object metadata (and a claim made of metadata alone) read into the fabric8 model by hand, for the
 * claim writes every scheduled pod causes: the create's metadata, the finalizer Update's written
 * and stored metadata. As {@link ClaimStatusTrees}: only the fields and JSON types read here
 * (managed fields and the rarer fields are not), else null and the caller decodes with Jackson; the
 * model is then the one Jackson builds ({@code MetaTreesTest} compares the two).
 */
final class MetaTrees {
  private MetaTrees() {}

  /** The metadata, or null when the tree is not of the shape read here. */
  static ObjectMeta meta(JsonNode tree) {
    return tree instanceof ObjectNode o ? read(o, MetaTrees::meta) : null;
  }

  /**
   * A claim of apiVersion, kind and metadata only (a create's claim without its spec), or null when
   * the tree holds anything else.
   */
  static ResourceClaim claim(ObjectNode tree) {
    return read(tree, MetaTrees::claimOf);
  }

  private static ResourceClaim claimOf(ObjectNode tree) {
    ResourceClaim c = new ResourceClaim();
    for (Map.Entry<String, JsonNode> e : tree.properties()) {
      JsonNode v = e.getValue();
      switch (e.getKey()) {
        case "apiVersion" -> c.setApiVersion(string(v));
        case "kind" -> c.setKind(string(v));
        case "metadata" -> c.setMetadata(meta(object(v)));
        default -> throw unread();
      }
    }
    return c;
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
        case "finalizers" -> m.setFinalizers(list(v, TreeReads::string));
        case "ownerReferences" -> m.setOwnerReferences(owners(v));
        default -> throw unread();
      }
    }
    return m;
  }

  private static List<OwnerReference> owners(JsonNode n) {
    if (!(n instanceof ArrayNode a)) {
      throw unread();
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
          default -> throw unread();
        }
      }
      out.add(r);
    }
    return out;
  }
}
