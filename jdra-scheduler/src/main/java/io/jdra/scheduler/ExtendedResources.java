package io.jdra.scheduler;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.jdra.scheduler.plugins.dynamicresources.DraManager;
import java.util.HashMap;
import java.util.Map;

/**
 * Which extended resource names DeviceClasses map to DRA (DRAExtendedResource): {@code
 * deviceclass.resource.kubernetes.io/<class>} for every class, and a class's {@code
 * spec.extendedResourceName}. NodeResourcesFit leaves such resources to DynamicResources on nodes
 * that do not advertise them. Thread-safe; rebuilt when classes change.
 */
final class ExtendedResources {
  static final String IMPLICIT_PREFIX =
      io.jdra.api.resourceclaim.ResourceClaims.DEVICE_CLASS_RESOURCE_PREFIX;

  private final DraManager dra;
  private final boolean enabled;
  private volatile Map<String, String> byName = Map.of();

  ExtendedResources(DraManager dra, boolean enabled) {
    this.dra = dra;
    this.enabled = enabled;
  }

  void classChanged() {
    Map<String, String> m = new HashMap<>();
    for (DeviceClass c : dra.listClasses()) {
      String name = c.getMetadata().getName();
      m.put(IMPLICIT_PREFIX + name, name);
      if (c.getSpec() != null && c.getSpec().getExtendedResourceName() != null) {
        m.putIfAbsent(c.getSpec().getExtendedResourceName(), name);
      }
    }
    byName = Map.copyOf(m);
  }

  boolean isDraBacked(String resourceName) {
    return classFor(resourceName) != null;
  }

  /** The DeviceClass backing an extended resource, or null (none, or the feature is off). */
  String classFor(String resourceName) {
    return enabled ? byName.get(resourceName) : null;
  }
}
