package io.jdra.scheduler.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.allocator.AllocatedDevices;
import io.jdra.allocator.AllocatedState;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.allocator.DeviceClassLister;
import io.jdra.allocator.DeviceTaintRules;
import io.jdra.allocator.SliceIndex;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The scheduler's view of DRA objects (upstream {@code DefaultDRAManager} with its claim tracker
 * and assume cache): ResourceClaims as the informer delivers them, overlaid by claims the scheduler
 * itself just wrote ("assumed", newer resourceVersion wins), plus in-flight allocations (claims
 * reserved for a pod whose PreBind has not written them yet); ResourceSlices, DeviceTaintRules and
 * DeviceClasses.
 *
 * <p>Consistency: every change and every read of the allocated devices happens under one lock, and
 * a PreBind write moves a claim from in-flight to assumed in one step ({@link
 * #assumeClaimAfterApiCall}). So {@link #allocatedState} always sees each allocation exactly once:
 * there is no moment at which an allocation is neither in flight nor in the claim store (the cause
 * of upstream's double allocation #136269). Thread-safe.
 */
public final class DraManager {
  private final AllocatorFeatures features;
  private final boolean applyTaintRules;

  private final Object lock = new Object();

  /** ns/name -> claim from the informer. */
  private final Map<String, ResourceClaim> informerClaims = new HashMap<>();

  /** ns/name -> claim written by the scheduler, until the informer catches up. */
  private final Map<String, ResourceClaim> assumedClaims = new HashMap<>();

  /** claim uid -> claim with the allocation chosen in Reserve, until PreBind wrote it. */
  private final Map<String, ResourceClaim> inFlight = new HashMap<>();

  /** claim uid -> pod uid that reserved the in-flight allocation. */
  private final Map<String, String> inFlightOwner = new HashMap<>();

  private final Map<String, ResourceSlice> slices = new LinkedHashMap<>();
  private final Map<String, DeviceTaintRule> taintRules = new LinkedHashMap<>();
  private final Map<String, DeviceClass> classes = new HashMap<>();

  /**
   * What {@link #allocatedDevices} counts, by source: {@code "c:ns/name"} for the newest known
   * version of a claim that is not in flight, {@code "f:uid"} for an in-flight allocation. Kept up
   * to date by {@link #recount} on every change, so that a scheduling cycle does not walk all
   * claims.
   */
  private final Map<String, ResourceClaim> counted = new HashMap<>();

  private final AllocatedDevices allocatedDevices = new AllocatedDevices();

  /**
   * Extended-resource claims by the UID of their pod ({@code ns/name} of the newest known
   * versions), and back, so PreFilter finds a pod's claim without walking all claims.
   */
  private final Map<String, Set<String>> extendedByPod = new HashMap<>();

  private final Map<String, String> extendedPodOf = new HashMap<>();
  private long sliceRevision;
  private List<ResourceSlice> cachedSlices;
  private long cachedSlicesRevision = -1;
  private SliceIndex cachedIndex;

  public DraManager(AllocatorFeatures features, boolean applyTaintRules) {
    this.features = features;
    this.applyTaintRules = applyTaintRules;
  }

  public AllocatorFeatures features() {
    return features;
  }

  // ---- claims -----------------------------------------------------------------------------

  /** Informer add or update of a claim. */
  public void claimChanged(ResourceClaim claim) {
    String key = key(claim);
    synchronized (lock) {
      informerClaims.put(key, claim);
      ResourceClaim assumed = assumedClaims.get(key);
      if (assumed != null && !isNewer(assumed, claim)) {
        assumedClaims.remove(key);
      }
      recount(key);
      reindexExtended(key);
    }
  }

  /** Informer delete of a claim. */
  public void claimDeleted(ResourceClaim claim) {
    String key = key(claim);
    synchronized (lock) {
      informerClaims.remove(key);
      assumedClaims.remove(key);
      recount(key);
      reindexExtended(key);
    }
  }

  /** The newest known version of the claim (assumed or informer), if it exists. */
  public Optional<ResourceClaim> getClaim(String namespace, String name) {
    String key = namespace + "/" + name;
    synchronized (lock) {
      ResourceClaim c = assumedClaims.get(key);
      return Optional.ofNullable(c != null ? c : informerClaims.get(key));
    }
  }

  /** Every claim, newest known versions. */
  public List<ResourceClaim> listClaims() {
    synchronized (lock) {
      Map<String, ResourceClaim> all = new HashMap<>(informerClaims);
      all.putAll(assumedClaims);
      return new ArrayList<>(all.values());
    }
  }

  /**
   * The newest known extended-resource claim made for the pod with this UID (annotation {@code
   * resource.kubernetes.io/extended-resource-claim} and the pod as controller), or null.
   */
  public ResourceClaim extendedResourceClaim(String podUid) {
    synchronized (lock) {
      Set<String> keys = extendedByPod.get(podUid);
      if (keys == null) {
        return null;
      }
      for (String k : keys) {
        ResourceClaim c = newest(k);
        if (c != null) {
          return c;
        }
      }
      return null;
    }
  }

  private ResourceClaim newest(String key) {
    ResourceClaim c = assumedClaims.get(key);
    return c != null ? c : informerClaims.get(key);
  }

  /** After any change of the claim ns/name: which pod's extended-resource claim it is now. */
  private void reindexExtended(String key) {
    ResourceClaim c = newest(key);
    String pod = c == null ? null : ExtendedResourceClaims.ownerPodUid(c);
    String was = pod == null ? extendedPodOf.remove(key) : extendedPodOf.put(key, pod);
    if (was != null && !was.equals(pod)) {
      Set<String> keys = extendedByPod.get(was);
      keys.remove(key);
      if (keys.isEmpty()) {
        extendedByPod.remove(was);
      }
    }
    if (pod != null) {
      extendedByPod.computeIfAbsent(pod, k -> new LinkedHashSet<>()).add(key);
    }
  }

  /**
   * Records an allocation chosen in Reserve. Returns false when another pod already has an
   * in-flight allocation for the claim (a shared claim being allocated for someone else).
   */
  public boolean signalClaimPendingAllocation(String podUid, ResourceClaim allocated) {
    String uid = allocated.getMetadata().getUid();
    synchronized (lock) {
      String owner = inFlightOwner.get(uid);
      if (owner != null && !owner.equals(podUid)) {
        return false;
      }
      inFlight.put(uid, allocated);
      inFlightOwner.put(uid, podUid);
      recountInFlight(uid, key(allocated));
      return true;
    }
  }

  /** Whether some pod has an in-flight allocation for the claim. */
  public boolean claimHasPendingAllocation(String claimUid) {
    synchronized (lock) {
      return inFlight.containsKey(claimUid);
    }
  }

  /** Drops an in-flight allocation of this pod (Unreserve); false when there was none. */
  public boolean removeClaimPendingAllocation(String podUid, String claimUid) {
    synchronized (lock) {
      if (!podUid.equals(inFlightOwner.get(claimUid))) {
        return false;
      }
      ResourceClaim was = inFlight.remove(claimUid);
      inFlightOwner.remove(claimUid);
      if (was != null) {
        recountInFlight(claimUid, key(was));
      }
      return true;
    }
  }

  /**
   * PreBind wrote the claim: it becomes the assumed version (unless the informer already has a
   * newer one) and its in-flight allocation ends, atomically.
   */
  public void assumeClaimAfterApiCall(ResourceClaim written) {
    String key = key(written);
    synchronized (lock) {
      ResourceClaim known = informerClaims.get(key);
      if (known == null || isNewer(written, known)) {
        assumedClaims.put(key, written);
      }
      ResourceClaim was = inFlight.remove(written.getMetadata().getUid());
      inFlightOwner.remove(written.getMetadata().getUid());
      recount(key);
      reindexExtended(key);
      if (was != null) {
        recountInFlight(written.getMetadata().getUid(), key(was));
      }
    }
  }

  /** Drops an assumed version (after a failed write, the informer's version is the truth). */
  public void assumedClaimRestore(String namespace, String name) {
    synchronized (lock) {
      if (assumedClaims.remove(namespace + "/" + name) != null) {
        recount(namespace + "/" + name);
        reindexExtended(namespace + "/" + name);
      }
    }
  }

  /**
   * Devices in use: allocations of every known claim plus in-flight allocations, as of one moment
   * (taken under the lock that every change holds; the same object while nothing changed).
   */
  public AllocatedState allocatedState() {
    synchronized (lock) {
      return allocatedDevices.snapshot();
    }
  }

  /** The claim version {@link #allocatedState} counts for ns/name: newest known, not in flight. */
  private void recount(String key) {
    ResourceClaim c = assumedClaims.get(key);
    if (c == null) {
      c = informerClaims.get(key);
    }
    if (c != null && inFlight.containsKey(c.getMetadata().getUid())) {
      c = null;
    }
    count("c:" + key, c);
  }

  /** After the in-flight allocation of a claim changed: it and the stored claim count anew. */
  private void recountInFlight(String uid, String key) {
    count("f:" + uid, inFlight.get(uid));
    recount(key);
  }

  private void count(String source, ResourceClaim now) {
    ResourceClaim before = now == null ? counted.remove(source) : counted.put(source, now);
    if (before == now) {
      return;
    }
    if (before != null) {
      for (DeviceRequestAllocationResult r : results(before)) {
        allocatedDevices.remove(r, features.consumableCapacity());
      }
    }
    if (now != null) {
      for (DeviceRequestAllocationResult r : results(now)) {
        allocatedDevices.add(r, features.consumableCapacity());
      }
    }
  }

  private static List<DeviceRequestAllocationResult> results(ResourceClaim c) {
    AllocationResult a = c.getStatus() == null ? null : c.getStatus().getAllocation();
    if (a == null || a.getDevices() == null || a.getDevices().getResults() == null) {
      return List.of();
    }
    return a.getDevices().getResults();
  }

  /**
   * Which claim holds an exclusively allocated device (for explanations), {@code ns/name} or null.
   */
  public String claimUsing(String driver, String pool, String device) {
    for (ResourceClaim c : listClaims()) {
      AllocationResult a = c.getStatus() == null ? null : c.getStatus().getAllocation();
      if (a == null || a.getDevices() == null) {
        continue;
      }
      for (DeviceRequestAllocationResult r : a.getDevices().getResults()) {
        if (driver.equals(r.getDriver())
            && pool.equals(r.getPool())
            && device.equals(r.getDevice())) {
          return key(c);
        }
      }
    }
    return null;
  }

  // ---- slices, rules, classes ---------------------------------------------------------------

  public void sliceChanged(ResourceSlice s) {
    synchronized (lock) {
      slices.put(s.getMetadata().getName(), s);
      sliceRevision++;
    }
  }

  public void sliceDeleted(ResourceSlice s) {
    synchronized (lock) {
      slices.remove(s.getMetadata().getName());
      sliceRevision++;
    }
  }

  public void taintRuleChanged(DeviceTaintRule r) {
    synchronized (lock) {
      taintRules.put(r.getMetadata().getName(), r);
      sliceRevision++;
    }
  }

  public void taintRuleDeleted(DeviceTaintRule r) {
    synchronized (lock) {
      taintRules.remove(r.getMetadata().getName());
      sliceRevision++;
    }
  }

  /** Slices ordered by name, with DeviceTaintRules applied when DRADeviceTaintRules is on. */
  public List<ResourceSlice> slices() {
    synchronized (lock) {
      if (cachedSlicesRevision == sliceRevision && cachedSlices != null) {
        return cachedSlices;
      }
      List<ResourceSlice> list = new ArrayList<>(slices.values());
      list.sort(Comparator.comparing(s -> s.getMetadata().getName()));
      if (applyTaintRules && !taintRules.isEmpty()) {
        list = DeviceTaintRules.apply(list, new ArrayList<>(taintRules.values()));
      }
      cachedSlices = List.copyOf(list);
      cachedSlicesRevision = sliceRevision;
      cachedIndex = null;
      return cachedSlices;
    }
  }

  /**
   * {@link #slices} indexed for the allocator; the same object while no slice or rule changed, so
   * what it learns about nodes and devices serves every scheduling cycle until then.
   */
  public SliceIndex sliceIndex() {
    synchronized (lock) {
      List<ResourceSlice> current = slices();
      if (cachedIndex == null) {
        cachedIndex = SliceIndex.of(features, current);
      }
      return cachedIndex;
    }
  }

  public void classChanged(DeviceClass c) {
    synchronized (lock) {
      classes.put(c.getMetadata().getName(), c);
    }
  }

  public void classDeleted(DeviceClass c) {
    synchronized (lock) {
      classes.remove(c.getMetadata().getName());
    }
  }

  public Optional<DeviceClass> getClass(String name) {
    synchronized (lock) {
      return Optional.ofNullable(classes.get(name));
    }
  }

  public List<DeviceClass> listClasses() {
    synchronized (lock) {
      return new ArrayList<>(classes.values());
    }
  }

  /** A lister over a fixed copy of the classes (one per scheduling cycle). */
  public DeviceClassLister classLister() {
    return DeviceClassLister.of(listClasses());
  }

  static String key(ResourceClaim c) {
    return c.getMetadata().getNamespace() + "/" + c.getMetadata().getName();
  }

  /** Whether a's resourceVersion is newer than b's (numeric, as upstream's assume cache). */
  static boolean isNewer(ResourceClaim a, ResourceClaim b) {
    try {
      return Long.parseLong(a.getMetadata().getResourceVersion())
          > Long.parseLong(b.getMetadata().getResourceVersion());
    } catch (NumberFormatException | NullPointerException e) {
      return false;
    }
  }
}
