package io.jdra.kubeletplugin.resourceslice;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourcePool;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Handlers;
import io.jdra.runtime.logging.Klog;
import io.jdra.runtime.workqueue.RateLimiters;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import io.jdra.runtime.workqueue.WorkQueues;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes a driver's {@link DriverResources} as ResourceSlices and keeps them so (upstream
 * k8s.io/dynamic-resource-allocation/resourceslice.Controller).
 *
 * <p>One pool is one work item. A sync compares the slices of the pool (informer plus {@link
 * SliceCache}) with the desired ones: slices of an older generation, with a name whose index prefix
 * does not match, or duplicates are obsolete and deleted first (with UID and resourceVersion
 * preconditions); then changed slices are updated, then missing ones created with {@code
 * generateName: <index>-<driver>-<owner>-}. The pool generation is bumped when more than one write
 * is needed, so that consumers never mix slices of two states; a single update keeps it. {@code
 * resourceSliceCount} is always the desired count. After informer events a sync is delayed by
 * {@link Options#syncDelay()}; failures are retried rate-limited and reported to the error handler.
 * Fields the API server dropped are reported as {@link DroppedFieldsException}.
 *
 * <p>One worker (a virtual thread) per controller, so many drivers in one JVM cost little.
 */
public final class ResourceSliceController {
  /**
   * How long after an informer event the pool is synced (upstream DefaultSyncDelay): long enough
   * that the informer cache is current again (an outdated cache causes redundant deletes), short
   * enough that a person who broke a slice by hand sees it repaired while waiting.
   */
  public static final Duration DEFAULT_SYNC_DELAY = Duration.ofSeconds(30);

  /**
   * How long a written slice is trusted over the informer (upstream DefaultMutationCacheTTL): long
   * enough for the informer to deliver the write, after which the informer's copy is the truth
   * again.
   */
  public static final Duration DEFAULT_MUTATION_CACHE_TTL = Duration.ofMinutes(1);

  static final int INDEX_MIN_LENGTH = 5;

  /** Called for every problem; the controller retries afterwards by itself. */
  @FunctionalInterface
  public interface ErrorHandler {
    void handle(Ctx ctx, Throwable err, String msg);
  }

  /** Counters of API calls (upstream Stats). */
  public record Stats(long numCreates, long numUpdates, long numDeletes) {}

  private final Ctx ctx;
  private final KubernetesClient client;
  private final String driverName;
  private volatile Owner owner;
  private final Duration syncDelay;
  private final Duration mutationCacheTtl;
  private final ErrorHandler errorHandler;
  private final RateLimitingQueue<String> queue;
  private final SharedIndexInformer<ResourceSlice> informer;
  private final SliceCache cache;
  private final Map<String, Instant> lastAddByPool = new HashMap<>();
  private final AtomicLong creates = new AtomicLong();
  private final AtomicLong updates = new AtomicLong();
  private final AtomicLong deletes = new AtomicLong();
  private final Object lock = new Object();
  private DriverResources resources = new DriverResources(Map.of());
  private long resourcesVersion;
  private final Map<String, Long> syncedVersion = new HashMap<>();
  private Thread worker;

  private ResourceSliceController(Ctx ctx, Options o) {
    this.ctx = ctx;
    this.client = o.client();
    this.driverName = o.driverName();
    this.owner = o.owner();
    this.syncDelay = o.syncDelay();
    this.mutationCacheTtl = o.mutationCacheTtl();
    this.errorHandler = o.errorHandler();
    this.queue =
        o.queue() != null
            ? o.queue()
            : WorkQueues.rateLimiting(
                "node_resource_slices",
                RateLimiters.defaultController(ctx.clock()),
                ctx.clock(),
                null);
    var op = client.resources(ResourceSlice.class).withField("spec.driver", driverName);
    if (owner != null && owner.isNode()) {
      op = op.withField("spec.nodeName", owner.name());
    }
    this.informer = op.runnableInformer(0);
    informer.addIndexers(
        Map.of(SliceCache.POOL_NAME_INDEX, s -> List.of(s.getSpec().getPool().getName())));
    this.cache = new SliceCache(informer, ctx.clock(), mutationCacheTtl);
  }

  /**
   * Starts the controller: waits until its informer has listed the existing slices, then syncs
   * every pool of {@code options.resources()} at once.
   *
   * @throws IllegalStateException when {@code ctx} is cancelled or the informer cannot start
   */
  public static ResourceSliceController start(Ctx ctx, Options options) {
    Ctx c = ctx.withCancel();
    ResourceSliceController rsc = new ResourceSliceController(c, options);
    rsc.run(options.resources());
    return rsc;
  }

  private void run(DriverResources initial) {
    Handlers.add(ctx, informer, new EventHandler());
    ctx.logger().v(3).info("Starting ResourceSlice informer and waiting for it to sync");
    CompletableFuture<Void> synced = informer.start().toCompletableFuture();
    ctx.onCancel(this::shutDown);
    try {
      CompletableFuture.anyOf(synced, ctx.done()).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      ctx.cancel();
      throw new IllegalStateException("sync ResourceSlice informer: interrupted", e);
    } catch (ExecutionException e) {
      ctx.cancel();
      throw new IllegalStateException(
          "sync ResourceSlice informer: " + e.getCause().getMessage(), e.getCause());
    }
    if (ctx.isCancelled()) {
      throw new IllegalStateException("sync ResourceSlice informer: context cancelled");
    }
    ctx.logger().v(3).info("ResourceSlice informer has synced");
    update(initial);
    worker = Thread.ofVirtual().name("resourceslice-" + driverName).start(this::work);
  }

  /** Replaces the desired state; the pools of the old and the new state are synced at once. */
  public void update(DriverResources desired) {
    synchronized (lock) {
      for (String pool : resources.pools().keySet()) {
        queue.add(pool);
      }
      resources = desired == null ? new DriverResources(Map.of()) : desired;
      resourcesVersion++;
      for (String pool : resources.pools().keySet()) {
        queue.add(pool);
      }
      lock.notifyAll(); // no pools at all: published at once
    }
  }

  /**
   * Whether every pool of the current desired state was synced successfully since the last {@link
   * #update}: the slices are on the server as desired (the "published" signal).
   */
  public boolean published() {
    synchronized (lock) {
      return publishedLocked();
    }
  }

  /**
   * Waits until {@link #published} holds, at most {@code timeout}; returns whether it does. For
   * callers that must not go on before the slices are on the server (tests, benchmarks, start-up
   * probes), without polling.
   */
  public boolean awaitPublished(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (!publishedLocked()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(lock, left);
      }
      return true;
    }
  }

  private boolean publishedLocked() {
    for (String pool : resources.pools().keySet()) {
      if (syncedVersion.getOrDefault(pool, -1L) != resourcesVersion) {
        return false;
      }
    }
    return true;
  }

  /** The controller's informer (tests stop it to make it lag behind the controller's writes). */
  SharedIndexInformer<ResourceSlice> informer() {
    return informer;
  }

  public Stats stats() {
    return new Stats(creates.get(), updates.get(), deletes.get());
  }

  /** Stops the worker and the informer and waits for them. Published slices stay. */
  public void stop() {
    ctx.cancel();
    Thread w = worker;
    if (w != null && w != Thread.currentThread()) {
      try {
        w.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void shutDown() {
    queue.shutDown();
    informer.stop();
    ctx.logger().v(3).info("ResourceSlice informer has stopped");
  }

  private void work() {
    for (String pool = queue.get(); pool != null; pool = queue.get()) {
      try {
        long version;
        synchronized (lock) {
          version = resourcesVersion;
        }
        syncPool(ctx.withValues("poolName", pool), pool);
        queue.forget(pool);
        synchronized (lock) {
          syncedVersion.put(pool, version);
          lock.notifyAll();
        }
      } catch (RuntimeException e) {
        if (!ctx.isCancelled()) {
          errorHandler.handle(ctx, e, "processing ResourceSlice objects");
          queue.addRateLimited(pool);
        }
      } finally {
        queue.done(pool);
      }
    }
  }

  private void syncPool(Ctx c, String poolName) {
    Instant start = c.clock().now();
    List<ResourceSlice> slices = cache.byPool(poolName);
    Pool pool;
    synchronized (lock) {
      pool = resources.pools().get(poolName);
    }
    if (pool == null) {
      if (!slices.isEmpty()) {
        c.logger().v(5).info("Removing resource slices after pool removal");
        removeSlices(c, slices);
      }
      return;
    }
    String nodeName = owner != null && owner.isNode() ? owner.name() : null;
    if (owner != null && owner.isNode() && owner.uid() == null) {
      Node node = client.nodes().withName(owner.name()).get();
      if (node == null) {
        throw new IllegalStateException("retrieve node \"" + owner.name() + "\": not found");
      }
      owner = owner.withUid(node.getMetadata().getUid());
    }
    long generation = 0;
    for (ResourceSlice s : slices) {
      generation = Math.max(generation, s.getSpec().getPool().getGeneration());
    }
    List<Slice> desired = pool.slices();
    int prefixLength = indexLength(desired.size());
    Map<Integer, ResourceSlice> current = new HashMap<>();
    List<ResourceSlice> obsolete = new ArrayList<>();
    for (ResourceSlice s : slices) {
      int index = decodeIndex(s.getMetadata().getName(), prefixLength);
      if (s.getSpec().getPool().getGeneration() < generation
          || index < 0
          || index >= desired.size()
          || current.containsKey(index)) {
        obsolete.add(s);
        c.logger().v(5).info("Unmatched existing slice (obsolete)", "slice", Klog.kobj(s));
      } else {
        current.put(index, s);
      }
    }
    ResourcePool desiredPool = pool(generation, poolName, desired.size());
    Set<Integer> changed = new HashSet<>();
    for (var e : current.entrySet()) {
      if (!SliceDiff.sameSpec(
          e.getValue().getSpec(), specFor(desiredPool, pool, desired.get(e.getKey()), nodeName))) {
        changed.add(e.getKey());
      }
    }
    int numNew = desired.size() - current.size();
    boolean bumped = true;
    if (pool.generation() > generation) {
      generation = pool.generation();
    } else if (numNew == 0 && changed.size() <= 1) {
      bumped = false;
    } else {
      generation++;
    }
    desiredPool.setGeneration(generation);
    c.logger()
        .v(5)
        .info(
            "Completed comparison",
            "numObsolete",
            obsolete.size(),
            "numMatchedSlices",
            current.size(),
            "numChangedMatchedSlices",
            changed.size(),
            "numNewSlices",
            numNew,
            "generation",
            generation);

    // Deletes first: better to withdraw devices the driver no longer has even when the new
    // slices turn out to be invalid.
    removeSlices(c, obsolete);
    for (var e : current.entrySet()) {
      int i = e.getKey();
      if (!changed.contains(i) && !bumped) {
        continue;
      }
      ResourceSlice update =
          new ResourceSliceBuilder(e.getValue())
              .withSpec(specFor(desiredPool, pool, desired.get(i), nodeName))
              .build();
      ResourceSlice stored = client.resources(ResourceSlice.class).resource(update).update();
      updates.incrementAndGet();
      c.logger().v(5).info("Updated existing resource slice", "slice", Klog.kobj(stored));
      stored(c, poolName, i, update, stored);
    }
    boolean added = false;
    for (int i = 0; i < desired.size(); i++) {
      if (current.containsKey(i)) {
        continue;
      }
      String generateName =
          encodeIndex(i, prefixLength)
              + "-"
              + driverName
              + "-"
              + (owner != null ? owner.name() + "-" : "");
      ObjectMetaBuilder meta = new ObjectMetaBuilder().withGenerateName(generateName);
      if (owner != null) {
        meta.withOwnerReferences(
            new OwnerReferenceBuilder()
                .withApiVersion(owner.apiVersion())
                .withKind(owner.kind())
                .withName(owner.name())
                .withUid(owner.uid())
                .withController(true)
                .build());
      }
      ResourceSlice create =
          new ResourceSliceBuilder()
              .withMetadata(meta.build())
              .withSpec(specFor(desiredPool, pool, desired.get(i), nodeName))
              .build();
      ResourceSlice stored = client.resources(ResourceSlice.class).resource(create).create();
      creates.incrementAndGet();
      added = true;
      c.logger().v(5).info("Created new resource slice", "slice", Klog.kobj(stored));
      stored(c, poolName, i, create, stored);
    }
    scheduleResync(c, poolName, start, added);
  }

  /**
   * After creates, sync once more when the written slices have left the mutation cache: only then
   * is it certain that the informer, not the cache, agrees with the server.
   */
  private void scheduleResync(Ctx c, String poolName, Instant start, boolean added) {
    Instant now = c.clock().now();
    if (added) {
      lastAddByPool.put(poolName, now);
    } else {
      Instant last = lastAddByPool.get(poolName);
      if (last != null && start.isAfter(last.plus(mutationCacheTtl))) {
        lastAddByPool.remove(poolName);
      }
    }
    Instant last = lastAddByPool.get(poolName);
    if (last != null) {
      queue.addAfter(poolName, Duration.between(now, last.plus(mutationCacheTtl)));
    }
  }

  private ResourceSliceSpec specFor(
      ResourcePool desiredPool, Pool pool, Slice slice, String nodeName) {
    ResourceSliceSpec spec = new ResourceSliceSpec();
    spec.setDriver(driverName);
    spec.setPool(
        pool(
            desiredPool.getGeneration(),
            desiredPool.getName(),
            desiredPool.getResourceSliceCount()));
    spec.setNodeName(nodeName);
    spec.setNodeSelector(pool.nodeSelector());
    spec.setAllNodes(pool.allNodes() ? Boolean.TRUE : null);
    spec.setDevices(new ArrayList<>(slice.devices()));
    spec.setSharedCounters(
        slice.sharedCounters().isEmpty() ? null : new ArrayList<>(slice.sharedCounters()));
    spec.setPerDeviceNodeSelection(slice.perDeviceNodeSelection());
    return spec;
  }

  /**
   * A create or update went through; remember it, and if the server stored less than asked for,
   * report it and desire what was stored, or every sync would write the same slice again.
   */
  private void stored(
      Ctx c, String poolName, int index, ResourceSlice desired, ResourceSlice actual) {
    cache.mutation(actual);
    if (SliceDiff.sameContent(desired.getSpec(), actual.getSpec())) {
      return;
    }
    synchronized (lock) {
      Pool pool = resources.pools().get(poolName);
      if (pool != null && index < pool.slices().size()) {
        List<Slice> slices = new ArrayList<>(pool.slices());
        ResourceSliceSpec a = actual.getSpec();
        slices.set(
            index, new Slice(a.getDevices(), a.getSharedCounters(), a.getPerDeviceNodeSelection()));
        Map<String, Pool> pools = new HashMap<>(resources.pools());
        pools.put(
            poolName, new Pool(pool.nodeSelector(), pool.allNodes(), pool.generation(), slices));
        resources = new DriverResources(pools);
      }
    }
    errorHandler.handle(
        c,
        new DroppedFieldsException(poolName, index, desired, actual),
        "ResourceSlice stored without some fields");
  }

  private void removeSlices(Ctx c, List<ResourceSlice> slices) {
    for (ResourceSlice s : slices) {
      // Preconditions: never delete a slice that changed since we looked at it. Not found means
      // it is gone already (the informer was behind), which costs only this call.
      client
          .resources(ResourceSlice.class)
          .withName(s.getMetadata().getName())
          .lockResourceVersion(s.getMetadata().getResourceVersion())
          .delete();
      cache.deleted(s.getMetadata().getName());
      deletes.incrementAndGet();
      c.logger().v(5).info("Deleted obsolete resource slice", "slice", Klog.kobj(s));
    }
  }

  private static ResourcePool pool(long generation, String name, long count) {
    ResourcePool p = new ResourcePool();
    p.setGeneration(generation);
    p.setName(name);
    p.setResourceSliceCount(count);
    return p;
  }

  static int indexLength(int numSlices) {
    return Math.max(INDEX_MIN_LENGTH, Integer.toHexString(Math.max(0, numSlices - 1)).length());
  }

  static String encodeIndex(int index, int length) {
    String hex = Integer.toHexString(index);
    return "0".repeat(Math.max(0, length - hex.length())) + hex;
  }

  /** The index prefix of a slice name, or -1 if the name does not have one of this length. */
  static int decodeIndex(String name, int length) {
    if (name.indexOf('-') != length) {
      return -1;
    }
    try {
      return Integer.parseInt(name.substring(0, length), 16);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private final class EventHandler implements ResourceEventHandler<ResourceSlice> {
    @Override
    public void onAdd(ResourceSlice s) {
      queue.addAfter(s.getSpec().getPool().getName(), syncDelay);
    }

    @Override
    public void onUpdate(ResourceSlice oldSlice, ResourceSlice newSlice) {
      queue.addAfter(oldSlice.getSpec().getPool().getName(), syncDelay);
      if (!Objects.equals(
          oldSlice.getSpec().getPool().getName(), newSlice.getSpec().getPool().getName())) {
        queue.addAfter(newSlice.getSpec().getPool().getName(), syncDelay);
      }
    }

    @Override
    public void onDelete(ResourceSlice s, boolean finalStateUnknown) {
      cache.deleted(s.getMetadata().getName());
      queue.addAfter(s.getSpec().getPool().getName(), syncDelay);
    }
  }
}
