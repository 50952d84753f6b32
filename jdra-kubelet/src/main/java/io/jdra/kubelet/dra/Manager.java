package io.jdra.kubelet.dra;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.ResourceHealth;
import io.fabric8.kubernetes.api.model.ResourceHealthBuilder;
import io.fabric8.kubernetes.api.model.ResourceStatus;
import io.fabric8.kubernetes.api.model.ResourceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.api.resourceclaim.PodClaimName;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.kubelet.dra.plugin.Claim;
import io.jdra.kubelet.dra.plugin.DraCallException;
import io.jdra.kubelet.dra.plugin.DraPlugin;
import io.jdra.kubelet.dra.plugin.DraPlugins;
import io.jdra.kubelet.dra.plugin.DriverNotRegisteredException;
import io.jdra.kubelet.dra.plugin.PrepareResult;
import io.jdra.kubelet.dra.state.Device;
import io.jdra.kubelet.dra.state.DriverState;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.logging.Klog;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Prepares a pod's ResourceClaims through their DRA drivers before its containers start, and
 * unprepares them when the last pod using them is gone (upstream pkg/kubelet/cm/dra Manager).
 *
 * <p>Prepare validates everything first without touching state (claim names, the claims themselves,
 * ownership, reservation, drivers registered), so a pod that can never start does not leave a claim
 * behind that would need unpreparing. Then it records the pod in the cache and checkpoints, calls
 * each driver once with all of the pod's claims for it, stores the devices, marks the claims
 * prepared and checkpoints again. A claim used by several pods is prepared once and unprepared
 * after the last. Both operations are idempotent and thread-safe; concurrent calls for different
 * pods are fine.
 */
public final class Manager {
  private final ClaimInfoCache cache;
  private final ClaimSource claims;
  private final DraPlugins plugins;
  private final DraMetrics metrics;
  private final HealthInfoCache health;

  public Manager(
      ClaimInfoCache cache,
      ClaimSource claims,
      DraPlugins plugins,
      DraMetrics metrics,
      HealthInfoCache health) {
    this.cache = cache;
    this.claims = claims;
    this.plugins = plugins;
    this.metrics = metrics;
    this.health = health;
  }

  public ClaimInfoCache cache() {
    return cache;
  }

  public HealthInfoCache health() {
    return health;
  }

  /**
   * Prepares every claim of {@code pod} (including its extended-resource claim).
   *
   * @throws PrepareException with a message for the pod's events, e.g. {@code prepare dynamic
   *     resources: pod p (uid) is not allowed to use ResourceClaim c (uid)}
   */
  public void prepareResources(Ctx ctx, Pod pod) throws PrepareException {
    Instant start = ctx.clock().now();
    boolean failed = true;
    try {
      prepare(ctx.withValues("pod", Klog.kobj(pod)), pod);
      failed = false;
    } catch (PrepareException e) {
      throw new PrepareException("prepare dynamic resources: " + e.getMessage(), e.getCause());
    } finally {
      metrics.observeOperation("PrepareResources", failed, ctx.clock().since(start));
    }
  }

  /**
   * Unprepares the pod's claims that no other pod uses. Claims are found in the cache first (the
   * claim objects may be gone), else from the pod's spec and status.
   */
  public void unprepareResources(Ctx ctx, Pod pod) throws PrepareException {
    Instant start = ctx.clock().now();
    boolean failed = true;
    try {
      String uid = pod.getMetadata().getUid();
      List<String> names = cache.withReadLockUnchecked(c -> c.claimNamesForPod(uid));
      if (names.isEmpty()) {
        names = claimNamesFromPod(pod);
      }
      unprepare(ctx, uid, pod.getMetadata().getNamespace(), names);
      failed = false;
    } catch (PrepareException e) {
      throw new PrepareException("unprepare dynamic resources: " + e.getMessage(), e.getCause());
    } finally {
      metrics.observeOperation("UnprepareResources", failed, ctx.clock().since(start));
    }
  }

  /**
   * Whether the cache still lists the pod in some claim (upstream
   * PodMightNeedToUnprepareResources).
   */
  public boolean podMightNeedToUnprepareResources(String podUid) {
    return cache.withReadLockUnchecked(c -> c.hasPodReference(podUid));
  }

