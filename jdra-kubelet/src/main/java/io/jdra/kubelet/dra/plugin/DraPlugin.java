package io.jdra.kubelet.dra.plugin;

import io.jdra.runtime.Ctx;
import java.util.List;
import java.util.Map;

/**
 * One registered DRA driver as the kubelet calls it (upstream DRAPlugin): the node-side DRA gRPC
 * service, whichever API version the driver serves. Thread-safe; calls may run concurrently.
 *
 * <p>Each call is bounded by the plugin's call timeout (upstream 45 s). A thrown {@link
 * DraCallException} is a failure of the whole call (transport, timeout, driver error status);
 * per-claim failures are in the returned map.
 */
public interface DraPlugin {
  String driverName();

  /** NodePrepareResources for {@code claims}: claim UID -> result; claims missing were skipped. */
  Map<String, PrepareResult> nodePrepareResources(Ctx ctx, List<Claim> claims)
      throws DraCallException;

  /**
   * NodeUnprepareResources for {@code claims}: claim UID -> error message ("" for success); claims
   * missing were skipped.
   */
  Map<String, String> nodeUnprepareResources(Ctx ctx, List<Claim> claims) throws DraCallException;
}
