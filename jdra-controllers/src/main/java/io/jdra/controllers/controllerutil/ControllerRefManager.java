package io.jdra.controllers.controllerutil;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Adoption and release by controller owner reference (upstream's {@code BaseControllerRefManager}
 * and {@code PodControllerRefManager}/{@code ReplicaSetControllerRefManager}): of the candidate
 * objects, a controller claims those it owns and its selector matches; it releases those it owns
 * that no longer match, and adopts orphans that match, unless it is being deleted itself.
 *
 * <p>Before the first adoption the controller is read again from the API server (upstream's {@code
 * RecheckDeletionTimestamp}), so a controller deleted or recreated under the same name since the
 * cache saw it adopts nothing. One instance serves one sync; not thread-safe.
 */
public final class ControllerRefManager<T extends HasMetadata> {
  /** Patches a dependent (strategic merge patch JSON) and returns the result. */
  @FunctionalInterface
  public interface Patcher<T> {
    T patch(T obj, String strategicMergePatch);
  }

  private final HasMetadata controller;
  private final Predicate<T> match;
  private final Supplier<HasMetadata> fresh;
  private final Patcher<T> patcher;
  private final String finalizer;
  private RuntimeException canAdoptError;
  private boolean canAdoptChecked;

  /**
   * @param controller the owner as cached
   * @param match whether a dependent belongs to the controller (its selector, plus filters)
   * @param fresh reads the controller from the API server (null when it is gone)
   * @param patcher writes owner reference patches
   */
  public ControllerRefManager(
      HasMetadata controller, Predicate<T> match, Supplier<HasMetadata> fresh, Patcher<T> patcher) {
    this(controller, match, fresh, patcher, null);
  }

  /**
   * As above; {@code finalizer} (upstream's {@code finalizers} of {@code
   * NewPodControllerRefManager}, the Job's tracking finalizer) is added on adoption and removed on
   * release.
   */
  public ControllerRefManager(
      HasMetadata controller,
      Predicate<T> match,
      Supplier<HasMetadata> fresh,
      Patcher<T> patcher,
      String finalizer) {
    this.controller = controller;
    this.match = match;
    this.fresh = fresh;
    this.patcher = patcher;
    this.finalizer = finalizer;
  }

  /** The claimed objects, and the errors of adoptions and releases that failed. */
  public record Claimed<T>(List<T> objects, List<RuntimeException> errors) {
    /** Upstream returns the claimed objects and an aggregate error; null when none failed. */
    public RuntimeException error() {
      if (errors.isEmpty()) {
        return null;
      }
      RuntimeException e =
          new IllegalStateException(
              String.join(", ", errors.stream().map(ApiErrors::message).toList()));
      errors.forEach(e::addSuppressed);
      return e;
    }
  }

  /** Upstream's {@code ClaimObject} for each candidate. */
  public Claimed<T> claim(List<T> candidates) {
    List<T> claimed = new ArrayList<>();
    List<RuntimeException> errors = new ArrayList<>();
    for (T obj : candidates) {
      try {
        T owned = claimObject(obj);
        if (owned != null) {
          claimed.add(owned);
        }
      } catch (RuntimeException e) {
        errors.add(e);
      }
    }
    return new Claimed<>(claimed, errors);
  }

  private T claimObject(T obj) {
    OwnerReference ref = OwnerRefs.controllerOf(obj);
    if (ref != null) {
      if (!ref.getUid().equals(controller.getMetadata().getUid())) {
        return null; // someone else's
      }
      if (match.test(obj)) {
        return obj;
      }
      if (controller.getMetadata().getDeletionTimestamp() == null) {
        release(obj);
      }
      return null;
    }
    if (controller.getMetadata().getDeletionTimestamp() != null
        || !match.test(obj)
        || obj.getMetadata().getDeletionTimestamp() != null
        || !sameNamespace(obj)) {
      return null;
    }
    return adopt(obj);
  }

  private boolean sameNamespace(T obj) {
    String ns = controller.getMetadata().getNamespace();
    return ns == null || ns.isEmpty() || ns.equals(obj.getMetadata().getNamespace());
  }

  private T adopt(T obj) {
    canAdopt(obj);
    String patch =
        "{\"metadata\":{\"ownerReferences\":["
            + refJson(OwnerRefs.newControllerRef(controller))
            + "],\"uid\":\""
            + obj.getMetadata().getUid()
            + "\""
            + (finalizer == null ? "" : ",\"finalizers\":[\"" + finalizer + "\"]")
            + "}}";
    try {
      return patcher.patch(obj, patch);
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return null;
      }
      throw e;
    }
  }

  private void release(T obj) {
    String patch =
        "{\"metadata\":{\"ownerReferences\":[{\"$patch\":\"delete\",\"uid\":\""
            + controller.getMetadata().getUid()
            + "\"}],\"uid\":\""
            + obj.getMetadata().getUid()
            + "\""
            + (finalizer == null
                ? ""
                : ",\"$deleteFromPrimitiveList/finalizers\":[\"" + finalizer + "\"]")
            + "}}";
    try {
      patcher.patch(obj, patch);
    } catch (KubernetesClientException e) {
      // Gone, or changed so that it is invalid: either way it is not ours any more (upstream).
      if (e.getCode() != 404 && e.getCode() != 422) {
        throw e;
      }
    }
  }

  private void canAdopt(T obj) {
    if (!canAdoptChecked) {
      canAdoptChecked = true;
      canAdoptError = recheck();
    }
    if (canAdoptError != null) {
      throw new IllegalStateException(
          "can't adopt "
              + HasMetadata.getKind(obj.getClass())
              + " "
              + obj.getMetadata().getNamespace()
              + "/"
              + obj.getMetadata().getName()
              + " ("
              + obj.getMetadata().getUid()
              + "): "
              + canAdoptError.getMessage());
    }
  }

  private RuntimeException recheck() {
    HasMetadata now = fresh.get();
    String what =
        HasMetadata.getKind(controller.getClass())
            + " "
            + controller.getMetadata().getNamespace()
            + "/"
            + controller.getMetadata().getName();
    if (now == null) {
      return new IllegalStateException("original " + what + " is gone");
    }
    if (!now.getMetadata().getUid().equals(controller.getMetadata().getUid())) {
      return new IllegalStateException(
          "original "
              + what
              + " is gone: got uid "
              + now.getMetadata().getUid()
              + ", wanted "
              + controller.getMetadata().getUid());
    }
    if (now.getMetadata().getDeletionTimestamp() != null) {
      return new IllegalStateException(
          what + " has just been deleted at " + now.getMetadata().getDeletionTimestamp());
    }
    return null;
  }

  private static String refJson(OwnerReference r) {
    return "{\"apiVersion\":\""
        + r.getApiVersion()
        + "\",\"kind\":\""
        + r.getKind()
        + "\",\"name\":\""
        + r.getName()
        + "\",\"uid\":\""
        + r.getUid()
        + "\",\"controller\":true,\"blockOwnerDeletion\":true}";
  }
}