  /**
   * Unprepares the claims of every pod the cache lists that is not in {@code activePodUids}
   * (upstream reconcileLoop, every 60 s): pods deleted while the kubelet was down, or whose
   * unprepare failed. Failures are logged and retried on the next round.
   */
  public void reconcile(Ctx ctx, Set<String> activePodUids) {
    record PodClaims(String namespace, List<String> names) {}
    Map<String, PodClaims> inactive = new TreeMap<>();
    cache.withReadLockUnchecked(c -> {
      for (ClaimInfo info : c.list()) {
        for (String podUid : info.podUids()) {
          if (!activePodUids.contains(podUid)) {
            inactive
                .computeIfAbsent(podUid, u -> new PodClaims(info.namespace(), new ArrayList<>()))
                .names()
                .add(info.claimName());
          }
        }
      }
      return null;
    });
    inactive.forEach((uid, pc) -> {
      try {
        unprepare(ctx, uid, pc.namespace(), pc.names());
      } catch (PrepareException e) {
        ctx.logger()
            .info(
                "Unpreparing pod resources in reconcile loop failed, will retry",
                "podUID",
                uid,
                "err",
                e.getMessage());
      }
    });
  }

  /**
   * The CDI device IDs for {@code container}: for each claim (and request) it uses, the IDs the
   * drivers returned, in pod claim order.
   *
   * @throws PrepareException when a claim the container uses is not prepared
   */
  public List<String> cdiDevices(Pod pod, Container container) throws PrepareException {
    Map<String, List<String>> requests = new LinkedHashMap<>();
    var containerClaims =
        container.getResources() == null || container.getResources().getClaims() == null
            ? List.<io.fabric8.kubernetes.api.model.ResourceClaim>of()
            : container.getResources().getClaims();
    for (var cc : containerClaims) {
      for (PodResourceClaim podClaim : podClaims(pod)) {
        if (cc.getName().equals(podClaim.getName())
            && ResourceClaims.name(pod, podClaim) instanceof PodClaimName.Named n) {
          requests
              .computeIfAbsent(n.name(), k -> new ArrayList<>())
              .add(nullToEmpty(cc.getRequest()));
        }
      }
    }
    addExtendedResourceRequests(pod, container, requests);
    List<String> out = new ArrayList<>();
    for (var e : requests.entrySet()) {
      ClaimInfo info =
          cache
              .withReadLockUnchecked(c -> c.get(pod.getMetadata().getNamespace(), e.getKey()))
              .orElseThrow(() ->
                  new PrepareException(
                      "internal error: unable to get claim info for ResourceClaim "
                          + e.getKey()
                          + " in namespace "
                          + pod.getMetadata().getNamespace()));
      for (String request : e.getValue()) {
        out.addAll(info.cdiDevices(request));
      }
    }
    return out;
  }

  /** UIDs of the pods whose claims hold any of {@code devices} of {@code driver}. */
  public Set<String> podsUsing(String driver, List<DeviceHealth> devices) {
    Set<String> pods = new TreeSet<>();
    cache.withReadLockUnchecked(c -> {
      for (ClaimInfo info : c.list()) {
        DriverState ds = info.state().driverState().get(driver);
        if (ds == null) {
          continue;
        }
        for (Device d : ds.devices()) {
          for (DeviceHealth h : devices) {
            if (d.poolName().equals(h.poolName()) && d.deviceName().equals(h.deviceName())) {
              pods.addAll(info.podUids());
            }
          }
        }
      }
      return null;
    });
    return pods;
  }

