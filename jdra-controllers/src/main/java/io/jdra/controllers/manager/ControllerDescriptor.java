package io.jdra.controllers.manager;

import io.jdra.api.features.Feature;
import java.util.List;

/**
 * One entry of the manager's registry (upstream's ControllerDescriptor): the upstream name from
 * kube-controller-manager's {@code controller_names.go}, short aliases accepted by {@code
 * --controllers}, the feature gates without which it does not run, and the factory.
 */
public record ControllerDescriptor(
    String name, List<String> aliases, List<Feature> requiredFeatures, Factory factory) {
  /** Creates a controller; called before the informers start. */
  @FunctionalInterface
  public interface Factory {
    Controller create(ControllerContext context);
  }

  public ControllerDescriptor {
    aliases = List.copyOf(aliases);
    requiredFeatures = List.copyOf(requiredFeatures);
  }

  boolean answersTo(String s) {
    return name.equals(s) || aliases.contains(s);
  }
}
