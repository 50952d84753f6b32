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

  /**
   * {@link #resetForStatus} on {@code meta} itself (a new one when null), which then shares the
   * stored lists and maps with {@code old}; neither may be modified afterwards.
   */
  static ObjectMeta resetForStatusInPlace(ObjectMeta meta, ObjectMeta old) {
    ObjectMeta m = meta == null ? new ObjectMeta() : meta;
    ObjectMeta o = old == null ? new ObjectMeta() : old;
    m.setDeletionTimestamp(o.getDeletionTimestamp());
    m.setGeneration(o.getGeneration());
    m.setSelfLink(o.getSelfLink());
    m.setLabels(o.getLabels());
    m.setAnnotations(o.getAnnotations());
    m.setFinalizers(o.getFinalizers());
    m.setOwnerReferences(o.getOwnerReferences());
    return m;
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