  /**
   * The {@code allocatedResourcesStatus} of a container (upstream UpdateAllocatedResourcesStatus):
   * one entry per claim (and request) the container uses, named {@code claim:<claim>} or {@code
   * claim:<claim>/<request>}, listing each allocated device's health with the device's first CDI ID
   * (else {@code <driver>/<pool>/<device>}) as resource ID. Entries without devices are left out.
   */
  public List<ResourceStatus> allocatedResourcesStatus(Pod pod, Container container) {
    List<ResourceStatus> out = new ArrayList<>();
    if (container.getResources() == null || container.getResources().getClaims() == null) {
      return out;
    }
    for (var cc : container.getResources().getClaims()) {
      String claimName = actualClaimName(pod, cc.getName());
      if (claimName == null) {
        continue;
      }
      ClaimInfo info =
          cache
              .withReadLockUnchecked(c -> c.get(pod.getMetadata().getNamespace(), claimName))
              .orElse(null);
      if (info == null) {
        continue;
      }
      String request = nullToEmpty(cc.getRequest());
      String base = request.contains("/") ? request.substring(0, request.indexOf('/')) : request;
      List<ResourceHealth> resources = new ArrayList<>();
      Set<String> seen = new TreeSet<>();
      info.state()
          .driverState()
          .forEach((driver, ds) -> {
            for (Device d : ds.devices()) {
              if (!request.isEmpty()
                  && !d.requestNames().isEmpty()
                  && !d.requestNames().contains(base)) {
                continue;
              }
              String id =
                  d.cdiDeviceIds().isEmpty()
                      ? driver + "/" + d.poolName() + "/" + d.deviceName()
                      : d.cdiDeviceIds().get(0);
              if (!seen.add(id)) {
                continue;
              }
              DeviceHealth h = health.get(driver, d.poolName(), d.deviceName());
              resources.add(
                  new ResourceHealthBuilder()
                      .withResourceID(id)
                      .withHealth(h.health())
                      .withMessage(h.message().isEmpty() ? null : h.message())
                      .build());
            }
          });
      if (!resources.isEmpty()) {
        String name = "claim:" + cc.getName() + (request.isEmpty() ? "" : "/" + request);
        out.add(new ResourceStatusBuilder().withName(name).withResources(resources).build());
      }
    }
    return out;
  }

  private static String actualClaimName(Pod pod, String podClaimName) {
    for (PodResourceClaim pc : podClaims(pod)) {
      if (pc.getName().equals(podClaimName)
          && ResourceClaims.name(pod, pc) instanceof PodClaimName.Named n) {
        return n.name();
      }
    }
    return null;
  }

  // ---- prepare

  private record PodClaimInfo(
      ResourceClaim claim, ClaimInfo info, Map<String, DraPlugin> plugins) {}

  private void prepare(Ctx ctx, Pod pod) throws PrepareException {
    List<PodClaimInfo> infos = validate(ctx, pod);
    Map<DraPlugin, List<Claim>> batches = new LinkedHashMap<>();
    Map<String, ResourceClaim> toPrepare = new LinkedHashMap<>();
    String podUid = pod.getMetadata().getUid();
    cache.withLockChecked(c -> {
      for (PodClaimInfo pci : infos) {
        ResourceClaim claim = pci.claim();
        String ns = claim.getMetadata().getNamespace();
        String name = claim.getMetadata().getName();
        ClaimInfo info = c.get(ns, name).orElse(null);
        if (info == null) {
          info = pci.info();
        } else if (!info.claimUid().equals(claim.getMetadata().getUid())) {
          throw new PrepareException(
              "old ResourceClaim with same name "
                  + name
                  + " and different UID "
                  + info.claimUid()
                  + " still exists (previous pod force-deleted?!)");
        }
        info = info.withPodReference(podUid);
        c.put(info);
        // Durable before any driver call: a pod that disappears before its prepare
        // finished is found by the reconcile loop and unprepared.
        c.syncToCheckpoint();
        if (info.prepared()) {
          ctx.logger().v(5).info("Resources already prepared", "claim", Klog.kobj(claim));
          continue;
        }
        toPrepare.put(info.claimUid(), claim);
        Claim ref = new Claim(ns, info.claimUid(), name);
        for (String driver : info.state().driverState().keySet()) {
          batches.computeIfAbsent(pci.plugins().get(driver), p -> new ArrayList<>()).add(ref);
        }
      }
      return null;
    });
    for (var batch : batches.entrySet()) {
      callPrepare(ctx, batch.getKey(), batch.getValue(), toPrepare);
    }
    cache.withLockChecked(c -> {
      for (ResourceClaim claim : toPrepare.values()) {
        var meta = claim.getMetadata();
        ClaimInfo info = c.get(meta.getNamespace(), meta.getName()).orElseThrow();
        c.put(info.asPrepared());
      }
      c.syncToCheckpoint();
      return null;
    });
  }

