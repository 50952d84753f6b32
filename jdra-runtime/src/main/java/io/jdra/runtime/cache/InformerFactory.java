package io.jdra.runtime.cache;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.client.Clients;
import io.jdra.runtime.client.InformerExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Shared informers per type, as client-go's {@code SharedInformerFactory}, over fabric8's {@link
 * SharedIndexInformer} (list+watch, reconnects, indexers: fabric8 does the work, this class only
 * shares and starts them).
 *
 * <p>Use: create the informers a component needs ({@link #informer}), add indexers and handlers,
 * then {@link #start(Ctx)}; wait with {@link #waitForCacheSync} before workers start. Informers
 * asked for after {@code start} are started by the next {@code start} call, as upstream. No resync
 * (period 0), as upstream controllers use. A failed list or watch is retried for as long as the
 * informer runs, the first list included, as client-go's reflector does. Thread-safe.
 *
 * <p>managedFields: informers of a factory made with {@code trimManagedFields} (all of them, as
 * kube-controller-manager's shared and metadata informer factories with {@code
 * WithTransform(trim)}), or of a type named with {@link #trimManagedFields(Class)} (as
 * kube-scheduler's pod informer), hold and hand to handlers objects without {@code
 * metadata.managedFields}: an empty list, fabric8's value for an absent field. The subtree is
 * skipped while their list and watch responses are parsed ({@link Clients#withoutManagedFields}),
 * not decoded and then dropped; nested template metadata and all other fields decode as before.
 * Everything else keeps them: {@link #client()}, its GETs and the answers to its writes, and the
 * informers of other factories and types (upstream's kubelet trims nothing). Components that trim
 * must not read managedFields from their informers, as upstream's do not.
 *
 * <p>Threads: the informers' watches decode events, update the caches and call the handlers on the
 * factory's {@link InformerExecutor} (threads {@code informer-pool-N-thread-M}), where an event
 * goes from decoding to its handlers on one thread instead of three; {@link #stop} ends them.
 * Handlers must not block on work of the factory's informers.
 */
public final class InformerFactory {
  private final KubernetesClient client;
  private final boolean trimAll;
  private final Set<Class<?>> trimmedTypes = new HashSet<>();
  private final InformerExecutor executor = new InformerExecutor();
  private final KubernetesClient[] sources = new KubernetesClient[2];
  private final Map<Key, SharedIndexInformer<?>> informers = new LinkedHashMap<>();
  private final Map<Key, CompletableFuture<Void>> started = new LinkedHashMap<>();
  private boolean stopped;

  /**
   * {@code type} is a model class or, for metadata informers, the resource's group/version/plural.
   */
  private record Key(Object type, String namespace) {}

  /**
   * A factory whose informers keep managedFields (client-go's {@code NewSharedInformerFactory}).
   */
  public InformerFactory(KubernetesClient client) {
    this(client, false);
  }

  /**
   * A factory whose informers all drop managedFields when {@code trimManagedFields} (see the class
   * comment).
   */
  public InformerFactory(KubernetesClient client, boolean trimManagedFields) {
    this.client = client;
    this.trimAll = trimManagedFields;
  }

  /**
   * The informer of this type drops managedFields (see the class comment), in a factory that keeps
   * them otherwise: kube-scheduler's pod informer. Call it before the informer is first asked for.
   *
   * @throws IllegalStateException if this type's informer already exists with managedFields
   */
  public synchronized InformerFactory trimManagedFields(Class<? extends HasMetadata> type) {
    if (!trimAll && !trimmedTypes.contains(type)) {
      for (Key k : informers.keySet()) {
        if (k.type() == type) {
          throw new IllegalStateException(
              "the informer of "
                  + type.getSimpleName()
                  + " already exists with managedFields: trim them before its first use");
        }
      }
    }
    trimmedTypes.add(type);
    return this;
  }

  /** Whether informers of this type drop managedFields. */
  public synchronized boolean trimsManagedFields(Class<?> type) {
    return trimAll || trimmedTypes.contains(type);
  }

  /**
   * The client an informer lists and watches with: a view of the factory's client whose watches and
   * informers run on this factory's {@link InformerExecutor} (an event goes from decoding to the
   * handlers on one thread), trimming managedFields or not.
   */
  private KubernetesClient source(boolean trim) {
    int i = trim ? 1 : 0;
    if (sources[i] == null) {
      sources[i] = Clients.forInformers(client, trim, executor);
    }
    return sources[i];
  }

  /**
   * The client the factory was made with, for GETs and writes: its answers keep managedFields
   * whatever the informers do.
   */
  public KubernetesClient client() {
    return client;
  }

  /** The shared informer for all objects of this type in all namespaces (created on first use). */
  public <T extends HasMetadata> SharedIndexInformer<T> informer(Class<T> type) {
    return informer(type, null);
  }

  /** The shared informer for objects of this type in one namespace (null: all namespaces). */
  @SuppressWarnings("unchecked")
  public synchronized <T extends HasMetadata> SharedIndexInformer<T> informer(
      Class<T> type, String namespace) {
    Key key = new Key(type, namespace);
    KubernetesClient source = source(trimsManagedFields(type));
    return (SharedIndexInformer<T>)
        informers.computeIfAbsent(
            key,
            k ->
                (namespace == null
                        ? source.resources(type).inAnyNamespace().runnableInformer(0)
                        : source.resources(type).inNamespace(namespace).runnableInformer(0))
                    .exceptionHandler(InformerFactory::retryAfterException));
  }

  /**
   * client-go's reflector retries a failed list or watch with backoff for as long as the informer
   * runs, also before its first list succeeded; fabric8 by default gives up on a failed first list
   * and stops the informer, so a component started while the API server is slow would never sync.
   * fabric8 backs off between attempts itself.
   */
  static boolean retryAfterException(boolean isStarted, Throwable t) {
    return true;
  }

  /**
   * The shared metadata-only informer of a resource in all namespaces (client-go's {@code
   * metadatainformer}): its cache and its handlers' old objects keep only {@code apiVersion},
   * {@code kind} and {@code metadata}, for controllers that read metadata of every kind (the
   * garbage collector). The objects still travel whole: the API server answers no {@code
   * PartialObjectMetadata} lists. The cache never keeps managedFields; a factory that trims them
   * also skips them while parsing.
   */
  @SuppressWarnings("unchecked")
  public synchronized SharedIndexInformer<GenericKubernetesResource> metadataInformer(
      ResourceDefinitionContext resource) {
    KubernetesClient source = source(trimAll);
    return (SharedIndexInformer<GenericKubernetesResource>)
        informers.computeIfAbsent(
            metadataKey(resource),
            k ->
                source
                    .genericKubernetesResources(resource)
                    .inAnyNamespace()
                    .runnableInformer(0)
                    .itemStore(new MetadataOnlyStore())
                    .exceptionHandler(InformerFactory::retryAfterException));
  }

  /**
   * Stops the metadata-only informer of a resource, if there is one, and forgets it: {@link
   * #synced} no longer waits for it and a later {@link #metadataInformer} call makes a new one (the
   * garbage collector drops its monitor of a resource the server no longer serves).
   */
  public void removeMetadataInformer(ResourceDefinitionContext resource) {
    SharedIndexInformer<?> removed;
    synchronized (this) {
      Key key = metadataKey(resource);
      removed = informers.remove(key);
      started.remove(key);
    }
    if (removed != null) {
      removed.stop();
    }
  }

  private static Key metadataKey(ResourceDefinitionContext resource) {
    return new Key(
        resource.getGroup() + "/" + resource.getVersion() + "/" + resource.getPlural(), null);
  }

  /** A lister over the shared informer of this type (all namespaces). */
  public <T extends HasMetadata> Lister<T> lister(Class<T> type) {
    return Lister.of(informer(type));
  }

  /**
   * Starts the informers not started yet; those stop when {@code ctx} is cancelled or {@link #stop}
   * is called. Informers an earlier call started keep running on their own context, as client-go's
   * {@code Start(stopCh)}: components that share a factory (scheduler_perf runs the ResourceClaim
   * controller on the scheduler's) each start it, and stopping one stops only what it started.
   * Returns at once.
   */
  public void start(Ctx ctx) {
    List<Map.Entry<Key, SharedIndexInformer<?>>> toStart;
    synchronized (this) {
      if (stopped) {
        throw new IllegalStateException("informer factory already stopped");
      }
      toStart = new ArrayList<>();
      for (var e : informers.entrySet()) {
        if (!started.containsKey(e.getKey())) {
          toStart.add(e);
        }
      }
      for (var e : toStart) {
        Object type = e.getKey().type();
        ctx.logger()
            .v(3)
            .info(
                "Starting informer",
                "type",
                type instanceof Class<?> c ? c.getSimpleName() : type.toString());
        started.put(e.getKey(), e.getValue().start().toCompletableFuture());
      }
    }
    if (!toStart.isEmpty()) {
      ctx.onCancel(() -> toStart.forEach(e -> e.getValue().stop()));
    }
  }

  /**
   * Waits until every started informer has listed once (client-go's {@code WaitForCacheSync}).
   * Returns false on timeout, on cancellation of {@code ctx}, or when an informer failed to start.
   */
  public boolean waitForCacheSync(Ctx ctx, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      List<CompletableFuture<Void>> waited;
      synchronized (this) {
        waited = List.copyOf(started.values());
      }
      CompletableFuture<Void> all =
          CompletableFuture.allOf(waited.toArray(CompletableFuture[]::new));
      CompletableFuture<Object> either = CompletableFuture.anyOf(all, ctx.done());
      try {
        either.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
      if (ctx.isCancelled()) {
        return false;
      }
      synchronized (this) {
        // Another user of a shared factory may have started informers meanwhile: wait for those
        // too rather than report the factory unsynced.
        if (started.values().stream().allMatch(CompletableFuture::isDone)) {
          return synced();
        }
      }
    }
  }

  /** Whether every started informer has synced (and at least one was started). */
  public synchronized boolean synced() {
    if (started.isEmpty()) {
      return false;
    }
    for (Key k : started.keySet()) {
      if (!informers.get(k).hasSynced()) {
        return false;
      }
    }
    return true;
  }

  /** Stops all informers. Idempotent. */
  public void stop() {
    List<SharedIndexInformer<?>> all;
    synchronized (this) {
      if (stopped) {
        return;
      }
      stopped = true;
      all = new ArrayList<>(informers.values());
    }
    all.forEach(SharedIndexInformer::stop);
    executor.shutdown();
  }
}
