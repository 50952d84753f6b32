package io.jdra.controllers.namespace;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.controllers.controllerutil.ApiResources;
import io.jdra.controllers.controllerutil.QueueController;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Handlers;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.workqueue.RateLimiters;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import io.jdra.runtime.workqueue.WorkQueueMetrics;
import io.jdra.runtime.workqueue.WorkQueues;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * The namespace controller ({@code pkg/controller/namespace}): when a namespace is being deleted it
 * deletes everything in it and then removes the {@code kubernetes} finalizer from {@code
 * spec.finalizers}, reporting progress in the {@code NamespaceDeletion*} and {@code
 * Namespace*Remaining} conditions ({@link NamespacedResourcesDeleter}). Handlers only enqueue; a
 * namespace with content left is looked at again after half the estimated time plus a second, as
 * upstream; errors are retried with at most a minute between tries.
 */
public final class NamespaceController extends QueueController {
  /** The controller's name in kube-controller-manager. */
  public static final String NAME = "namespace-controller";

  /** Upstream's queue name. */
  public static final String QUEUE_NAME = "namespace";

  /**
   * How the controller paces itself.
   *
   * @param deletionGracePeriod upstream's {@code namespaceDeletionGracePeriod} (5 s): a deleted
   *     namespace is first looked at after this, so that every API server of an HA cluster refuses
   *     new content in it and last-moment creations are seen; {@code jdra up}'s one API server
   *     needs none
   * @param maxRemainingWait the longest wait before looking again at a namespace with content left
   *     (upstream: none, half the estimate plus a second; 30 s grace periods make 16 s); {@code
   *     jdra up}, whose simulated kubelets end pods within milliseconds, looks again after a second
   */
  public record Options(Duration deletionGracePeriod, Duration maxRemainingWait) {
    public static final Duration DEFAULT_DELETION_GRACE_PERIOD = Duration.ofSeconds(5);

    /** Upstream's pacing. */
    public static Options defaults() {
      return new Options(DEFAULT_DELETION_GRACE_PERIOD, Duration.ofDays(1));
    }
  }

  private final Lister<Namespace> lister;
  private final NamespacedResourcesDeleter deleter;
  private final Options options;

  NamespaceController(
      Lister<Namespace> lister,
      NamespacedResourcesDeleter deleter,
      RateLimitingQueue<String> queue,
      Options options,
      BooleanSupplier synced) {
    super(QUEUE_NAME, queue, synced);
    this.lister = lister;
    this.deleter = deleter;
    this.options = options;
  }

  /** Wires the controller to the shared Namespace informer; call before the factory starts. */
  public static NamespaceController create(
      Ctx ctx,
      KubernetesClient client,
      InformerFactory informers,
      WorkQueueMetrics queueMetrics,
      Options options) {
    SharedIndexInformer<Namespace> namespaces = informers.informer(Namespace.class);
    RateLimitingQueue<String> queue =
        WorkQueues.rateLimiting(QUEUE_NAME, rateLimiter(ctx), ctx.clock(), queueMetrics);
    NamespaceController c =
        new NamespaceController(
            Lister.of(namespaces),
            new NamespacedResourcesDeleter(
                client, () -> ApiResources.discover(client), ctx.clock()),
            queue,
            options,
            namespaces::hasSynced);
    Handlers.add(
        ctx,
        namespaces,
        new ResourceEventHandler<Namespace>() {
          @Override
          public void onAdd(Namespace ns) {
            c.enqueueNamespace(ns);
          }

          @Override
          public void onUpdate(Namespace old, Namespace cur) {
            c.enqueueNamespace(cur);
          }

          @Override
          public void onDelete(Namespace ns, boolean finalStateUnknown) {}
        });
    return c;
  }

  /**
   * Upstream's {@code nsControllerRateLimiter}: a failing namespace is retried at least every
   * minute; 10 retries per second overall.
   */
  private static io.jdra.runtime.workqueue.RateLimiter<String> rateLimiter(Ctx ctx) {
    return RateLimiters.max(
        RateLimiters.exponential(Duration.ofMillis(5), Duration.ofSeconds(60)),
        RateLimiters.bucket(10, 100, ctx.clock()));
  }

  void enqueueNamespace(Namespace ns) {
    if (ns.getMetadata().getDeletionTimestamp() == null) {
      return;
    }
    queue.addAfter(ns.getMetadata().getName(), options.deletionGracePeriod());
  }

  /** Upstream's {@code syncNamespaceFromKey}. */
  @Override
  protected void syncHandler(Ctx ctx, String key) {
    if (lister.get(null, key).isEmpty()) {
      ctx.logger().v(4).info("Namespace not found in the cache", "namespace", key);
      return;
    }
    try {
      deleter.delete(ctx, key);
    } catch (NamespacedResourcesDeleter.ResourcesRemainingException e) {
      Duration wait = Duration.ofSeconds(e.estimate / 2 + 1);
      if (wait.compareTo(options.maxRemainingWait()) > 0) {
        wait = options.maxRemainingWait();
      }
      ctx.logger().v(4).info("Content remaining in namespace", "namespace", key, "wait", wait);
      queue.addAfter(key, wait);
    }
  }
}
