package io.jdra.api.validation;

import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourcePool;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Checks of a ResourceSlice spec: driver, pool, node selection, devices, shared counters. */
final class SliceValidation {
  static final int MAX_DEVICES = 128;
  static final int MAX_DEVICES_WITH_ADVANCED_FEATURES = 64;
  static final int MAX_COUNTER_SETS = 8;
  static final int MAX_COUNTERS_PER_SET = 32;

  private static final String NODE_SELECTION =
      "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";

  private SliceValidation() {}

  static List<FieldError> spec(ResourceSliceSpec spec, ResourceSliceSpec old, FieldPath path) {
    ResourceSliceSpec s = spec == null ? new ResourceSliceSpec() : spec;
    ResourcePool pool = s.getPool() == null ? new ResourcePool() : s.getPool();
    List<FieldError> errs =
        new ArrayList<>(NameValidation.validateDriverName(s.getDriver(), path.child("driver")));
    errs.addAll(pool(pool, path.child("pool")));
    if (old != null) {
      String oldPool = old.getPool() == null ? null : old.getPool().getName();
      immutable(errs, nz(pool.getName()), nz(oldPool), path.child("pool", "name"));
      immutable(errs, nz(s.getDriver()), nz(old.getDriver()), path.child("driver"));
      immutable(errs, s.getNodeName(), old.getNodeName(), path.child("nodeName"));
    }
    errs.addAll(nodeSelection(s, path));
    List<Device> devices = Lists.nn(s.getDevices());
    if (!Lists.nn(s.getSharedCounters()).isEmpty() && !devices.isEmpty()) {
      errs.add(
          FieldError.invalid(path, "", "only one of `sharedCounters` or `devices` is allowed"));
    }
    int maxDevices =
        usesAdvancedFeatures(devices) ? MAX_DEVICES_WITH_ADVANCED_FEATURES : MAX_DEVICES;
    List<Device> oldDevices = old == null ? null : Lists.nn(old.getDevices());
    errs.addAll(
        Lists.set(
            devices,
            maxDevices,
            (d, p) ->
                DeviceValidation.device(
                    d, lookup(oldDevices, d.getName()), p, s.getPerDeviceNodeSelection()),
            d -> nz(d.getName()),
            path.child("devices")));
    errs.addAll(
        Lists.set(
            s.getSharedCounters(),
            MAX_COUNTER_SETS,
            SliceValidation::counterSet,
            c -> nz(c.getName()),
            path.child("sharedCounters")));
    return errs;
  }

  private static List<FieldError> pool(ResourcePool pool, FieldPath path) {
    List<FieldError> errs =
        new ArrayList<>(NameValidation.validatePoolName(pool.getName(), path.child("name")));
    long count = pool.getResourceSliceCount() == null ? 0 : pool.getResourceSliceCount();
    if (count <= 0) {
      errs.add(
          FieldError.invalid(path.child("resourceSliceCount"), count, "must be greater than zero"));
    }
    long generation = pool.getGeneration() == null ? 0 : pool.getGeneration();
    if (generation < 0) {
      errs.add(
          FieldError.invalid(
              path.child("generation"), generation, "must be greater than or equal to zero"));
    }
    return errs;
  }

  private static List<FieldError> nodeSelection(ResourceSliceSpec s, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    List<String> set = new ArrayList<>();
    if (s.getNodeName() != null) {
      if (!s.getNodeName().isEmpty()) {
        set.add("`nodeName`");
        errs.addAll(NameValidation.validateNodeName(s.getNodeName(), path.child("nodeName")));
      } else {
        errs.add(
            FieldError.invalid(
                path.child("nodeName"), "", "must be either unset or set to a non-empty string"));
      }
    }
    if (s.getNodeSelector() != null) {
      set.add("`nodeSelector`");
      FieldPath selectorPath = path.child("nodeSelector");
      errs.addAll(NodeSelectorValidation.nodeSelector(s.getNodeSelector(), selectorPath));
      var terms = Lists.nn(s.getNodeSelector().getNodeSelectorTerms());
      if (terms.size() != 1) {
        errs.add(
            FieldError.invalid(
                selectorPath.child("nodeSelectorTerms"),
                terms.isEmpty() ? null : terms,
                "must have exactly one node selector term"));
      }
    }
    trueOrUnset(s.getAllNodes(), "`allNodes`", path.child("allNodes"), set, errs);
    trueOrUnset(
        s.getPerDeviceNodeSelection(),
        "`perDeviceNodeSelection`",
        path.child("perDeviceNodeSelection"),
        set,
        errs);
    if (set.isEmpty()) {
      errs.add(FieldError.required(path, NODE_SELECTION));
    } else if (set.size() > 1) {
      errs.add(
          FieldError.invalid(
              path,
              "{" + String.join(", ", set) + "}",
              NODE_SELECTION + ", but multiple fields are set"));
    }
    return errs;
  }

  private static void trueOrUnset(
      Boolean value, String name, FieldPath path, List<String> set, List<FieldError> errs) {
    if (value == null) {
      return;
    }
    if (value) {
      set.add(name);
    } else {
      errs.add(FieldError.invalid(path, false, "must be either unset or set to true"));
    }
  }

  /** Taints, counter consumption or list-typed attributes lower the device limit to 64. */
  private static boolean usesAdvancedFeatures(List<Device> devices) {
    for (Device d : devices) {
      if (!Lists.nn(d.getTaints()).isEmpty() || !Lists.nn(d.getConsumesCounters()).isEmpty()) {
        return true;
      }
      if (d.getAttributes() != null
          && d.getAttributes().values().stream().anyMatch(DeviceValidation::hasListValue)) {
        return true;
      }
    }
    return false;
  }

  private static Device lookup(List<Device> devices, String name) {
    if (devices == null) {
      return null;
    }
    for (Device d : devices) {
      if (Objects.equals(d.getName(), name)) {
        return d;
      }
    }
    return null;
  }

  private static List<FieldError> counterSet(CounterSet set, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    String name = nz(set.getName());
    if (name.isEmpty()) {
      errs.add(FieldError.required(path.child("name"), ""));
    } else {
      errs.addAll(NameValidation.validateDns1123Label(name, path.child("name")));
    }
    errs.addAll(
        DeviceValidation.counters(set.getCounters(), MAX_COUNTERS_PER_SET, path.child("counters")));
    return errs;
  }

  private static void immutable(List<FieldError> errs, Object n, Object o, FieldPath path) {
    if (!Objects.equals(n, o)) {
      errs.add(FieldError.invalid(path, n, MetaValidation.FIELD_IMMUTABLE));
    }
  }

  private static String nz(String s) {
    return MetaValidation.nz(s);
  }
}
