package io.jdra.exampledriver;

import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jdra.exampledriver.Checkpoint.PreparedDevice;
import io.jdra.exampledriver.profiles.Profile;
import io.jdra.kubeletplugin.cdi.CdiSpec.ContainerEdits;
import io.jdra.kubeletplugin.resourceslice.DriverResources;
import io.jdra.kubeletplugin.resourceslice.Slice;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.logging.Klog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What the driver has prepared (upstream state.go): prepare computes the claim's CDI edits from its
 * allocation and opaque configs, writes the claim's CDI spec and records the claim in the
 * checkpoint; unprepare undoes both. Computing the edits is deterministic, so a claim found in the
 * checkpoint is answered by computing them again, without touching any file.
 *
 * <p>Each change is two steps: {@link #prepare}/{@link #unprepare} change memory and the CDI spec,
 * {@link #commit} waits until the checkpoint on disk has the change, so concurrent calls share one
 * checkpoint write (upstream holds its lock across the write and pays one sync per call). Calls for
 * one claim run one at a time (a per-claim lock, as upstream's single lock does for them); the
 * state lock is held only while the checkpoint in memory changes, not for file I/O. A caller
 * answers the kubelet only after its commit, so what the kubelet was told is prepared is on disk,
 * as upstream. Thread-safe.
 */
final class DeviceState {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private final String driverName;
  private final Profile profile;
  private final CdiHandler cdi;
  private final Path checkpointPath;
  private final boolean shared;
  private final CheckpointWriter writer;

  /**
   * Guards the checkpoint in memory, held only for map updates and snapshots. A ReentrantLock, not
   * a monitor: waiting threads park instead of spinning, which on a busy node burned a quarter of
   * the CPU of concurrent prepares.
   */
  private final ReentrantLock lock = new ReentrantLock();

  private final ReentrantLock[] claimLocks = new ReentrantLock[64];
  private Checkpoint checkpoint;
  private final Map<String, Device> allocatable = new LinkedHashMap<>();
  private final DriverResources driverResources;
  private final KubernetesClient client;
  private final boolean deviceStatus;

  DeviceState(Flags flags, Profile profile, KubernetesClient client) {
    this.driverName = flags.driverName();
    this.profile = profile;
    this.client = client;
    this.deviceStatus = flags.gpuDeviceStatus() && "gpu".equals(profile.name());
    this.driverResources = profile.enumerateDevices();
    var pool = driverResources.pools().get(flags.nodeName());
    if (pool != null) {
      for (Slice s : pool.slices()) {
        for (Device d : s.devices()) {
          allocatable.put(d.getName(), d);
        }
      }
    }
    this.cdi = new CdiHandler(flags.cdiRoot(), driverName, profile.name());
    cdi.createCommonSpecFile(flags.nodeName());
    for (int i = 0; i < claimLocks.length; i++) {
      claimLocks[i] = new ReentrantLock();
    }
    this.checkpointPath = flags.driverPluginPath().resolve(Checkpoint.FILE);
    this.shared = flags.podUid() != null;
    this.checkpoint = Checkpoint.read(checkpointPath, 0);
    this.writer = new CheckpointWriter(checkpointPath, this::snapshot, 0);
    writer.observed(CheckpointWriter.fileKey(checkpointPath));
  }

  private Checkpoint.Snapshot snapshot() {
    lock.lock();
    try {
      return checkpoint.snapshot();
    } finally {
      lock.unlock();
    }
  }

  DriverResources driverResources() {
    return driverResources;
  }

  Map<String, Device> allocatable() {
    return allocatable;
  }

  /** A device prepared for a claim, with the CDI IDs the kubelet gets. */
  record Prepared(DeviceRequestAllocationResult result, List<String> cdiDeviceIds) {}

  /**
   * A change made in memory and, for a prepare, in the claim's CDI spec; it holds once {@link
   * #commit} of its version returns. For a claim found prepared (or not prepared) already the
   * version is the current one, which covers whoever made that change and may still be writing it.
   */
  record Pending(List<Prepared> prepared, long version) {}

  /**
   * Prepares the claim in memory and writes its CDI spec; {@link #commit} makes it durable. A claim
   * prepared before is answered from its allocation again, without touching any file.
   */
  Pending prepare(Ctx ctx, ResourceClaim claim) {
    String uid = claim.getMetadata().getUid();
    ReentrantLock claimLock = claimLock(uid);
    claimLock.lock();
    try {
      Computed computed = computeDeviceConfig(claim);
      Reservation r = reserve(uid, computed.prepared);
      if (!r.fresh) {
        // Prepared before; the spec is rewritten only if it got lost (say, a tmpfs CDI root after
        // a reboot), so the runtime can still resolve the IDs returned here.
        if (!cdi.claimSpecExists(uid)) {
          cdi.createClaimSpecFile(uid, computed.cdiDevices);
        }
        return new Pending(computed.prepared, r.version);
      }
      try {
        if (deviceStatus) {
          publishDeviceStatus(ctx, claim);
        }
        cdi.createClaimSpecFile(uid, computed.cdiDevices);
      } catch (RuntimeException e) {
        release(uid);
        throw new IllegalStateException(
            "unable to create CDI spec file for claim: " + e.getMessage(), e);
      }
      return new Pending(computed.prepared, r.version);
    } finally {
      claimLock.unlock();
    }
  }

  /** Removes the claim's CDI spec and the claim from memory; {@link #commit} makes it durable. */
  Pending unprepare(String claimUid) {
    ReentrantLock claimLock = claimLock(claimUid);
    claimLock.lock();
    try {
      try {
        cdi.deleteClaimSpecFile(claimUid);
      } catch (RuntimeException e) {
        throw new IllegalStateException(
            "unable to delete CDI spec file for claim: " + e.getMessage(), e);
      }
      lock.lock();
      try {
        reloadIfChanged();
        long version =
            checkpoint.contains(claimUid) ? checkpoint.remove(claimUid) : checkpoint.version();
        return new Pending(List.of(), version);
      } finally {
        lock.unlock();
      }
    } finally {
      claimLock.unlock();
    }
  }

  /** Whether a prepare recorded the claim, and the version that covers the claim's state. */
  private record Reservation(boolean fresh, long version) {}

  /**
   * Under the state lock: records the claim as prepared unless it is (so that a concurrent prepare
   * of another claim sees its devices in use).
   */
  private Reservation reserve(String uid, List<Prepared> prepared) {
    lock.lock();
    try {
      reloadIfChanged();
      if (checkpoint.contains(uid)) {
        return new Reservation(false, checkpoint.version());
      }
      refuseDevicesInUse(uid, prepared);
      List<PreparedDevice> devices = new ArrayList<>();
      for (Prepared p : prepared) {
        devices.add(
            new PreparedDevice(p.result.getPool(), p.result.getDevice(), p.result.getShareID()));
      }
      return new Reservation(true, checkpoint.put(uid, devices));
    } finally {
      lock.unlock();
    }
  }

  /** Undoes {@link #reserve} when the CDI spec could not be written. */
  private void release(String uid) {
    lock.lock();
    try {
      checkpoint.remove(uid);
    } finally {
      lock.unlock();
    }
  }

  /** Calls for one claim run one at a time (stripes: claims may share a lock, never split one). */
  private ReentrantLock claimLock(String uid) {
    return claimLocks[Math.floorMod(uid.hashCode(), claimLocks.length)];
  }

  /**
   * Blocks until the checkpoint on disk includes {@code version}: one write covers every change
   * made before it started (see {@link CheckpointWriter}).
   *
   * <p>A failed write leaves memory ahead of the file. Nothing is undone: the kubelet, told of the
   * failure, retries; the retry finds the change in memory and its commit writes again. Whatever
   * the kubelet is told is prepared (or unprepared) is on disk, as with upstream.
   *
   * @throws IllegalStateException the checkpoint could not be written
   */
  void commit(long version) {
    try {
      writer.awaitDurable(version);
    } catch (RuntimeException e) {
      throw new IllegalStateException("unable to sync to checkpoint: " + e.getMessage(), e);
    }
  }

  /** Checkpoint files written so far. */
  long checkpointWrites() {
    return writer.writes();
  }

  /**
   * With rolling updates two driver instances share the checkpoint, one call at a time (the SDK's
   * file lock); a file the other one wrote is read again, as upstream reads it on every call.
   */
  private void reloadIfChanged() {
    if (!shared) {
      return;
    }
    Object key = CheckpointWriter.fileKey(checkpointPath);
    if (!java.util.Objects.equals(key, writer.lastFileKey())) {
      checkpoint = Checkpoint.read(checkpointPath, checkpoint.version());
      writer.observed(key);
    }
  }

  /**
   * The last line of defense: a device that does not allow multiple allocations, prepared for one
   * claim, is never handed to a second one, whatever the scheduler decided.
   */
  private void refuseDevicesInUse(String uid, List<Prepared> prepared) {
    for (Prepared p : prepared) {
      if (p.result.getShareID() != null) {
        continue;
      }
      for (var e : checkpoint.claims().entrySet()) {
        for (PreparedDevice d : e.getValue()) {
          if (!e.getKey().equals(uid)
              && d.device().equals(p.result.getDevice())
              && d.pool().equals(p.result.getPool())) {
            throw new IllegalStateException(
                "device "
                    + p.result.getPool()
                    + "/"
                    + p.result.getDevice()
                    + " is already prepared for claim "
                    + e.getKey());
          }
        }
      }
    }
  }

  private record Computed(List<Prepared> prepared, List<CdiHandler.ClaimDevice> cdiDevices) {}

  private record Config(List<String> requests, Object config) {}

  /** Deterministic and free of side effects: called again for already prepared claims. */
  private Computed computeDeviceConfig(ResourceClaim claim) {
    var status = claim.getStatus();
    if (status == null || status.getAllocation() == null) {
      throw new IllegalArgumentException("claim not yet allocated");
    }
    String uid = claim.getMetadata().getUid();
    boolean adminAccess = false;
    var allocated = status.getAllocation().getDevices();
    List<DeviceRequestAllocationResult> results =
        allocated == null || allocated.getResults() == null ? List.of() : allocated.getResults();
    for (DeviceRequestAllocationResult r : results) {
      adminAccess |= Boolean.TRUE.equals(r.getAdminAccess());
    }
    List<Config> configs = new ArrayList<>();
    configs.add(new Config(List.of(), null));
    try {
      configs.addAll(opaqueConfigs(allocated == null ? null : allocated.getConfig()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "error getting opaque device configs: " + e.getMessage(), e);
    }
    Map<Config, List<DeviceRequestAllocationResult>> byConfig = new IdentityHashMap<>();
    List<DeviceRequestAllocationResult> mine = new ArrayList<>();
    for (DeviceRequestAllocationResult r : results) {
      if (!driverName.equals(r.getDriver())) {
        continue;
      }
      if (!allocatable.containsKey(r.getDevice())) {
        throw new IllegalArgumentException("requested device is not allocatable: " + r.getDevice());
      }
      mine.add(r);
      for (int i = configs.size() - 1; i >= 0; i--) {
        Config c = configs.get(i);
        if (c.requests.isEmpty() || c.requests.contains(r.getRequest())) {
          byConfig.computeIfAbsent(c, k -> new ArrayList<>()).add(r);
          break;
        }
      }
    }
    Map<String, ContainerEdits> edits = new LinkedHashMap<>();
    for (var e : byConfig.entrySet()) {
      try {
        edits.putAll(profile.applyConfig(e.getKey().config, e.getValue()));
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException("error applying config: " + ex.getMessage(), ex);
      }
    }
    List<Prepared> prepared = new ArrayList<>();
    List<CdiHandler.ClaimDevice> cdiDevices = new ArrayList<>();
    for (DeviceRequestAllocationResult r : mine) {
      String id = Profile.cdiDeviceId(r.getDevice(), r.getShareID());
      prepared.add(new Prepared(r, cdi.claimDeviceIds(uid, id)));
      cdiDevices.add(new CdiHandler.ClaimDevice(r.getDevice(), id, adminAccess, edits.get(id)));
    }
    return new Computed(prepared, cdiDevices);
  }

  /**
   * This driver's opaque configs, lowest precedence first: class configs, then claim configs, each
   * in list order (upstream GetOpaqueDeviceConfigs).
   */
  @SuppressWarnings("unchecked")
  private List<Config> opaqueConfigs(List<DeviceAllocationConfiguration> all) {
    List<DeviceAllocationConfiguration> fromClass = new ArrayList<>();
    List<DeviceAllocationConfiguration> fromClaim = new ArrayList<>();
    for (DeviceAllocationConfiguration c :
        all == null ? List.<DeviceAllocationConfiguration>of() : all) {
      switch (String.valueOf(c.getSource())) {
        case "FromClass" -> fromClass.add(c);
        case "FromClaim" -> fromClaim.add(c);
        default -> throw new IllegalArgumentException("invalid config source: " + c.getSource());
      }
    }
    fromClass.addAll(fromClaim);
    List<Config> out = new ArrayList<>();
    for (DeviceAllocationConfiguration c : fromClass) {
      if (c.getOpaque() == null) {
        throw new IllegalArgumentException("only opaque parameters are supported by this driver");
      }
      // A request may be satisfied by several drivers; configs of the others are not ours.
      if (!driverName.equals(c.getOpaque().getDriver())) {
        continue;
      }
      Object params = c.getOpaque().getParameters();
      Map<String, Object> json;
      try {
        json = params == null ? Map.of() : SERIALIZATION.convertValue(params, Map.class);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(
            "error decoding config parameters: " + e.getMessage(), e);
      }
      try {
        out.add(
            new Config(
                c.getRequests() == null ? List.of() : c.getRequests(), profile.decodeConfig(json)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "error decoding config parameters: " + e.getMessage(), e);
      }
    }
    return out;
  }

  /**
   * With {@code --gpu-device-status}: the allocated devices' uuid, model and driverVersion go into
   * {@code status.devices[].data}. Best effort: a failure is logged, the claim is still prepared.
   */
  private void publishDeviceStatus(Ctx ctx, ResourceClaim claim) {
    List<AllocatedDeviceStatus> statuses = new ArrayList<>();
    for (DeviceRequestAllocationResult r :
        claim.getStatus().getAllocation().getDevices().getResults()) {
      if (!driverName.equals(r.getDriver())) {
        continue;
      }
      Map<String, Object> data = new LinkedHashMap<>();
      Device d = allocatable.get(r.getDevice());
      for (String attr : List.of("uuid", "model", "driverVersion")) {
        if (d != null && d.getAttributes() != null && d.getAttributes().containsKey(attr)) {
          data.put(attr, d.getAttributes().get(attr));
        }
      }
      AllocatedDeviceStatus s = new AllocatedDeviceStatus();
      s.setDevice(r.getDevice());
      s.setDriver(r.getDriver());
      s.setPool(r.getPool());
      s.setData(data);
      statuses.add(s);
    }
    var claims =
        client
            .resources(ResourceClaim.class)
            .inNamespace(claim.getMetadata().getNamespace())
            .withName(claim.getMetadata().getName());
    for (int attempt = 0; attempt < 5; attempt++) {
      try {
        ResourceClaim current = claims.get();
        if (current == null) {
          return;
        }
        current.getStatus().setDevices(statuses);
        client.resources(ResourceClaim.class).resource(current).updateStatus();
        ctx.logger()
            .info(
                "Publishing device status to ResourceClaim",
                "claim",
                Klog.kobj(claim),
                "devices",
                statuses.size());
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 4) {
          ctx.logger()
              .error(
                  e, "Failed to update device status on ResourceClaim", "claim", Klog.kobj(claim));
          return;
        }
      }
    }
  }
}
