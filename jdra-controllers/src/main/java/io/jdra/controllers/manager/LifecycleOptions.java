package io.jdra.controllers.manager;

import io.jdra.controllers.namespace.NamespaceController;
import java.util.Objects;

/**
 * Settings of the controllers that remove objects (kube-controller-manager's {@code
 * GarbageCollectorControllerConfiguration}, {@code NamespaceControllerConfiguration} and {@code
 * TTLAfterFinishedControllerConfiguration}).
 *
 * @param enableGarbageCollector {@code --enable-garbage-collector}: without it the garbage
 *     collector does not run, whatever {@code --controllers} says
 * @param concurrentGcSyncs {@code --concurrent-gc-syncs} (20), workers per collector queue
 * @param concurrentNamespaceSyncs {@code --concurrent-namespace-syncs} (10)
 * @param concurrentTtlSyncs {@code --concurrent-ttl-after-finished-syncs} (5)
 * @param namespace the namespace controller's pacing (not flags upstream: constants)
 */
public record LifecycleOptions(
    boolean enableGarbageCollector,
    int concurrentGcSyncs,
    int concurrentNamespaceSyncs,
    int concurrentTtlSyncs,
    NamespaceController.Options namespace) {
  public static final int DEFAULT_CONCURRENT_GC_SYNCS = 20;
  public static final int DEFAULT_CONCURRENT_NAMESPACE_SYNCS = 10;
  public static final int DEFAULT_CONCURRENT_TTL_SYNCS = 5;

  public LifecycleOptions {
    check("--concurrent-gc-syncs", concurrentGcSyncs);
    check("--concurrent-namespace-syncs", concurrentNamespaceSyncs);
    check("--concurrent-ttl-after-finished-syncs", concurrentTtlSyncs);
    Objects.requireNonNull(namespace, "namespace");
  }

  private static void check(String flag, int n) {
    if (n < 1) {
      throw new IllegalArgumentException(flag + " must be at least 1, got " + n);
    }
  }

  /** Upstream's defaults. */
  public static LifecycleOptions defaults() {
    return new LifecycleOptions(
        true,
        DEFAULT_CONCURRENT_GC_SYNCS,
        DEFAULT_CONCURRENT_NAMESPACE_SYNCS,
        DEFAULT_CONCURRENT_TTL_SYNCS,
        NamespaceController.Options.defaults());
  }

  public LifecycleOptions withNamespace(NamespaceController.Options n) {
    return new LifecycleOptions(
        enableGarbageCollector, concurrentGcSyncs, concurrentNamespaceSyncs, concurrentTtlSyncs, n);
  }
}
