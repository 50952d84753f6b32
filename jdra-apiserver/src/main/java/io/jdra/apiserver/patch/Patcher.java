package io.jdra.apiserver.patch;

import java.time.Instant;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The patch engines of the API server: JSON patch, JSON merge patch, strategic merge patch,
 * server-side apply and the managedFields bookkeeping of ordinary writes, with kube-apiserver's
 * semantics and error statuses.
 *
 * <p>Stateless and thread-safe. Inputs are never modified; every result is a new object. Errors are
 * {@link PatchException}s carrying the HTTP status the server answers with.
 */
public final class Patcher {
  private Patcher() {}

  /**
   * Applies a JSON, merge or strategic merge patch to current (not modified); returns the patched
   * copy.
   *
   * @param type JSON_PATCH, MERGE_PATCH or STRATEGIC_MERGE_PATCH
   * @param apiVersion the version the request addresses (selects the strategic merge schema)
   * @param kind the kind the request addresses
   * @throws PatchException 400 for a malformed patch, 422 when a JSON patch operation does not
   *     apply, 413 for too many JSON patch operations, 415 for APPLY_PATCH_YAML (use {@link
   *     #apply}) and for strategic merge patches of kinds without a schema
   */
  public static ObjectNode patch(
      PatchType type, String apiVersion, String kind, ObjectNode current, byte[] body)
      throws PatchException {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(current, "current");
    if (type == PatchType.APPLY_PATCH_YAML) {
      throw PatchException.unsupportedMediaType("apply patches go through Patcher.apply");
    }
    JsonNode patch = body == null ? null : Json.parseOrNull(body);
    if (patch == null) {
      throw PatchException.badRequest("invalid JSON patch");
    }
    return switch (type) {
      case JSON_PATCH -> patch.isNull() ? current.deepCopy() : JsonPatch.apply(current, patch);
      case MERGE_PATCH -> MergePatch.apply(current, patch, goKind(apiVersion, kind));
      case STRATEGIC_MERGE_PATCH ->
          patch.isNull()
              ? current.deepCopy()
              : StrategicMergePatch.apply(apiVersion, kind, current, patch);
      case APPLY_PATCH_YAML -> throw new IllegalStateException("unreachable");
    };
  }

  /**
   * Server-side apply; current may be null (create). Returns the new object with
   * metadata.managedFields updated.
   *
   * @throws PatchException 400 for an undecodable body, a wrong apiVersion/kind, managedFields in
   *     the body, undeclared fields or duplicate list-map keys; 409 Conflict listing each
   *     conflicting field and its manager unless force; 422 when fieldManager is empty
   */
  public static ObjectNode apply(
      String apiVersion,
      String kind,
      ObjectNode currentOrNull,
      byte[] body,
      String fieldManager,
      boolean force,
      Instant now)
      throws PatchException {
    return apply(apiVersion, kind, currentOrNull, body, fieldManager, force, now, "");
  }

  /**
   * Server-side apply to a subresource ("" for the main resource, "status"): the managedFields
   * entry records the subresource.
   */
  public static ObjectNode apply(
      String apiVersion,
      String kind,
      ObjectNode currentOrNull,
      byte[] body,
      String fieldManager,
      boolean force,
      Instant now,
      String subresource)
      throws PatchException {
    Objects.requireNonNull(now, "now");
    if (fieldManager == null || fieldManager.isEmpty()) {
      // upstream's ValidatePatchOptions, answered before the body is looked at
      throw PatchException.invalid(
          "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required"
              + " for apply patch",
          java.util.List.of(
              new PatchException.Cause(
                  "FieldValueRequired",
                  "Required value: is required for apply patch",
                  "fieldManager")));
    }
    return FieldManager.apply(
        apiVersion, kind, currentOrNull, body, fieldManager, force, now, subresource);
  }

  /**
   * managedFields bookkeeping for ordinary writes (create/update/non-apply patch) by manager,
   * operation "Update". Returns a copy of updated with metadata.managedFields set; never fails (on
   * undecodable managedFields the live ones are reset, as upstream).
   */
  public static ObjectNode trackUpdate(
      String apiVersion,
      String kind,
      ObjectNode oldOrNull,
      ObjectNode updated,
      String manager,
      Instant now) {
    return trackUpdate(apiVersion, kind, oldOrNull, updated, manager, now, "");
  }

  /**
   * As {@link #trackUpdate(String, String, ObjectNode, ObjectNode, String, Instant)} for a
   * subresource.
   */
  public static ObjectNode trackUpdate(
      String apiVersion,
      String kind,
      ObjectNode oldOrNull,
      ObjectNode updated,
      String manager,
      Instant now,
      String subresource) {
    return track(apiVersion, kind, oldOrNull, updated, manager, now, subresource, true);
  }

  /**
   * As {@link #trackUpdate(String, String, ObjectNode, ObjectNode, String, Instant, String)} for a
   * caller that gives {@code updated} up: the result is {@code updated} with its managedFields
   * replaced in place (or, when its metadata object is {@code oldOrNull}'s, a new root and metadata
   * sharing its values), instead of a copy.
   */
  public static ObjectNode trackUpdateSharing(
      String apiVersion,
      String kind,
      ObjectNode oldOrNull,
      ObjectNode updated,
      String manager,
      Instant now,
      String subresource) {
    return track(apiVersion, kind, oldOrNull, updated, manager, now, subresource, false);
  }

  private static ObjectNode track(
      String apiVersion,
      String kind,
      ObjectNode oldOrNull,
      ObjectNode updated,
      String manager,
      Instant now,
      String subresource,
      boolean copy) {
    Objects.requireNonNull(updated, "updated");
    Objects.requireNonNull(now, "now");
    return FieldManager.trackUpdate(
        apiVersion,
        kind,
        oldOrNull,
        updated,
        manager == null ? "" : manager,
        now,
        subresource,
        copy);
  }

  /** The Go type name upstream's decoding errors print, e.g. v1.Pod. */
  static String goKind(String apiVersion, String kind) {
    String v = apiVersion == null ? "" : apiVersion;
    return v.substring(v.indexOf('/') + 1) + "." + kind;
  }
}
