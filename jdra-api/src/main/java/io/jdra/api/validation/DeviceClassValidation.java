package io.jdra.api.validation;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Checks of a DeviceClass spec: selectors, config, extended resource name. */
final class DeviceClassValidation {
  private DeviceClassValidation() {}

  /** {@code old} is the previous spec on update, else {@code null}. */
  static List<FieldError> spec(
      DeviceClassSpec spec, DeviceClassSpec old, FieldPath path, ValidationOptions opts) {
    DeviceClassSpec s = spec == null ? new DeviceClassSpec() : spec;
    boolean selectorsStored =
        old != null && Objects.equals(Lists.nn(s.getSelectors()), Lists.nn(old.getSelectors()));
    List<FieldError> errs =
        new ArrayList<>(
            DeviceRequestValidation.selectors(
                s.getSelectors(), path.child("selectors"), selectorsStored, opts));
    boolean configStored =
        old != null && Objects.equals(Lists.nn(s.getConfig()), Lists.nn(old.getConfig()));
    errs.addAll(
        Lists.slice(
            s.getConfig(),
            ClaimValidation.CONFIG_MAX,
            (c, p) -> ConfigValidation.opaqueConfig(c.getOpaque(), p, configStored),
            path.child("config")));
    String extended = s.getExtendedResourceName();
    if (extended != null && !isExtendedResourceName(extended)) {
      errs.add(
          FieldError.invalid(
              path.child("extendedResourceName"),
              extended,
              "must be a valid extended resource name"));
    }
    return errs;
  }

  /**
   * Upstream {@code IsExtendedResourceName}: has a domain, not in {@code kubernetes.io}, not
   * prefixed {@code requests.}, and a qualified name once prefixed with {@code requests.}.
   */
  static boolean isExtendedResourceName(String name) {
    boolean native_ = !name.contains("/") || name.contains("kubernetes.io/");
    if (native_ || name.startsWith("requests.")) {
      return false;
    }
    return NameValidation.isQualifiedName("requests." + name).isEmpty();
  }
}
