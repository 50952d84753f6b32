package io.jdra.controllers.garbagecollector;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.controllers.controllerutil.ApiResources;
import io.jdra.controllers.controllerutil.ApiResources.Gvr;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Handlers;
import io.jdra.runtime.cache.InformerFactory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The collector's monitors (upstream's {@code GraphBuilder.monitors}): one metadata-only informer
 * per deletable resource, its events going to the graph. {@link #sync} keeps those still served,
 * adds informers for new resources and stops those of resources gone. Thread-safe.
 */
final class Monitors {
  /** Upstream's {@code DefaultIgnoredResources}: events own nothing and are never owned. */
  static final Set<String> IGNORED_RESOURCES = Set.of("events", "events.events.k8s.io");

  private record Monitor(Gvr gvr, SharedIndexInformer<GenericKubernetesResource> informer) {}

  private final InformerFactory informers;
  private final GraphBuilder graph;

  /** By {@link #key}. */
  private final Map<String, Monitor> monitors = new LinkedHashMap<>();

  Monitors(InformerFactory informers, GraphBuilder graph) {
    this.informers = informers;
    this.graph = graph;
  }

  /**
   * Upstream's {@code GetDeletableResources}: what supports delete, list and watch, events
   * excepted, by {@link #key}.
   */
  static Map<String, Gvr> deletable(ApiResources resources) {
    Map<String, Gvr> out = new LinkedHashMap<>();
    for (Gvr gvr : resources.supporting("delete", "list", "watch")) {
      if (!IGNORED_RESOURCES.contains(gvr.toString())) {
        out.put(key(gvr), gvr);
      }
    }
    return out;
  }

  /**
   * Upstream's {@code GroupVersionResource}, {@code apps/v1/deployments} or {@code /v1/pods}: a
   * resource in one version, whatever discovery says of its kind or verbs.
   */
  static String key(Gvr gvr) {
    return gvr.group() + "/" + gvr.version() + "/" + gvr.resource();
  }

  /**
   * Upstream's {@code syncMonitors}: monitors for exactly {@code resources} (by {@link #key}). New
   * informers are not started here but by the factory's next start (the manager's first, or {@link
   * #start}).
   */
  synchronized void sync(Ctx ctx, Map<String, Gvr> resources) {
    Map<String, Monitor> toRemove = new LinkedHashMap<>(monitors);
    monitors.clear();
    int added = 0;
    for (Map.Entry<String, Gvr> e : resources.entrySet()) {
      Monitor m = toRemove.remove(e.getKey());
      if (m == null) {
        m = new Monitor(e.getValue(), informers.metadataInformer(e.getValue().context()));
        Handlers.add(ctx, m.informer(), GarbageCollector.handler(graph));
        added++;
      }
      monitors.put(e.getKey(), m);
    }
    toRemove.values().forEach(m -> informers.removeMetadataInformer(m.gvr().context()));
    ctx.logger()
        .v(4)
        .info(
            "Synced monitors",
            "added",
            added,
            "kept",
            monitors.size() - added,
            "removed",
            toRemove.size());
  }

  /** Upstream's {@code startMonitors}: starts the informers added since the last start. */
  void start(Ctx ctx) {
    informers.start(ctx);
  }

  /**
   * Waits up to {@code timeout} until every started informer has listed once; false on timeout or
   * cancellation.
   */
  boolean awaitSynced(Ctx ctx, Duration timeout) {
    return informers.waitForCacheSync(ctx, timeout) && synced();
  }

  /** Whether there are monitors and all have listed once (upstream's {@code IsSynced}). */
  synchronized boolean synced() {
    return !monitors.isEmpty()
        && monitors.values().stream().allMatch(m -> m.informer().hasSynced());
  }

  /** Whether the resource has a monitor that listed once (upstream's {@code IsResourceSynced}). */
  synchronized boolean synced(String key) {
    Monitor m = monitors.get(key);
    return m != null && m.informer().hasSynced();
  }

  /** The monitored resources' keys. */
  synchronized Set<String> resources() {
    return Set.copyOf(monitors.keySet());
  }
}