  /** Everything that can fail before state changes (upstream's validation pass). */
  private List<PodClaimInfo> validate(Ctx ctx, Pod pod) throws PrepareException {
    List<PodClaimInfo> out = new ArrayList<>();
    for (PodResourceClaim podClaim : podClaimsWithExtended(pod)) {
      ctx.logger().v(3).info("Processing resource", "podClaim", podClaim.getName());
      String name;
      boolean mustCheckOwner;
      switch (ResourceClaims.name(pod, podClaim)) {
        case PodClaimName.Named n -> {
          name = n.name();
          mustCheckOwner = n.mustCheckOwner();
        }
        case PodClaimName.NotNeeded n -> {
          continue;
        }
        case PodClaimName.Unavailable u -> throw new PrepareException(u.message());
      }
      String ns = pod.getMetadata().getNamespace();
      ResourceClaim claim;
      try {
        claim = claims.get(ns, name);
      } catch (RuntimeException e) {
        throw new PrepareException("fetch ResourceClaim " + name + ": " + e.getMessage(), e);
      }
      if (claim == null) {
        throw new PrepareException(
            "fetch ResourceClaim "
                + name
                + ": resourceclaims.resource.k8s.io \""
                + name
                + "\" not found");
      }
      if (mustCheckOwner) {
        var notOwner = ResourceClaims.checkIsForPod(pod, claim);
        if (notOwner.isPresent()) {
          throw new PrepareException(notOwner.get());
        }
      }
      if (!ResourceClaims.isReservedForPodOrItsGroup(pod, claim)) {
        throw new PrepareException(
            "pod "
                + pod.getMetadata().getName()
                + " ("
                + pod.getMetadata().getUid()
                + ") is not allowed to use ResourceClaim "
                + name
                + " ("
                + claim.getMetadata().getUid()
                + ")");
      }
      ClaimInfo info;
      try {
        info = ClaimInfo.fromClaim(claim);
      } catch (IllegalArgumentException e) {
        throw new PrepareException("ResourceClaim " + name + ": " + e.getMessage());
      }
      // The driver is needed even when the claim is already prepared: an unregistered driver
      // means something is wrong on the node, and failing is better than running half-set-up.
      Map<String, DraPlugin> byDriver = new HashMap<>();
      for (String driver : info.state().driverState().keySet()) {
        try {
          byDriver.put(driver, plugins.getPlugin(driver));
        } catch (DriverNotRegisteredException e) {
          throw new PrepareException(e.getMessage());
        }
      }
      out.add(new PodClaimInfo(claim, info, byDriver));
    }
    return out;
  }

  private void callPrepare(
      Ctx ctx, DraPlugin plugin, List<Claim> batch, Map<String, ResourceClaim> toPrepare)
      throws PrepareException {
    Map<String, PrepareResult> response;
    try {
      response = plugin.nodePrepareResources(ctx, batch);
    } catch (DraCallException e) {
      throw new PrepareException("NodePrepareResources: " + e.getMessage(), e);
    }
    for (var result : response.entrySet()) {
      Claim ref = lookup(batch, result.getKey());
      if (ref == null) {
        throw new PrepareException(
            "NodePrepareResources returned result for unknown claim UID " + result.getKey());
      }
      if (!result.getValue().error().isEmpty()) {
        throw new PrepareException(
            "NodePrepareResources failed for ResourceClaim "
                + ref.name()
                + ": "
                + result.getValue().error());
      }
      ResourceClaim claim = toPrepare.get(ref.uid());
      cache.withLockChecked(c -> {
        ClaimInfo info =
            c.get(claim.getMetadata().getNamespace(), claim.getMetadata().getName())
                .orElseThrow(() ->
                    new PrepareException(
                        "internal error: unable to get claim info for ResourceClaim "
                            + ref.name()
                            + " in namespace "
                            + ref.namespace()));
        // A retried prepare starts over for this driver, so devices are not listed twice.
        info = info.withDriverDevices(plugin.driverName(), List.of());
        for (Device d : result.getValue().devices()) {
          info = info.withDevice(plugin.driverName(), d);
        }
        c.put(info);
        return null;
      });
    }
    int unfinished = batch.size() - response.size();
    if (unfinished != 0) {
      throw new PrepareException("NodePrepareResources skipped " + unfinished + " ResourceClaims");
    }
  }

  // ---- unprepare

