package io.jdra.apiserver.registry;

import tools.jackson.databind.node.ObjectNode;

/**
 * What one kind does beyond the generic registry, in one place, as upstream's per-kind strategy
 * ({@code pkg/registry/GROUP/KIND/strategy.go}): what the server sets on create, what an update of
 * the main resource may not change, what holds a deletion and how long a graceful one takes, and
 * the default propagation policy. The generic rules ({@link #GENERIC}) suit most kinds. Objects are
 * in the storage version; implementations are stateless and thread-safe.
 */
public interface KindRules {
  /** The generic registry's rules. */
  KindRules GENERIC = new KindRules() {};

  /**
   * Sets what the server owns on create. Default: a kind with a status subresource starts without
   * status (its controllers write it).
   */
  default void prepareForCreate(ResourceType t, ObjectNode obj) {
    if (t.hasStatus()) {
      obj.remove("status");
    }
  }

  /**
   * Puts back what an update of the main resource may not change, after the generic rules (status
   * and immutable metadata kept). Default: nothing more. {@code old} is only read (shared with
   * other writes): what is taken from it is copied.
   */
  default void prepareForUpdate(ObjectNode next, ObjectNode old) {}

  /**
   * Whether the object's deletion waits on something other than {@code metadata.finalizers}, e.g. a
   * namespace's {@code spec.finalizers}, a pod running on a node. Default: no.
   */
  default boolean holdsDeletion(ObjectNode obj) {
    return false;
  }

  /** Marks the object as being deleted beyond {@code deletionTimestamp}. Default: nothing. */
  default void startDeletion(ObjectNode obj) {}

  /**
   * The grace period of deleting the object now, or null when it is not deleted gracefully (it goes
   * at once unless finalizers hold it). Default: null.
   *
   * @param requested the delete's {@code gracePeriodSeconds}, or null
   */
  default Long gracePeriodSeconds(ObjectNode obj, Long requested) {
    return null;
  }

  /** The propagation policy of a delete that names none; null for Background. */
  default String defaultPropagationPolicy() {
    return null;
  }
}
