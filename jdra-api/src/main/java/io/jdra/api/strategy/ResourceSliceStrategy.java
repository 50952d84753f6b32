package io.jdra.api.strategy;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.jdra.api.features.FeatureGates;
import java.util.Objects;

/**
 * What the API server does to a ResourceSlice write before validating and storing it (upstream
 * {@code resourceslice/strategy.go}). Pure functions returning new objects; stateless and
 * thread-safe. Apply {@link io.jdra.api.defaulting.Defaults#resourceSlice} to the body first.
 */
public final class ResourceSliceStrategy {
  private ResourceSliceStrategy() {}

  /** Create: generation 1, disabled fields dropped. */
  public static ResourceSlice prepareForCreate(ResourceSlice slice, FeatureGates gates) {
    Objects.requireNonNull(slice, "slice");
    ResourceSlice copy =
        new ResourceSliceBuilder(slice)
            .withMetadata(Meta.withGeneration(slice.getMetadata(), 1L))
            .build();
    return DropDisabledFields.forCreate(copy, gates);
  }

  /**
   * Update: the generation is the stored one plus one when the spec changed (compared as sent,
   * before dropping, as upstream), else the stored one; then disabled fields are dropped unless the
   * stored slice used them.
   */
  public static ResourceSlice prepareForUpdate(
      ResourceSlice slice, ResourceSlice old, FeatureGates gates) {
    Objects.requireNonNull(slice, "slice");
    Objects.requireNonNull(old, "old");
    Long generation =
        Semantic.equal(old.getSpec(), slice.getSpec())
            ? generationOf(old)
            : Long.valueOf(Meta.next(old.getMetadata()));
    ResourceSlice copy =
        new ResourceSliceBuilder(slice)
            .withMetadata(Meta.withGeneration(slice.getMetadata(), generation))
            .build();
    return DropDisabledFields.forUpdate(copy, old, gates);
  }

  private static Long generationOf(ResourceSlice old) {
    return old.getMetadata() == null ? null : old.getMetadata().getGeneration();
  }
}