  private void unprepare(Ctx ctx, String podUid, String namespace, List<String> names)
      throws PrepareException {
    Map<String, List<Claim>> batches = new LinkedHashMap<>();
    Map<String, String> unprepared = new LinkedHashMap<>();
    cache.withLockChecked(c -> {
      for (String name : names) {
        ClaimInfo info = c.get(namespace, name).orElse(null);
        if (info == null) {
          continue;
        }
        if (!info.podUids().contains(podUid)) {
          // Not this pod's to release (the names came from the pod's spec after a restart).
          continue;
        }
        if (info.podUids().size() > 1) {
          // Made durable together with the final checkpoint below; a crash before that just
          // repeats this idempotent step.
          c.put(info.withoutPodReference(podUid));
          continue;
        }
        unprepared.put(info.claimUid(), name);
        Claim ref = new Claim(namespace, info.claimUid(), name);
        for (String driver : info.state().driverState().keySet()) {
          batches.computeIfAbsent(driver, d -> new ArrayList<>()).add(ref);
        }
      }
      return null;
    });
    for (var batch : batches.entrySet()) {
      callUnprepare(ctx, batch.getKey(), batch.getValue());
    }
    cache.withLockChecked(c -> {
      for (String name : unprepared.values()) {
        c.delete(namespace, name);
        ctx.logger()
            .v(6)
            .info("Deleted claim info cache entry", "claim", Klog.kref(namespace, name));
      }
      c.syncToCheckpoint();
      return null;
    });
  }

  private void callUnprepare(Ctx ctx, String driver, List<Claim> batch) throws PrepareException {
    DraPlugin plugin;
    try {
      plugin = plugins.getPlugin(driver);
    } catch (DriverNotRegisteredException e) {
      throw new PrepareException(e.getMessage());
    }
    Map<String, String> response;
    try {
      response = plugin.nodeUnprepareResources(ctx, batch);
    } catch (DraCallException e) {
      throw new PrepareException("NodeUnprepareResources: " + e.getMessage(), e);
    }
    for (var result : response.entrySet()) {
      Claim ref = lookup(batch, result.getKey());
      if (ref == null) {
        throw new PrepareException(
            "NodeUnprepareResources returned result for unknown claim UID " + result.getKey());
      }
      if (!result.getValue().isEmpty()) {
        throw new PrepareException(
            "NodeUnprepareResources failed for ResourceClaim "
                + ref.name()
                + ": "
                + result.getValue());
      }
    }
    int unfinished = batch.size() - response.size();
    if (unfinished != 0) {
      throw new PrepareException(
          "NodeUnprepareResources skipped " + unfinished + " ResourceClaims");
    }
  }

  // ---- helpers

  private static Claim lookup(List<Claim> batch, String uid) {
    for (Claim c : batch) {
      if (c.uid().equals(uid)) {
        return c;
      }
    }
    return null;
  }

  private static List<PodResourceClaim> podClaims(Pod pod) {
    return pod.getSpec() == null || pod.getSpec().getResourceClaims() == null
        ? List.of()
        : pod.getSpec().getResourceClaims();
  }

  /** The pod's claims plus, when the scheduler created one, its extended-resource claim. */
  private static List<PodResourceClaim> podClaimsWithExtended(Pod pod) {
    List<PodResourceClaim> all = new ArrayList<>(podClaims(pod));
    var ext = pod.getStatus() == null ? null : pod.getStatus().getExtendedResourceClaimStatus();
    if (ext != null && ext.getResourceClaimName() != null) {
      all.add(
          new PodResourceClaimBuilder().withResourceClaimName(ext.getResourceClaimName()).build());
    }
    return all;
  }

  private static List<String> claimNamesFromPod(Pod pod) {
    List<String> names = new ArrayList<>();
    for (PodResourceClaim pc : podClaimsWithExtended(pod)) {
      if (ResourceClaims.name(pod, pc) instanceof PodClaimName.Named n) {
        names.add(n.name());
      }
    }
    return names;
  }

  private static void addExtendedResourceRequests(
      Pod pod, Container container, Map<String, List<String>> requests) {
    var ext = pod.getStatus() == null ? null : pod.getStatus().getExtendedResourceClaimStatus();
    if (ext == null || ext.getRequestMappings() == null) {
      return;
    }
    for (var m : ext.getRequestMappings()) {
      if (container.getName().equals(m.getContainerName())) {
        requests
            .computeIfAbsent(ext.getResourceClaimName(), k -> new ArrayList<>())
            .add(m.getRequestName());
      }
    }
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
