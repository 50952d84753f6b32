package io.jdra.api.strategy;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.jdra.api.features.FeatureGates;
import java.util.Objects;

/**
 * What the API server does to a ResourceClaimTemplate write before validating and storing it
 * (upstream {@code resourceclaimtemplate/strategy.go}): only disabled fields of the claim spec are
 * dropped. Pure functions returning new objects; stateless and thread-safe.
 */
public final class ResourceClaimTemplateStrategy {
  private ResourceClaimTemplateStrategy() {}

  /** Create: disabled claim-spec fields are dropped. */
  public static ResourceClaimTemplate prepareForCreate(
      ResourceClaimTemplate template, FeatureGates gates) {
    Objects.requireNonNull(template, "template");
    return DropDisabledFields.forCreate(template, gates);
  }

  /** Update: disabled claim-spec fields are dropped unless the stored template used them. */
  public static ResourceClaimTemplate prepareForUpdate(
      ResourceClaimTemplate template, ResourceClaimTemplate old, FeatureGates gates) {
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(old, "old");
    return DropDisabledFields.forUpdate(template, old, gates);
  }
}
