package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.allocator.AllocationException;
import io.jdra.allocator.Explanation;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Explains a failed allocation: per request, every device of the reachable pools is checked on its
 * own (selectors, node, in use, taints, counters, capacity) and the first failing check is its
 * reason; claim notes cover constraints and competition between requests and claims. Runs only
 * after the search failed, so successful allocations pay nothing for it.
 */
final class Explainer {
  static final String NODE = "node does not match";
  static final String BINDING = "have binding conditions (DRADeviceBindingConditions off)";
  static final String CLASS = "class selector false";
  static final String REQUEST = "request selector false";
  static final String SELECTOR_ERROR = "selector error";
  static final String PARTITIONABLE = "consume counters (DRAPartitionableDevices off)";
  static final String ALLOCATED = "already allocated";
  static final String TAINT = "taint not tolerated";
  static final String COUNTERS = "counters exhausted";
  static final String CAPACITY = "capacity exhausted";
  static final String NO_CAPACITY = "lack a requested capacity";

  private Explainer() {}

  static Explanation explain(Search s, List<Pools.Skipped> skipped) {
    List<String> notes = new ArrayList<>();
    Map<String, Integer> skippedDevices = new LinkedHashMap<>();
    for (Pools.Skipped sk : skipped) {
      int n = NodeMatcher.list(sk.slice().getSpec().getDevices()).size();
      skippedDevices.merge(sk.reason(), n, Integer::sum);
    }
    for (PoolInfo p : s.pools) {
      if (p.incomplete) {
        notes.add("pool " + p.id() + " is incomplete (being updated), its devices are not used");
      } else if (p.invalid()) {
        notes.add(
            "pool " + p.id() + " is invalid (" + p.invalidReason + "), its devices are not used");
      }
    }
    Map<String, Map<String, BigDecimal>> unused = new HashMap<>();
    List<Explanation.ClaimReport> claims = new ArrayList<>();
    Set<Integer> usableByAny = new HashSet<>();
    int neededByAll = 0;
    for (int c = 0; c < s.claims.size(); c++) {
      ResourceClaim claim = s.claims.get(c);
      List<Explanation.RequestReport> reports = new ArrayList<>();
      List<String> claimNotes = new ArrayList<>();
      Set<Integer> usableInClaim = new HashSet<>();
      int neededInClaim = 0;
      Map<String, List<Dev>> usableByRequest = new LinkedHashMap<>();
      Map<String, Integer> wantedByRequest = new LinkedHashMap<>();
      for (RequestData[] subs : s.requests[c]) {
        int minWanted = Integer.MAX_VALUE;
        for (RequestData rd : subs) {
          Map<String, Integer> rejected = new LinkedHashMap<>(skippedDevices);
          List<Dev> usable = new ArrayList<>();
          for (Dev dev : s.devices) {
            String reason = reason(s, rd, dev);
            if (reason == null) {
              usable.add(dev);
            } else {
              rejected.merge(reason, 1, Integer::sum);
            }
          }
          int considered =
              s.devices.length + skippedDevices.values().stream().mapToInt(i -> i).sum();
          int wanted = rd.allMode() ? rd.numDevices : (int) rd.count;
          String verdict = verdict(rd, usable.size(), wanted);
          reports.add(
              new Explanation.RequestReport(
                  rd.resultName(),
                  rd.allMode() ? "all" : Long.toString(rd.count),
                  considered,
                  usable.size(),
                  rejected,
                  verdict));
          usableByRequest.put(rd.resultName(), usable);
          wantedByRequest.put(rd.resultName(), wanted);
          if (!rd.isSubRequest()) {
            for (Dev d : usable) {
              if (!d.allowMultipleAllocations || !s.features.consumableCapacity()) {
                usableInClaim.add(d.index);
              }
            }
          }
          minWanted = Math.min(minWanted, wanted);
        }
        if (!subs[0].isSubRequest() && !subs[0].adminAccess()) {
          neededInClaim += minWanted;
        }
      }
      constraintNotes(s, c, usableByRequest, wantedByRequest, claimNotes);
      if (neededInClaim > usableInClaim.size()) {
        claimNotes.add(
            "its requests need "
                + neededInClaim
                + " devices together, but only "
                + usableInClaim.size()
                + " different devices are usable for them");
      }
      usableByAny.addAll(usableInClaim);
      neededByAll += neededInClaim;
      claims.add(new Explanation.ClaimReport(Allocation.kobj(claim), reports, claimNotes));
    }
    if (s.claims.size() > 1 && neededByAll > usableByAny.size()) {
      notes.add(
          "the claims need "
              + neededByAll
              + " devices together, but only "
              + usableByAny.size()
              + " different devices are usable for them");
    } else if (s.claims.size() > 1) {
      notes.add(
          "each request alone may fit; no combination satisfies all claims at once"
              + " (devices, counters, capacity or constraints conflict)");
    }
    return new Explanation(NodeMatcher.name(s.node), claims, notes);
  }

