package io.jdra.apiserver.registry;

import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The resources this server serves, looked up by group, version and plural. Immutable. */
public final class ResourceRegistry {
  private final List<ResourceType> types;
  private final Map<String, ResourceType> byKey = new LinkedHashMap<>();
  private final Map<String, List<String>> groupVersions = new LinkedHashMap<>();

  public ResourceRegistry(List<ResourceType> types) {
    this.types = List.copyOf(types);
    for (ResourceType t : types) {
      byKey.put(t.key(), t);
      List<String> vs = groupVersions.computeIfAbsent(t.group(), g -> new ArrayList<>());
      for (String v : t.versions()) {
        if (!vs.contains(v)) {
          vs.add(v);
        }
      }
    }
  }

  /** The registry with every built-in resource. */
  public static ResourceRegistry builtIn() {
    return new ResourceRegistry(BuiltInResources.all());
  }

  /**
   * The built-in resources plus those a feature gate turns on: scheduling.k8s.io/v1alpha2 Workloads
   * and PodGroups with GenericWorkload.
   */
  public static ResourceRegistry builtIn(FeatureGates gates) {
    List<ResourceType> types = new ArrayList<>(BuiltInResources.all());
    if (gates.enabled(Feature.GENERIC_WORKLOAD)) {
      types.addAll(BuiltInResources.workloads());
    }
    return new ResourceRegistry(types);
  }

  public List<ResourceType> all() {
    return types;
  }

  /** The resource served at {@code group/version/plural}, if any. */
  public Optional<ResourceType> find(String group, String version, String plural) {
    ResourceType t = byKey.get(group + "/" + plural);
    if (t == null || !t.versions().contains(version)) {
      return Optional.empty();
    }
    return Optional.of(t);
  }

  /**
   * The type whose own storage holds {@code t}'s objects: {@code t} itself, or the core Event type
   * for events.k8s.io Events.
   */
  public ResourceType storageType(ResourceType t) {
    if (!t.storedElsewhere()) {
      return t;
    }
    ResourceType owner = byKey.get(t.storageKey());
    return owner == null ? t : owner;
  }

  /** One type per storage: the types that are not stored in another type's storage. */
  public List<ResourceType> stored() {
    return types.stream().filter(t -> !t.storedElsewhere()).toList();
  }

  /** The resource of a group and kind, in any version. */
  public Optional<ResourceType> byKind(String group, String kind) {
    return types.stream().filter(t -> t.group().equals(group) && t.kind().equals(kind)).findFirst();
  }

  /** Served groups (core group as {@code ""}) with their versions, preferred first. */
  public Map<String, List<String>> groupVersions() {
    return Collections.unmodifiableMap(groupVersions);
  }

  /** Resources served in a group and version. */
  public List<ResourceType> inGroupVersion(String group, String version) {
    return types.stream()
        .filter(t -> t.group().equals(group) && t.versions().contains(version))
        .toList();
  }
}
