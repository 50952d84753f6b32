package io.jdra.allocator.internal;

import io.jdra.allocator.AllocationException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Prunes with a bipartite matching relaxation: every device still to be picked (rest of the current
 * request, the claim's later requests, all later claims) needs its own device among its candidates
 * that are not taken. If no such matching exists, no completion exists, whatever the constraints,
 * counters or capacity say; so cutting there never changes the first solution.
 *
 * <p>What the relaxation ignores (so it stays sound): firstAvailable requests (they may choose any
 * alternative), admin access and shareable devices (they need no exclusive device), counters and
 * capacity beyond what each device needs on its own, and constraints of claims not yet started.
 * Constraints of the current claim narrow candidates to devices they still admit.
 */
final class MatchingPruner implements Pruner {
  private final Search s;

  /** Per request: statically usable device indices (null until computed). */
  private final int[][][][] candidates;

  /** Per request: whether some candidate can be shared (then it needs no exclusive device). */
  private final boolean[][][] shareable;

  // Scratch for the matching.
  private final int[] matchOfDevice;
  private final int[] seen;
  private int stamp;
  private final List<int[]> slots = new ArrayList<>();

  MatchingPruner(Search s) {
    this.s = s;
    int n = s.claims.size();
    candidates = new int[n][][][];
    shareable = new boolean[n][][];
    for (int c = 0; c < n; c++) {
      candidates[c] = new int[s.requests[c].length][][];
      shareable[c] = new boolean[s.requests[c].length][];
      for (int r = 0; r < s.requests[c].length; r++) {
        candidates[c][r] = new int[s.requests[c][r].length][];
        shareable[c][r] = new boolean[s.requests[c][r].length];
      }
    }
    matchOfDevice = new int[s.devices.length];
    seen = new int[s.devices.length];
  }

  @Override
  public boolean feasible(int c, int r, int sub, int d, int start) {
    slots.clear();
    RequestData cur = s.requests[c][r][sub];
    if (!addSlots(cur, c, d, start, true)) {
      return false;
    }
    for (int rr = r + 1; rr < s.requests[c].length; rr++) {
      if (!addRequest(s.requests[c][rr], c, true)) {
        return false;
      }
    }
    for (int cc = c + 1; cc < s.claims.size(); cc++) {
      for (RequestData[] subs : s.requests[cc]) {
        if (!addRequest(subs, cc, false)) {
          return false;
        }
      }
    }
    return matchAll();
  }

  /**
   * A request not started yet. With firstAvailable, whichever alternative is chosen needs at least
   * the smallest count among the alternatives that are possible at all, from the union of their
   * candidates: that weaker demand is what gets matched.
   */
  private boolean addRequest(RequestData[] subs, int c, boolean sameClaim) {
    if (!subs[0].isSubRequest()) {
      return addSlots(subs[0], c, 0, 0, sameClaim);
    }
    int need = Integer.MAX_VALUE;
    boolean any = false;
    java.util.BitSet union = new java.util.BitSet(s.devices.length);
    for (RequestData rd : subs) {
      int before = slots.size();
      boolean ok = addSlots(rd, c, 0, 0, sameClaim);
      List<int[]> added = new ArrayList<>(slots.subList(before, slots.size()));
      slots.subList(before, slots.size()).clear();
      if (!ok || (rd.allMode() && rd.allDevices.isEmpty())) {
        continue;
      }
      any = true;
      if (added.isEmpty()) {
        // Needs no exclusive device (none left, admin access or shareable): no demand.
        return true;
      }
      need = Math.min(need, added.size());
      for (int[] slot : added) {
        for (int dev : slot) {
          union.set(dev);
        }
      }
    }
    if (!any) {
      return false;
    }
    int[] cand = union.stream().toArray();
    if (cand.length < need) {
      return false;
    }
    for (int k = 0; k < need; k++) {
      slots.add(cand);
    }
    return true;
  }

  /** Adds one slot per device still needed; false when some slot has no candidate at all. */
  private boolean addSlots(RequestData rd, int c, int d, int start, boolean sameClaim) {
    int need = rd.numDevices - d;
    if (need <= 0) {
      return true;
    }
    if (rd.allMode()) {
      for (int i = d; i < rd.allDevices.size(); i++) {
        Dev dev = rd.allDevices.get(i);
        if (!rd.adminAccess() && s.inUse(dev)) {
          return false;
        }
        if (!shareableDev(dev) && !rd.adminAccess()) {
          slots.add(new int[] {dev.index});
        }
      }
      return true;
    }
    int[] all = candidates(rd);
    boolean free =
        rd.adminAccess() || shareable[rd.claimIndex][rd.requestIndex][rd.subRequestIndex];
    int[] usable = new int[all.length];
    int n = 0;
    for (int idx : all) {
      if (idx < start) {
        continue;
      }
      Dev dev = s.devices[idx];
      if (!rd.adminAccess() && s.inUse(dev)) {
        continue;
      }
      if (sameClaim && !admitted(c, rd, dev)) {
        continue;
      }
      usable[n++] = idx;
    }
    if (free) {
      return n > 0;
    }
    if (n < need) {
      return false;
    }
    int[] cand = Arrays.copyOf(usable, n);
    for (int k = 0; k < need; k++) {
      slots.add(cand);
    }
    return true;
  }

  private boolean admitted(int c, RequestData rd, Dev dev) {
    for (Constraints.Constraint k : s.constraints[c]) {
      if (!k.admits(rd, dev)) {
        return false;
      }
    }
    return true;
  }

  private boolean shareableDev(Dev dev) {
    return s.features.consumableCapacity() && dev.allowMultipleAllocations;
  }

  /** Devices that pass every check that does not depend on other picks. */
  private int[] candidates(RequestData rd) {
    int[] cached = candidates[rd.claimIndex][rd.requestIndex][rd.subRequestIndex];
    if (cached != null) {
      return cached;
    }
    int[] out = new int[s.devices.length];
    int n = 0;
    boolean share = false;
    for (Dev dev : s.devices) {
      if (!statically(rd, dev)) {
        continue;
      }
      out[n++] = dev.index;
      share |= shareableDev(dev);
    }
    int[] result = Arrays.copyOf(out, n);
    candidates[rd.claimIndex][rd.requestIndex][rd.subRequestIndex] = result;
    shareable[rd.claimIndex][rd.requestIndex][rd.subRequestIndex] = share;
    return result;
  }

  private boolean statically(RequestData rd, Dev dev) {
    if (!rd.adminAccess() && dev.allocated) {
      return false;
    }
    try {
      if (!s.isSelectable(rd, dev)) {
        return false;
      }
    } catch (AllocationException e) {
      // The plain search would report this error if it got there; the relaxation must not
      // decide anything on it, so the device stays a candidate.
      return true;
    }
    if (!s.features.partitionableDevices()
        && dev.device.getConsumesCounters() != null
        && !dev.device.getConsumesCounters().isEmpty()) {
      return false;
    }
    if (s.features.deviceTaints() && Taints.untolerated(dev.taints, rd.tolerations) != null) {
      return false;
    }
    if (s.features.consumableCapacity()) {
      Capacity.Fit fit = Capacity.fits(dev.consumed, rd.capacity, dev.device.getCapacity(), null);
      return fit == Capacity.Fit.FITS;
    }
    return true;
  }

  /** Kuhn's augmenting paths, slots with fewest candidates first. */
  private boolean matchAll() {
    if (slots.isEmpty()) {
      return true;
    }
    slots.sort((a, b) -> Integer.compare(a.length, b.length));
    Arrays.fill(matchOfDevice, -1);
    for (int i = 0; i < slots.size(); i++) {
      stamp++;
      if (!augment(i)) {
        return false;
      }
    }
    return true;
  }

  private boolean augment(int slot) {
    for (int dev : slots.get(slot)) {
      if (seen[dev] == stamp) {
        continue;
      }
      seen[dev] = stamp;
      if (matchOfDevice[dev] < 0 || augment(matchOfDevice[dev])) {
        matchOfDevice[dev] = slot;
        return true;
      }
    }
    return false;
  }
}
