package io.jdra.api.strategy;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

/** Object metadata rules shared by the strategies. */
final class Meta {
  private Meta() {}

  /**
   * Upstream {@code metav1.ResetObjectMetaForStatus}: a status write cannot change deletion
   * timestamp, generation, self link, labels, annotations, finalizers or owner references; they are
   * taken from the stored object. Returns a new ObjectMeta.
   */
  static ObjectMeta resetForStatus(ObjectMeta meta, ObjectMeta old) {
    ObjectMetaBuilder b = meta == null ? new ObjectMetaBuilder() : new ObjectMetaBuilder(meta);
    ObjectMeta o = old == null ? new ObjectMeta() : new ObjectMetaBuilder(old).build();
    return b.withDeletionTimestamp(o.getDeletionTimestamp())
        .withGeneration(o.getGeneration())
        .withSelfLink(o.getSelfLink())
        .withLabels(o.getLabels())
        .withAnnotations(o.getAnnotations())
        .withFinalizers(o.getFinalizers())
        .withOwnerReferences(o.getOwnerReferences())
        .build();
  }

  /** A copy of {@code meta} (or a new one) with the given generation. */
  static ObjectMeta withGeneration(ObjectMeta meta, Long generation) {
    ObjectMetaBuilder b = meta == null ? new ObjectMetaBuilder() : new ObjectMetaBuilder(meta);
    return b.withGeneration(generation).build();
  }

  /** Generation of the stored object plus one (upstream: {@code old.Generation + 1}). */
  static long next(ObjectMeta old) {
    Long g = old == null ? null : old.getGeneration();
    return (g == null ? 0L : g) + 1;
  }
}
