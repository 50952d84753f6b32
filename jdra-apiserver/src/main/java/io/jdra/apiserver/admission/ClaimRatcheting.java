package io.jdra.apiserver.admission;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import io.jdra.api.strategy.AdminAccessCheck;
import io.jdra.api.strategy.ResourceClaimStrategy;
import io.jdra.api.validation.FieldError;
import io.jdra.api.validation.Validation;
import io.jdra.apiserver.admission.Admission.Request;
import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Admission of the two claim updates every scheduled pod causes, decoding only the part of the
 * claim the write changes (as upstream's validation ratchets fields that did not change): the
 * scheduler's finalizer Update changes only metadata, its UpdateStatus only the status. Each method
 * returns null when its precondition does not hold; {@link DraAdmission} then admits the whole
 * decoded claim. The results (errors and the admitted tree) are those of the whole-claim path,
 * which {@code ClaimRatchetingTest} checks case by case, with one difference: a status write leaves
 * the stored metadata as stored, where the whole-claim path re-encodes it (and so drops an empty
 * list or map a create may have stored, as upstream never stores one).
 */
final class ClaimRatcheting {
  private ClaimRatcheting() {}

  /**
   * A main-resource update whose spec and status are the stored ones. Defaulting and the strategy
   * cannot change them: the stored spec is defaulted, the status is the stored one (the registry
   * keeps it), and disabled fields are dropped only when the stored claim did not use them.
   * Validation then checks the metadata only (the spec is immutable and equal), so only the
   * metadata is decoded, validated and written back.
   */
  static List<FieldError> metadataWrite(Request r) {
    return metadataWrite(r, false);
  }

  /**
   * As {@link #metadataWrite(Request)}; with {@code share} the spec and status written are the
   * stored ones themselves, not copies (the stored tree is never changed, and nothing after this
   * admission changes a claim's spec or status in place): the same bytes, and the registry's
   * managed-fields comparison skips them as identical.
   */
  static List<FieldError> metadataWrite(Request r, boolean share) {
    ObjectNode obj = r.object();
    ObjectNode old = r.oldObject();
    if (old == null
        || !Json.sameValue(obj.get("spec"), old.get("spec"))
        || !Json.sameValue(obj.get("status"), old.get("status"))) {
      return null;
    }
    JsonNode managed = Json.at(obj, "metadata.managedFields");
    // The managed fields are most of a claim's metadata; the stored ones are the server's own, so
    // when the write carries them unchanged they are neither decoded, checked nor re-encoded.
    boolean storedManaged = Json.sameValue(managed, Json.at(old, "metadata.managedFields"));
    JsonNode written = storedManaged ? without(obj.get("metadata"), MANAGED) : obj.get("metadata");
    // Validation changes nothing: encoding the decoded metadata again gives the same values
    // unless the tree holds what encoding drops or rewrites (nulls, empty lists or maps,
    // fractions).
    boolean reencode = !(written instanceof ObjectNode) || !encoded(written);
    // Only decoded to be checked (not written back): fields the stored object passed are left out.
    JsonNode checked = share && !reencode ? withoutStored(written, old.get("metadata")) : written;
    ResourceClaim claim = new ResourceClaim();
    claim.setMetadata(readMeta(checked));
    ResourceClaim stored = new ResourceClaim();
    stored.setMetadata(readMeta(only(old.get("metadata"), UPDATE_READS)));
    List<FieldError> errs = Validation.validateResourceClaimUpdate(claim, stored);
    keepStored(obj, old, "spec", share);
    keepStored(obj, old, "status", share);
    if (reencode) {
      DraAdmission.writeField(obj, "metadata", claim.getMetadata());
      if (storedManaged && managed != null && obj.get("metadata") instanceof ObjectNode m) {
        m.set(MANAGED, managed);
      }
    }
    if (share && storedManaged && managed != null && obj.get("metadata") instanceof ObjectNode m) {
      // the stored entries themselves: the field manager then writes their encoding again
      m.set(MANAGED, Json.at(old, "metadata.managedFields"));
    }
    return errs;
  }

  private static final String MANAGED = "managedFields";

  /**
   * Metadata fields whose rules read the field alone (MetaValidation's label, annotation and owner
   * reference checks), on the new object only.
   */
  private static final List<String> SELF_CHECKED =
      List.of("labels", "annotations", "ownerReferences");

  /**
   * The written metadata without the {@link #SELF_CHECKED} fields that equal the stored ones (the
   * same values decode to the same models): the stored object passed their rules when it was
   * written, so they can add no error. Only for the built-in admission chain ({@code share}), where
   * every stored claim went through this admission; errors are those of the whole metadata ({@code
   * ClaimRatchetingTest}). A shallow copy, or the metadata itself when nothing is left out.
   */
  static JsonNode withoutStored(JsonNode written, JsonNode stored) {
    if (!(written instanceof ObjectNode w) || !(stored instanceof ObjectNode s)) {
      return written;
    }
    ObjectNode copy = null;
    for (String f : SELF_CHECKED) {
      JsonNode v = w.get(f);
      if (v != null && Json.sameValue(v, s.get(f))) {
        if (copy == null) {
          copy = Json.object();
          copy.setAll(w);
        }
        copy.remove(f);
      }
    }
    return copy == null ? written : copy;
  }

  /**
   * The fields of the stored metadata that the metadata rules of an update read
   * (MetaValidation.validateObjectMetaUpdate): the immutable ones, the generation, and the
   * finalizers while the object is being deleted. The rest (labels, annotations, owner references,
   * managed fields) is only checked on the new object, so it is not decoded.
   */
  private static final List<String> UPDATE_READS =
      List.of(
          "name",
          "namespace",
          "uid",
          "generation",
          "creationTimestamp",
          "deletionTimestamp",
          "deletionGracePeriodSeconds",
          "finalizers");

  /**
   * A shallow copy of an object with only the given fields (the node itself when not an object).
   */
  private static JsonNode only(JsonNode node, List<String> fields) {
    if (!(node instanceof ObjectNode o)) {
      return node;
    }
    ObjectNode copy = Json.object();
    for (String f : fields) {
      JsonNode v = o.get(f);
      if (v != null) {
        copy.set(f, v);
      }
    }
    return copy;
  }

  /** A shallow copy of an object without one field (the original when it lacks the field). */
  private static JsonNode without(JsonNode node, String field) {
    if (!(node instanceof ObjectNode o) || !o.has(field)) {
      return node;
    }
    ObjectNode copy = Json.object();
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      if (!e.getKey().equals(field)) {
        copy.set(e.getKey(), e.getValue());
      }
    }
    return copy;
  }

  /**
   * A {@code /status} write whose spec and metadata (but its resourceVersion) are the stored ones,
   * as the registry makes them for every status write. The metadata rules of status validation
   * cannot fail on the stored metadata, so only the spec (which the status is checked against) and
   * both statuses are decoded, and only the status is written back.
   */
  static List<FieldError> statusWrite(Request r, FeatureGates gates) {
    return statusWrite(r, gates, null);
  }

  /**
   * As {@link #statusWrite(Request, FeatureGates)}, taking the decoded stored spec from {@code
   * specs} (null: decode it): a claim's spec never changes after its create, and the claims of one
   * template share it. The spec is only read here (the status strategy copies it).
   */
  static List<FieldError> statusWrite(
      Request r, FeatureGates gates, DecodedSpecs<ResourceClaimSpec> specs) {
    return statusWrite(r, gates, specs, false);
  }

  /** As above; {@code share} as for {@link #metadataWrite(Request, boolean)}. */
  static List<FieldError> statusWrite(
      Request r, FeatureGates gates, DecodedSpecs<ResourceClaimSpec> specs, boolean share) {
    return statusWrite(r, gates, specs, share, null);
  }

  /**
   * As above, taking the stored status decoded from {@code statuses} when an earlier status write
   * kept it there (null: decode it), and, with {@code share}, keeping there the status this write
   * stores as sent.
   */
  static List<FieldError> statusWrite(
      Request r,
      FeatureGates gates,
      DecodedSpecs<ResourceClaimSpec> specs,
      boolean share,
      StoredStatuses statuses) {
    ObjectNode obj = r.object();
    ObjectNode old = r.oldObject();
    if (old == null
        || !Json.sameValue(obj.get("spec"), old.get("spec"))
        || !sameExcept(obj.get("metadata"), old.get("metadata"), "resourceVersion")) {
      return null;
    }
    JsonNode storedSpec = old.get("spec");
    ResourceClaimSpec spec =
        specs == null || !(storedSpec instanceof ObjectNode)
            ? read(storedSpec, ResourceClaimSpec.class)
            : specs.get(storedSpec, t -> read(t, ResourceClaimSpec.class));
    ResourceClaim claim = claim(old, spec, readStatus(obj.get("status")));
    ResourceClaim stored = claim(old, spec, storedStatus(old.get("status"), statuses));
    claim = ResourceClaimStrategy.prepareForStatusUpdateInPlace(claim, stored, gates);
    String ns = claim.getMetadata().getNamespace();
    List<FieldError> errs =
        new ArrayList<>(
            AdminAccessCheck.resourceClaimStatusUpdate(
                claim, stored, namespace -> r.namespaceLabels().apply(ns)));
    errs.addAll(Validation.validateResourceClaimStatusChange(claim, stored));
    keepStored(obj, old, "spec", share);
    JsonNode status = obj.get("status");
    if (!strategyKeeps(status, gates)) {
      // (a release writes empty lists, which encoding drops: then the empty status's tree)
      DraAdmission.writeStatus(obj, claim.getStatus());
    } else if (share && statuses != null && status != null && errs.isEmpty()) {
      // stored as sent: the claim's next status write reads this tree as the stored status (the
      // strategy kept the model as decoded, and validation only reads it)
      statuses.put(status, claim.getStatus());
    }
    return errs;
  }

  private static ResourceClaimStatus storedStatus(JsonNode tree, StoredStatuses statuses) {
    ResourceClaimStatus kept = statuses == null ? null : statuses.find(tree);
    if (kept != null) {
      assert Json.MAPPER
              .valueToTree(kept)
              .equals(Json.MAPPER.valueToTree(read(tree, ResourceClaimStatus.class)))
          : "a kept status differs from its tree";
      return kept;
    }
    return readStatus(tree);
  }

  /**
   * A metadata tree decoded: by hand when it holds only the fields {@link MetaTrees} reads, else
   * through Jackson. With assertions on, the two are compared.
   */
  static ObjectMeta readMeta(JsonNode tree) {
    return TreeReads.orJackson(MetaTrees.meta(tree), () -> read(tree, ObjectMeta.class));
  }

  /**
   * A status tree decoded: by hand when it has the shape of an allocating status write ({@link
   * ClaimStatusTrees}), else through Jackson. With assertions on, the two are compared.
   */
  static ResourceClaimStatus readStatus(JsonNode tree) {
    return TreeReads.orJackson(
        ClaimStatusTrees.status(tree), () -> read(tree, ResourceClaimStatus.class));
  }

  /**
   * Whether the status strategy leaves this status as it is, so that encoding it again would give
   * the same tree: the gates of every status field it may drop are on, there are no device statuses
   * (the only entries it removes then), and the tree is already in the form encoding gives (no
   * nulls, no empty lists or maps, no fractions).
   */
  private static boolean strategyKeeps(JsonNode status, FeatureGates gates) {
    for (Feature f : STATUS_GATES) {
      if (!gates.enabled(f)) {
        return false;
      }
    }
    return (status == null || !status.has("devices")) && encoded(status);
  }

  private static final List<Feature> STATUS_GATES =
      List.of(
          Feature.DRA_RESOURCE_CLAIM_DEVICE_STATUS,
          Feature.DRA_ADMIN_ACCESS,
          Feature.DRA_CONSUMABLE_CAPACITY,
          Feature.DRA_DEVICE_BINDING_CONDITIONS);

  private static boolean encoded(JsonNode n) {
    if (n == null) {
      return true;
    }
    if (n.isNull() || n.isFloatingPointNumber()) {
      return false;
    }
    if (n.isContainer()) {
      if (n.isEmpty()) {
        return false;
      }
      for (JsonNode child : n.values()) {
        if (!encoded(child)) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * A claim with the stored metadata that status admission reads (name, namespace, deletion
   * timestamp), the given spec and status.
   */
  private static ResourceClaim claim(
      ObjectNode stored, ResourceClaimSpec spec, ResourceClaimStatus status) {
    ObjectMeta meta = new ObjectMeta();
    meta.setName(Json.text(stored, "metadata.name"));
    meta.setNamespace(Json.text(stored, "metadata.namespace"));
    meta.setDeletionTimestamp(Json.text(stored, "metadata.deletionTimestamp"));
    ResourceClaim c = new ResourceClaim();
    c.setMetadata(meta);
    c.setSpec(spec);
    c.setStatus(status);
    return c;
  }

  /**
   * Replaces a field equal by value to the stored one with the stored one ({@code share}) or a copy
   * of it (the form the whole-claim path writes back), unless it already is identical (or, without
   * {@code share}, equal).
   */
  private static void keepStored(ObjectNode obj, ObjectNode old, String field, boolean share) {
    JsonNode stored = old.get(field);
    JsonNode written = obj.get(field);
    if (stored == null) {
      obj.remove(field);
    } else if (share) {
      if (written != stored) {
        obj.set(field, stored);
      }
    } else if (!stored.equals(written)) {
      obj.set(field, stored.deepCopy());
    }
  }

  /** Whether two objects are equal by value apart from one field. */
  static boolean sameExcept(JsonNode a, JsonNode b, String ignored) {
    if (!(a instanceof ObjectNode x) || !(b instanceof ObjectNode y)) {
      return Json.sameValue(a, b);
    }
    int compared = 0;
    for (Map.Entry<String, JsonNode> e : x.properties()) {
      if (e.getKey().equals(ignored)) {
        continue;
      }
      compared++;
      if (!Json.sameValue(e.getValue(), y.get(e.getKey()))) {
        return false;
      }
    }
    return compared == y.size() - (y.has(ignored) ? 1 : 0);
  }

  private static <T> T read(JsonNode node, Class<T> type) {
    if (node == null || node.isNull()) {
      return null;
    }
    try {
      return Json.treeToValue(node, type);
    } catch (JacksonException e) {
      throw ApiException.badRequest(
          "ResourceClaim in version \"v1\" cannot be handled as a ResourceClaim: "
              + e.getOriginalMessage());
    }
  }
}
