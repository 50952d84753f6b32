package io.jdra.kubeletplugin.resourceslice;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.logging.HandleError;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link ResourceSliceController} (upstream resourceslice.Options).
 *
 * @param driverName the DRA driver name (required)
 * @param client reads Nodes and writes ResourceSlices (required)
 * @param owner the slices' owner; a Node also sets {@code spec.nodeName}; null for none (then the
 *     driver must delete its slices itself on uninstall: no garbage collection)
 * @param resources the initial desired state (null: nothing)
 * @param queue a work queue to use instead of the default rate-limited one (tests)
 * @param syncDelay delay of a sync after informer events
 * @param mutationCacheTtl how long written slices are trusted over the informer
 * @param errorHandler told about every problem; the default logs it
 */
public record Options(
    String driverName,
    KubernetesClient client,
    Owner owner,
    DriverResources resources,
    RateLimitingQueue<String> queue,
    Duration syncDelay,
    Duration mutationCacheTtl,
    ResourceSliceController.ErrorHandler errorHandler) {
  public Options {
    if (driverName == null || driverName.isEmpty()) {
      throw new IllegalArgumentException("DRA driver name is empty");
    }
    Objects.requireNonNull(client, "KubeClient is nil");
    syncDelay = syncDelay == null ? ResourceSliceController.DEFAULT_SYNC_DELAY : syncDelay;
    mutationCacheTtl =
        mutationCacheTtl == null
            ? ResourceSliceController.DEFAULT_MUTATION_CACHE_TTL
            : mutationCacheTtl;
    errorHandler =
        errorHandler == null ? (ctx, err, msg) -> HandleError.handle(ctx, err, msg) : errorHandler;
  }

  public static Builder builder(String driverName, KubernetesClient client) {
    return new Builder(driverName, client);
  }

  /** Mutable builder. */
  public static final class Builder {
    private final String driverName;
    private final KubernetesClient client;
    private Owner owner;
    private DriverResources resources;
    private RateLimitingQueue<String> queue;
    private Duration syncDelay;
    private Duration mutationCacheTtl;
    private ResourceSliceController.ErrorHandler errorHandler;

    private Builder(String driverName, KubernetesClient client) {
      this.driverName = driverName;
      this.client = client;
    }

    public Builder owner(Owner v) {
      owner = v;
      return this;
    }

    public Builder resources(DriverResources v) {
      resources = v;
      return this;
    }

    public Builder queue(RateLimitingQueue<String> v) {
      queue = v;
      return this;
    }

    public Builder syncDelay(Duration v) {
      syncDelay = v;
      return this;
    }

    public Builder mutationCacheTtl(Duration v) {
      mutationCacheTtl = v;
      return this;
    }

    public Builder errorHandler(ResourceSliceController.ErrorHandler v) {
      errorHandler = v;
      return this;
    }

    public Options build() {
      return new Options(
          driverName, client, owner, resources, queue, syncDelay, mutationCacheTtl, errorHandler);
    }
  }
}
