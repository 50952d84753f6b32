package io.jdra.apiserver.rest;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Cause;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.patch.PatchException;
import io.jdra.apiserver.patch.PatchType;
import io.jdra.apiserver.patch.Patcher;
import io.jdra.apiserver.registry.ResourceType;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/** {@link Patching} with the {@code io.jdra.apiserver.patch} engines. Thread-safe. */
public final class PatcherPatching implements Patching {
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
    PatchType pt =
        PatchType.byContentType(contentType)
            .orElseThrow(() -> ApiException.unsupportedMediaType(contentType, supportedTypes()));
    try {
      if (pt == PatchType.APPLY_PATCH_YAML) {
        return Patcher.apply(
            apiVersion, type.kind(), current, body, fieldManager, force, now, subresource);
      }
      if (current == null) {
        throw ApiException.notFound(type, "");
      }
      return Patcher.patch(pt, apiVersion, type.kind(), current, body);
    } catch (PatchException e) {
      throw toApi(type, current, e);
    }
  }

  private static ApiException toApi(ResourceType t, ObjectNode current, PatchException e) {
    List<Cause> causes =
        e.causes().stream()
            .map(c -> new Cause(c.type(), c.message(), c.field().isEmpty() ? null : c.field()))
            .toList();
    String name = current == null ? null : Json.text(current, "metadata.name");
    if (e.code() == 409) {
      return new ApiException(409, e.reason(), e.getMessage(), null, null, null, causes);
    }
    if (e.code() == 422 && !causes.isEmpty()) {
      return new ApiException(422, e.reason(), e.getMessage(), name, t.group(), t.kind(), causes);
    }
    return new ApiException(e.code(), e.reason(), e.getMessage(), null, null, null, causes);
  }

  @Override
  public ObjectNode trackUpdate(
      ResourceType type,
      ObjectNode oldOrNull,
      ObjectNode updated,
      String manager,
      String subresource,
      Instant now) {
    // The registry gives updated up: the stored tree may share its subtrees (no copy).
    return Patcher.trackUpdateSharing(
        type.storageApiVersion(), type.kind(), oldOrNull, updated, manager, now, subresource);
  }

  @Override
  public List<String> supportedTypes() {
    return Arrays.stream(PatchType.values()).map(PatchType::contentType).toList();
  }
}
