package io.jdra.apiserver.rest;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.registry.ResourceType;
import java.time.Instant;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * Applies PATCH bodies to the current object. Implementations are thread-safe and pure (no I/O).
 */
public interface Patching {

  /**
   * Returns the patched object (a new tree or {@code current} modified).
   *
   * @param contentType the request's media type, e.g. {@code application/merge-patch+json}
   * @param apiVersion the apiVersion the client speaks
   * @param current the current object in that version (may be null for server-side apply of a new
   *     object)
   * @param subresource "" for the object itself, else the subresource patched ({@code status}):
   *     server-side apply records the applier's fields under it, as upstream's field manager does
   * @throws ApiException 415 for unsupported patch types, 422/400/409 for bad patches
   */
  ObjectNode patch(
      String contentType,
      ResourceType type,
      String apiVersion,
      ObjectNode current,
      byte[] body,
      String fieldManager,
      boolean force,
      Instant now,
      String subresource);

  /**
   * Records an ordinary write of {@code manager} in metadata.managedFields; returns the object to
   * store, which may share {@code updated}'s subtrees (the caller gives it up). The default changes
   * nothing.
   */
  default ObjectNode trackUpdate(
      ResourceType type,
      ObjectNode oldOrNull,
      ObjectNode updated,
      String manager,
      String subresource,
      Instant now) {
    return updated;
  }

  /** Patch media types the server accepts. */
  List<String> supportedTypes();

  /** No patch support: every PATCH gets 415. */
  Patching NONE =
      new Patching() {
        @Override
        public ObjectNode patch(
            String contentType,
            ResourceType type,
            String apiVersion,
            ObjectNode current,
            byte[] body,
            String fieldManager,
            boolean force,
            Instant now,
            String subresource) {
          throw ApiException.unsupportedMediaType(contentType, supportedTypes());
        }

        @Override
        public List<String> supportedTypes() {
          return List.of();
        }
      };
}
