package io.jdra.allocator;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Looks up DeviceClasses by name (an informer cache in the scheduler). Must be thread-safe. */
@FunctionalInterface
public interface DeviceClassLister {
  /** The class with this name, if it exists. */
  Optional<DeviceClass> get(String name);

  /** A fixed set of classes. */
  static DeviceClassLister of(Collection<DeviceClass> classes) {
    Map<String, DeviceClass> byName = new LinkedHashMap<>();
    for (DeviceClass c : classes) {
      byName.put(c.getMetadata().getName(), c);
    }
    Map<String, DeviceClass> copy = Map.copyOf(byName);
    return name -> Optional.ofNullable(copy.get(name));
  }
}
