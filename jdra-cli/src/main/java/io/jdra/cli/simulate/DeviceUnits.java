package io.jdra.cli.simulate;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Device usage in physical units, for utilisation and fragmentation: a device that consumes no
 * counters is one unit, used when allocated; a counter set (one partitionable GPU) is one unit,
 * used by the share of its counters that allocated devices consume (averaged over its counters), so
 * that a GPU with 2 of 4 partitions allocated is half used whichever devices represent it.
 * Allocations are added and removed as claims are allocated and deallocated.
 */
final class DeviceUnits {
  private record Unit(String driver, String node) {}

  private record Share(int unit, double fraction) {}

  private final List<Unit> units = new ArrayList<>();
  private final Map<String, List<Share>> byDevice = new HashMap<>();
  private final double[] used;
  private final Map<String, Integer> totalByDriver = new TreeMap<>();

  DeviceUnits(List<ResourceSlice> slices) {
    Map<String, Integer> counterSets = new HashMap<>();
    Map<String, Map<String, Quantity>> counterTotals = new HashMap<>();
    for (ResourceSlice s : slices) {
      if (s.getSpec().getSharedCounters() == null) {
        continue;
      }
      for (CounterSet cs : s.getSpec().getSharedCounters()) {
        String k = poolKey(s) + "/" + cs.getName();
        counterSets.put(k, addUnit(s));
        Map<String, Quantity> totals = new HashMap<>();
        cs.getCounters().forEach((n, c) -> totals.put(n, c.getValue()));
        counterTotals.put(k, totals);
      }
    }
    for (ResourceSlice s : slices) {
      for (Device d : s.getSpec().getDevices()) {
        String id = poolKey(s) + "/" + d.getName();
        List<DeviceCounterConsumption> cc = d.getConsumesCounters();
        if (cc == null || cc.isEmpty()) {
          byDevice.put(id, List.of(new Share(addUnit(s), 1)));
          continue;
        }
        List<Share> shares = new ArrayList<>();
        for (DeviceCounterConsumption c : cc) {
          String k = poolKey(s) + "/" + c.getCounterSet();
          Integer unit = counterSets.get(k);
          if (unit != null) {
            shares.add(new Share(unit, fraction(c, counterTotals.get(k))));
          }
        }
        byDevice.put(id, shares);
      }
    }
    used = new double[units.size()];
  }

  private int addUnit(ResourceSlice s) {
    String node = s.getSpec().getNodeName() == null ? "" : s.getSpec().getNodeName();
    units.add(new Unit(s.getSpec().getDriver(), node));
    totalByDriver.merge(s.getSpec().getDriver(), 1, Integer::sum);
    return units.size() - 1;
  }

  private static String poolKey(ResourceSlice s) {
    return s.getSpec().getDriver() + "/" + s.getSpec().getPool().getName();
  }

  private static double fraction(DeviceCounterConsumption c, Map<String, Quantity> totals) {
    double sum = 0;
    int n = 0;
    for (var e : c.getCounters().entrySet()) {
      Quantity total = totals == null ? null : totals.get(e.getKey());
      if (total == null) {
        continue;
      }
      BigDecimal t = Quantity.getAmountInBytes(total);
      if (t.signum() == 0) {
        continue;
      }
      sum +=
          Quantity.getAmountInBytes(e.getValue().getValue())
              .divide(t, MathContext.DECIMAL64)
              .doubleValue();
      n++;
    }
    return n == 0 ? 1 : sum / n;
  }

  /** Adds (sign 1) or removes (sign -1) an allocation's devices. */
  void apply(AllocationResult a, int sign) {
    if (a == null || a.getDevices() == null) {
      return;
    }
    for (DeviceRequestAllocationResult r : a.getDevices().getResults()) {
      List<Share> shares = byDevice.get(r.getDriver() + "/" + r.getPool() + "/" + r.getDevice());
      if (shares == null) {
        continue;
      }
      for (Share s : shares) {
        used[s.unit] += sign * s.fraction;
        if (Math.abs(used[s.unit]) < 1e-9) {
          used[s.unit] = 0;
        }
      }
    }
  }

  /** The drivers, sorted. */
  Set<String> drivers() {
    return totalByDriver.keySet();
  }

  int total(String driver) {
    return totalByDriver.getOrDefault(driver, 0);
  }

  /** Used units of the driver, 0 .. total. */
  double used(String driver) {
    double sum = 0;
    for (int i = 0; i < used.length; i++) {
      if (units.get(i).driver.equals(driver)) {
        sum += Math.min(1, used[i]);
      }
    }
    return sum;
  }

  /** Free units per node of these drivers. */
  Map<String, Double> freeByNode(Set<String> drivers) {
    Map<String, Double> out = new TreeMap<>();
    for (int i = 0; i < used.length; i++) {
      Unit u = units.get(i);
      if (drivers.contains(u.driver)) {
        out.merge(u.node, 1 - Math.min(1, used[i]), Double::sum);
      }
    }
    return out;
  }

  /** The drivers of an allocation's devices. */
  static Set<String> driversOf(AllocationResult a) {
    Set<String> out = new TreeSet<>();
    if (a != null && a.getDevices() != null) {
      a.getDevices().getResults().forEach(r -> out.add(r.getDriver()));
    }
    return out;
  }
}
