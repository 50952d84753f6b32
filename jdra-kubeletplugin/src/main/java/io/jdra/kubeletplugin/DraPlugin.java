package io.jdra.kubeletplugin;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.runtime.Ctx;
import java.util.List;
import java.util.Map;

/**
 * What a DRA driver implements for {@link KubeletPlugin#start}: the kubelet's prepare and unprepare
 * calls, already decoded (upstream k8s.io/dynamic-resource-allocation/kubeletplugin's {@code
 * DRAPlugin}).
 *
 * <p>Calls are serialized by default ({@link Options#serialize()}): one prepare or unprepare at a
 * time per driver, across driver instances on the node during a rolling update. Implementations
 * must still be thread-safe against their own background work.
 */
public interface DraPlugin {
  /**
   * Prepares the devices allocated to each claim for use by containers and returns, per claim UID,
   * the prepared devices with their CDI device IDs.
   *
   * <p>The SDK has already read every claim from the API server and checked that it is allocated
   * and that its UID is the one the kubelet asked for; the claims passed here are exactly those.
   * Only the allocation results with {@code driver == driverName} concern this driver: a claim may
   * have devices from several drivers.
   *
   * <p>Must be idempotent: the kubelet retries after failures and after restarts, and calls again
   * for every pod that shares a claim. Preparing an already prepared claim must return the same
   * result without doing the work twice, which needs state that survives a restart (a checkpoint).
   *
   * <p>The driver is the last line of defense against using a device twice: the scheduler should
   * never allocate one device to two claims (unless the device allows multiple allocations), but if
   * it happens, for example after a bug or a forced deallocation, the driver must refuse the second
   * claim rather than hand the device to two pods.
   *
   * <p>CDI device names must include the claim UID so that the same device prepared for two
   * different claims over time never resolves to a stale spec.
   *
   * @return one entry per claim UID; a claim missing from the map is reported to the kubelet as
   *     failed. A per-claim failure goes into {@link PrepareResult#error()}.
   * @throws Exception when the whole call fails; the kubelet retries all claims
   */
  Map<String, PrepareResult> prepareResourceClaims(Ctx ctx, List<ResourceClaim> claims)
      throws Exception;

  /**
   * Undoes {@link #prepareResourceClaims} for claims no pod on the node uses any more. The claims
   * may already be gone from the API server, so only their identity is passed.
   *
   * <p>Must be idempotent: unpreparing a claim that is not prepared (or unknown) succeeds.
   *
   * @return per claim UID, {@code null} for success or the error
   * @throws Exception when the whole call fails
   */
  Map<String, Throwable> unprepareResourceClaims(Ctx ctx, List<NamespacedObject> claims)
      throws Exception;

  /**
   * Called for problems in background work: gRPC servers failing, ResourceSlices that could not be
   * published. Errors wrapped in {@link RecoverableException} (or that are one) are retried by the
   * SDK; anything else is fatal, and the driver should stop. The default logs the error.
   */
  default void handleError(Ctx ctx, Throwable err, String msg) {
    io.jdra.runtime.logging.HandleError.handle(ctx, err, msg);
  }
}
