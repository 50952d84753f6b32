package io.jdra.controllers.controllerutil;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;

/** Controller owner references ({@code metav1.GetControllerOf}, {@code NewControllerRef}). */
public final class OwnerRefs {
  private OwnerRefs() {}

  /** The owner reference with {@code controller: true}, or null. */
  public static OwnerReference controllerOf(HasMetadata obj) {
    if (obj.getMetadata().getOwnerReferences() == null) {
      return null;
    }
    for (OwnerReference r : obj.getMetadata().getOwnerReferences()) {
      if (Boolean.TRUE.equals(r.getController())) {
        return r;
      }
    }
    return null;
  }

  /**
   * A controller reference to {@code owner}, blocking its foreground deletion as upstream. The
   * group, version and kind come from the model class: objects listed from the API server need not
   * carry them.
   */
  public static OwnerReference newControllerRef(HasMetadata owner) {
    return new OwnerReferenceBuilder()
        .withApiVersion(HasMetadata.getApiVersion(owner.getClass()))
        .withKind(HasMetadata.getKind(owner.getClass()))
        .withName(owner.getMetadata().getName())
        .withUid(owner.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }
}
