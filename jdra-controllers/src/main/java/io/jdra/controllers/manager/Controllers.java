package io.jdra.controllers.manager;

import io.jdra.api.features.Feature;
import io.jdra.controllers.devicetainteviction.DeviceTaintEvictionController;
import io.jdra.controllers.resourceclaim.ResourceClaimController;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The registry of controllers this manager knows, and upstream's rules for {@code --controllers}
 * (genericcontrollermanager.IsControllerEnabled): the first entry naming a controller decides
 * ({@code name} on, {@code -name} off); otherwise {@code *} turns on every controller; without
 * {@code *} the rest stay off.
 */
public final class Controllers {
  private Controllers() {}

  /** Every controller jdra implements, with upstream names. */
  public static List<ControllerDescriptor> builtIn() {
    List<ControllerDescriptor> all = new ArrayList<>(dra());
    all.addAll(WorkloadControllerFactories.descriptors());
    all.addAll(LifecycleControllerFactories.descriptors());
    return List.copyOf(all);
  }

  private static List<ControllerDescriptor> dra() {
    return List.of(
        new ControllerDescriptor(
            ResourceClaimController.NAME,
            List.of("resourceclaim"),
            List.of(Feature.DYNAMIC_RESOURCE_ALLOCATION),
            ControllerFactories::resourceClaim),
        new ControllerDescriptor(
            DeviceTaintEvictionController.NAME,
            List.of("device-taint-eviction"),
            List.of(Feature.DYNAMIC_RESOURCE_ALLOCATION, Feature.DRA_DEVICE_TAINTS),
            ControllerFactories::deviceTaintEviction));
  }

  /**
   * The descriptors {@code --controllers} selects, in registry order.
   *
   * @throws IllegalArgumentException naming the first unknown entry and the known names
   */
  public static List<ControllerDescriptor> select(
      List<ControllerDescriptor> registry, List<String> controllers) {
    for (String entry : controllers) {
      String name = entry.startsWith("-") ? entry.substring(1) : entry;
      if (!entry.equals("*") && registry.stream().noneMatch(d -> d.answersTo(name))) {
        throw new IllegalArgumentException(
            "--controllers: \""
                + entry
                + "\" is not in the list of known controllers "
                + known(registry));
      }
    }
    List<ControllerDescriptor> enabled = new ArrayList<>();
    for (ControllerDescriptor d : registry) {
      if (isEnabled(d, controllers)) {
        enabled.add(d);
      }
    }
    return enabled;
  }

  static boolean isEnabled(ControllerDescriptor d, List<String> controllers) {
    boolean star = false;
    for (String entry : controllers) {
      if (d.answersTo(entry)) {
        return true;
      }
      if (entry.startsWith("-") && d.answersTo(entry.substring(1))) {
        return false;
      }
      star |= entry.equals("*");
    }
    return star;
  }

  /** The names and aliases, for help texts and errors. */
  public static String known(List<ControllerDescriptor> registry) {
    Set<String> names = new LinkedHashSet<>();
    for (ControllerDescriptor d : registry) {
      names.add(
          d.name() + (d.aliases().isEmpty() ? "" : " (" + String.join(", ", d.aliases()) + ")"));
    }
    return "[" + String.join(", ", names) + "]";
  }
}
