package io.jdra.api.strategy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.jdra.api.features.FeatureGates;
import java.util.Objects;

/**
 * What the API server does to a DeviceClass write before validating and storing it (upstream {@code
 * deviceclass/strategy.go}). Pure functions returning new objects; stateless and thread-safe.
 */
public final class DeviceClassStrategy {
  private DeviceClassStrategy() {}

  /** Create: generation 1, disabled fields dropped. */
  public static DeviceClass prepareForCreate(DeviceClass deviceClass, FeatureGates gates) {
    Objects.requireNonNull(deviceClass, "deviceClass");
    DeviceClass copy =
        new DeviceClassBuilder(deviceClass)
            .withMetadata(Meta.withGeneration(deviceClass.getMetadata(), 1L))
            .build();
    return DropDisabledFields.forCreate(copy, gates);
  }

  /**
   * Update: disabled fields are dropped unless the stored class used them; then the generation is
   * the stored one plus one when the (dropped) spec differs from the stored spec, else the stored
   * one.
   */
  public static DeviceClass prepareForUpdate(
      DeviceClass deviceClass, DeviceClass old, FeatureGates gates) {
    Objects.requireNonNull(deviceClass, "deviceClass");
    Objects.requireNonNull(old, "old");
    DeviceClass dropped = DropDisabledFields.forUpdate(deviceClass, old, gates);
    Long generation =
        Semantic.equal(old.getSpec(), dropped.getSpec())
            ? (old.getMetadata() == null ? null : old.getMetadata().getGeneration())
            : Long.valueOf(Meta.next(old.getMetadata()));
    dropped.setMetadata(Meta.withGeneration(dropped.getMetadata(), generation));
    return dropped;
  }
}
