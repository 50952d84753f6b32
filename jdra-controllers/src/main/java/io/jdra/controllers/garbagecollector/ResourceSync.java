package io.jdra.controllers.garbagecollector;

import io.jdra.controllers.controllerutil.ApiResources;
import io.jdra.controllers.controllerutil.ApiResources.Gvr;
import io.jdra.runtime.Ctx;
import io.prometheus.metrics.core.metrics.Counter;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

/**
 * Upstream's {@code GarbageCollector.Sync}: every period, discovers the deletable resources again
 * and, when they changed (a group that failed discovery before answers now, the server serves other
 * resources after a restart with other feature gates), pauses the workers, remaps kinds, adds and
 * removes monitors and resumes the workers once every monitor has listed. A failed pass counts in
 * {@code garbagecollector_controller_resources_sync_error_total} and is tried again. Used by one
 * thread.
 */
final class ResourceSync {
  /** kube-controller-manager syncs the collector's resources every 30 s. */
  static final Duration PERIOD = Duration.ofSeconds(30);

  /** Upstream polls a failed resync again after 100 ms. */
  static final Duration RETRY = Duration.ofMillis(100);

  private final Supplier<ApiResources> discovery;
  private final Monitors monitors;
  private final MetadataClient mapper;
  private final Lock workers;
  private final Counter syncErrors;
  private final Duration period;
  private Map<String, Gvr> synced;

  /**
   * @param workers the write half of the workers' lock: held while monitors are replaced
   * @param synced the resources monitored from the start
   */
  ResourceSync(
      Supplier<ApiResources> discovery,
      Monitors monitors,
      MetadataClient mapper,
      Lock workers,
      Counter syncErrors,
      Duration period,
      Map<String, Gvr> synced) {
    this.discovery = discovery;
    this.monitors = monitors;
    this.mapper = mapper;
    this.workers = workers;
    this.syncErrors = syncErrors;
    this.period = period;
    this.synced = Map.copyOf(synced);
  }

  /** Syncs every period until {@code ctx} is cancelled. */
  void run(Ctx ctx) throws InterruptedException {
    while (ctx.sleep(period)) {
      syncOnce(ctx);
    }
  }

  /** One pass; returns whether the monitors were replaced. */
  boolean syncOnce(Ctx ctx) throws InterruptedException {
    Discovered d = discover(ctx, 1);
    if (d == null) {
      return false;
    }
    if (d.deletable().keySet().equals(synced.keySet())) {
      ctx.logger().v(5).info("no resource updates from discovery, skipping garbage collector sync");
      return false;
    }
    // Workers wait so that they never act on a graph that misses the new resources' objects.
    workers.lock();
    try {
      for (int attempt = 1; ; attempt++) {
        if (attempt > 1) {
          if (!ctx.sleep(RETRY)) {
            return false;
          }
          d = discover(ctx, attempt);
          if (d == null) {
            continue;
          }
        }
        if (resync(ctx, d, attempt)) {
          break;
        }
        if (ctx.isCancelled()) {
          return false;
        }
      }
    } finally {
      workers.unlock();
    }
    synced = d.deletable();
    ctx.logger().v(2).info("synced garbage collector");
    return true;
  }

  private boolean resync(Ctx ctx, Discovered d, int attempt) {
    ctx.logger()
        .v(2)
        .info(
            "syncing garbage collector with updated resources from discovery",
            "attempt",
            attempt,
            "diff",
            diff(synced.keySet(), d.deletable().keySet()));
    mapper.reset(d.all());
    monitors.sync(ctx, d.deletable());
    monitors.start(ctx);
    // Wait a period at most: a resource whose informer never lists would keep workers paused, so
    // discovery is asked again (upstream's words: this protects from deadlocks).
    if (monitors.awaitSynced(ctx, period)) {
      return true;
    }
    if (!ctx.isCancelled()) {
      ctx.logger()
          .error(
              null,
              "timed out waiting for dependency graph builder sync during GC sync",
              "attempt",
              attempt);
      syncErrors.inc();
    }
    return false;
  }

  private record Discovered(ApiResources all, Map<String, Gvr> deletable) {}

  /**
   * Upstream's {@code GetDeletableResources} plus its partial-discovery rule: a resource of a group
   * that failed discovery stays monitored if its monitor has synced. Null (and counted as an error)
   * when discovery reports nothing.
   */
  private Discovered discover(Ctx ctx, int attempt) {
    ApiResources all = discovery.get();
    if (!all.failedGroups().isEmpty()) {
      ctx.logger().info("failed to discover some groups", "groups", all.failedGroups());
    }
    Map<String, Gvr> deletable = Monitors.deletable(all);
    if (deletable.isEmpty()) {
      ctx.logger()
          .v(2)
          .info(
              "no resources reported by discovery, skipping garbage collector sync",
              "attempt",
              attempt);
      syncErrors.inc();
      return null;
    }
    for (Map.Entry<String, Gvr> e : synced.entrySet()) {
      if (all.failed(e.getValue()) && monitors.synced(e.getKey())) {
        deletable.putIfAbsent(e.getKey(), e.getValue());
      }
    }
    return new Discovered(all, Map.copyOf(deletable));
  }

  /** Upstream's {@code printDiff}. */
  static String diff(Set<String> before, Set<String> after) {
    Set<String> added = new TreeSet<>(after);
    added.removeAll(before);
    Set<String> removed = new TreeSet<>(before);
    removed.removeAll(after);
    return "added: " + added + ", removed: " + removed;
  }
}
