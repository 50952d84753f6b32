package io.jdra.kubelet.dra.plugin;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.Ctx;
import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * Deletes this node's ResourceSlices, all of them or one driver's, with one deletecollection call
 * selected by {@code spec.nodeName} (and {@code spec.driver}), retried with upstream's backoff (1 s
 * doubling to 5 min) until it succeeds or the context is cancelled. Calls run on {@code executor}.
 */
public final class ResourceSliceWiper {
  static final Duration INITIAL_BACKOFF = Duration.ofSeconds(1);
  static final Duration MAX_BACKOFF = Duration.ofMinutes(5);

  private final KubernetesClient client;
  private final String nodeName;
  private final Executor executor;

  public ResourceSliceWiper(KubernetesClient client, String nodeName, Executor executor) {
    this.client = client;
    this.nodeName = nodeName;
    this.executor = executor;
  }

  /** Starts wiping; {@code driver} null means every driver's slices. */
  public void wipe(Ctx ctx, String driver) {
    executor.execute(() -> attempt(ctx, driver, INITIAL_BACKOFF));
  }

  private void attempt(Ctx ctx, String driver, Duration backoff) {
    if (ctx.isCancelled()) {
      return;
    }
    var slices = client.resources(ResourceSlice.class).withField("spec.nodeName", nodeName);
    if (driver != null) {
      slices = slices.withField("spec.driver", driver);
    }
    try {
      slices.delete();
      ctx.logger()
          .v(3)
          .info("Deleted ResourceSlices", "node", nodeName, "driver", driver == null ? "" : driver);
    } catch (RuntimeException e) {
      ctx.logger()
          .v(3)
          .info("Deleting ResourceSlice failed, retrying", "node", nodeName, "err", e.getMessage());
      Duration next =
          backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0
              ? MAX_BACKOFF
              : backoff.multipliedBy(2);
      ctx.clock().schedule(backoff, () -> executor.execute(() -> attempt(ctx, driver, next)));
    }
  }
}