  private static String verdict(RequestData rd, int usable, int wanted) {
    if (rd.allMode()) {
      return wanted == 0
          ? "asks for all matching devices, but no device matches"
          : "asks for all " + wanted + " matching devices, but not all of them are usable together";
    }
    if (usable < wanted) {
      return "needs "
          + wanted
          + " device"
          + (wanted == 1 ? "" : "s")
          + ", only "
          + usable
          + " usable";
    }
    return "enough usable devices on its own (" + usable + " for " + wanted + ")";
  }

  /** The first per-device check this device fails for the request, or null if it passes all. */
  static String reason(Search s, RequestData rd, Dev dev) {
    try {
      if (!s.features.deviceBindingAndStatus()
          && dev.device.getBindingConditions() != null
          && !dev.device.getBindingConditions().isEmpty()) {
        return BINDING;
      }
      if (rd.deviceClass != null && rd.deviceClass.getSpec() != null) {
        RequestData classOnly = classOnly(rd);
        if (!s.selectorsMatch(classOnly, dev)) {
          return CLASS;
        }
      }
      if (!s.selectorsMatch(rd, dev)) {
        return REQUEST;
      }
      if (!s.nodeMatches(dev)) {
        return NODE;
      }
    } catch (AllocationException e) {
      return SELECTOR_ERROR;
    }
    boolean allowMulti = s.features.consumableCapacity() && dev.allowMultipleAllocations;
    if (!s.features.partitionableDevices()
        && dev.device.getConsumesCounters() != null
        && !dev.device.getConsumesCounters().isEmpty()) {
      return PARTITIONABLE;
    }
    if (!rd.adminAccess() && dev.allocated) {
      return ALLOCATED;
    }
    if (s.features.deviceTaints()) {
      DeviceTaint t = Taints.untolerated(dev.taints, rd.tolerations);
      if (t != null) {
        return TAINT
            + " ("
            + t.getKey()
            + "="
            + NodeMatcher.nz(t.getValue())
            + ":"
            + t.getEffect()
            + ")";
      }
    }
    if (!(allowMulti && dev.inUseAtAll) && !countersFit(s, dev)) {
      return COUNTERS;
    }
    if (s.features.consumableCapacity()) {
      Capacity.Fit fit = Capacity.fits(dev.consumed, rd.capacity, dev.device.getCapacity(), null);
      if (fit == Capacity.Fit.UNKNOWN_CAPACITY) {
        return NO_CAPACITY;
      }
      if (fit == Capacity.Fit.EXHAUSTED) {
        return CAPACITY;
      }
    }
    return null;
  }

  private static RequestData classOnly(RequestData rd) {
    return rd.classOnly();
  }

  private static boolean countersFit(Search s, Dev dev) {
    if (dev.device.getConsumesCounters() == null || dev.device.getConsumesCounters().isEmpty()) {
      return true;
    }
    Map<String, Map<String, BigDecimal>> available = s.computeAvailable(dev.pool);
    for (DeviceCounterConsumption dc : dev.device.getConsumesCounters()) {
      Map<String, BigDecimal> set = available.get(dc.getCounterSet());
      if (set == null || dc.getCounters() == null) {
        continue;
      }
      for (var e : dc.getCounters().entrySet()) {
        BigDecimal have = set.get(e.getKey());
        if (have != null && have.compareTo(Quantities.value(e.getValue().getValue())) < 0) {
          return false;
        }
      }
    }
    return true;
  }

  private static void constraintNotes(
      Search s,
      int c,
      Map<String, List<Dev>> usableByRequest,
      Map<String, Integer> wantedByRequest,
      List<String> notes) {
    for (Constraints.Constraint k : s.constraints[c]) {
      int wanted = 0;
      Map<Object, Set<Integer>> groups = new LinkedHashMap<>();
      Set<Integer> any = new HashSet<>();
      for (RequestData[] subs : s.requests[c]) {
        RequestData rd = subs[0];
        if (rd.isSubRequest() || !k.appliesTo(rd)) {
          continue;
        }
        wanted += wantedByRequest.get(rd.resultName());
        for (Dev d : usableByRequest.get(rd.resultName())) {
          DeviceAttribute a = Attributes.lookup(d, k.attribute);
          if (a == null) {
            continue;
          }
          any.add(d.index);
          Set<Object> values = Attributes.asSet(a);
          if (values == null) {
            continue;
          }
          for (Object v : values) {
            groups.computeIfAbsent(v, x -> new HashSet<>()).add(d.index);
          }
        }
      }
      if (wanted <= 1) {
        continue;
      }
      if (k instanceof Constraints.Match) {
        int best = groups.values().stream().mapToInt(Set::size).max().orElse(0);
        if (best < wanted) {
          notes.add(
              "constraint "
                  + k.describe()
                  + ": needs "
                  + wanted
                  + " devices with one common value, the largest group of usable devices has "
                  + best);
        } else {
          notes.add(
              "constraint "
                  + k.describe()
                  + ": "
                  + groups.size()
                  + " value groups; each device alone fits, but no group satisfies all requests"
                  + " together");
        }
      } else if (groups.size() < wanted) {
        notes.add(
            "constraint "
                + k.describe()
                + ": needs "
                + wanted
                + " devices with different values, usable devices have only "
                + groups.size()
                + " different values");
      }
    }
  }
}
