package io.jdra.allocator;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintSelector;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies DeviceTaintRules to ResourceSlices as the scheduler's slice tracker does (gate
 * DRADeviceTaintRules): every rule whose {@code deviceSelector} (driver, pool, device; unset means
 * any) matches a device appends its taint to that device. Inputs are not modified; slices without
 * matching rules are returned as they are.
 */
public final class DeviceTaintRules {
  private DeviceTaintRules() {}

  public static List<ResourceSlice> apply(List<ResourceSlice> slices, List<DeviceTaintRule> rules) {
    if (rules.isEmpty()) {
      return slices;
    }
    List<ResourceSlice> out = new ArrayList<>(slices.size());
    for (ResourceSlice slice : slices) {
      out.add(apply(slice, rules));
    }
    return out;
  }

  private static ResourceSlice apply(ResourceSlice slice, List<DeviceTaintRule> rules) {
    ResourceSlice copy = null;
    List<Device> devices = slice.getSpec().getDevices();
    for (int i = 0; devices != null && i < devices.size(); i++) {
      for (DeviceTaintRule rule : rules) {
        if (rule.getSpec() == null || rule.getSpec().getTaint() == null) {
          continue;
        }
        if (!matches(rule.getSpec().getDeviceSelector(), slice, devices.get(i))) {
          continue;
        }
        if (copy == null) {
          copy = new ResourceSliceBuilder(slice).build();
        }
        Device d = copy.getSpec().getDevices().get(i);
        List<DeviceTaint> taints =
            d.getTaints() == null ? new ArrayList<>() : new ArrayList<>(d.getTaints());
        DeviceTaint t = rule.getSpec().getTaint();
        taints.add(new DeviceTaint(t.getEffect(), t.getKey(), t.getTimeAdded(), t.getValue()));
        d.setTaints(taints);
      }
    }
    return copy == null ? slice : copy;
  }

  private static boolean matches(DeviceTaintSelector sel, ResourceSlice slice, Device device) {
    if (sel == null) {
      return true;
    }
    return (sel.getDriver() == null || sel.getDriver().equals(slice.getSpec().getDriver()))
        && (sel.getPool() == null || sel.getPool().equals(slice.getSpec().getPool().getName()))
        && (sel.getDevice() == null || sel.getDevice().equals(device.getName()));
  }
}
