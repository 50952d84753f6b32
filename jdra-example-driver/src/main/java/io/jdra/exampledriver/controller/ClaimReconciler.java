package io.jdra.exampledriver.controller;

import static io.jdra.runtime.logging.Klog.kobj;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Handlers;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.logging.HandleError;
import io.jdra.runtime.workqueue.RateLimiters;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import io.jdra.runtime.workqueue.WorkQueues;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Upstream dra-example-controller's {@code ClaimReconciler}: watches all ResourceClaims and, for
 * each claim with at least one allocation result of its driver, runs every enabled {@link Plugin}.
 *
 * <p>As the controller-runtime controller upstream builds ({@code For(&ResourceClaim{})}): every
 * add, update and delete enqueues the claim's {@code namespace/name}; one worker reconciles a key
 * at a time from the informer cache; a failed reconcile is retried with the default controller
 * backoff (5 ms doubling to 1000 s, and 10/s overall). Upstream runs the plugins of one claim in
 * parallel goroutines; here they run one after the other, which gives the same result since each
 * writes its own change, and every plugin runs even when an earlier one failed.
 */
public final class ClaimReconciler {
  /** The name controller-runtime gives the controller (the kind, lower case). */
  public static final String NAME = "resourceclaim";

  private final KubernetesClient client;
  private final String driverName;
  private final List<Plugin> plugins;
  private final Lister<ResourceClaim> claims;
  private final RateLimitingQueue<String> queue;
  private final BooleanSupplier synced;

  ClaimReconciler(
      KubernetesClient client,
      String driverName,
      List<Plugin> plugins,
      Lister<ResourceClaim> claims,
      RateLimitingQueue<String> queue,
      BooleanSupplier synced) {
    this.client = client;
    this.driverName = driverName;
    this.plugins = List.copyOf(plugins);
    this.claims = claims;
    this.queue = queue;
    this.synced = synced;
  }

  /**
   * Wires the reconciler to the shared ResourceClaim informer (call before the factory starts); the
   * handler stays registered for the lifetime of {@code ctx}.
   */
  public static ClaimReconciler create(
      Ctx ctx,
      KubernetesClient client,
      InformerFactory informers,
      String driverName,
      List<Plugin> plugins) {
    SharedIndexInformer<ResourceClaim> informer = informers.informer(ResourceClaim.class);
    RateLimitingQueue<String> queue =
        WorkQueues.rateLimiting(
            NAME, RateLimiters.defaultController(ctx.clock()), ctx.clock(), null);
    ClaimReconciler r =
        new ClaimReconciler(
            client, driverName, plugins, Lister.of(informer), queue, informer::hasSynced);
    Handlers.add(ctx, informer, r.handler());
    return r;
  }

  private ResourceEventHandler<ResourceClaim> handler() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(ResourceClaim c) {
        enqueue(c);
      }

      @Override
      public void onUpdate(ResourceClaim old, ResourceClaim cur) {
        enqueue(cur);
      }

      @Override
      public void onDelete(ResourceClaim c, boolean finalStateUnknown) {
        enqueue(c);
      }
    };
  }

  void enqueue(ResourceClaim c) {
    queue.add(c.getMetadata().getNamespace() + "/" + c.getMetadata().getName());
  }

  /**
   * Waits for the informer, then reconciles keys on the calling thread until {@code ctx} is
   * cancelled (controller-runtime's default of one concurrent reconcile).
   */
  public void run(Ctx ctx) throws InterruptedException {
    ctx.logger().info("Starting Controller", "controller", NAME, "driver", driverName);
    try (Ctx.Registration stop = ctx.onCancel(queue::shutDown)) {
      while (!synced.getAsBoolean()) {
        if (!ctx.sleep(Duration.ofMillis(50))) {
          return;
        }
      }
      ctx.logger().info("Starting workers", "controller", NAME, "worker count", 1);
      while (processNextWorkItem(ctx)) {
        // next key
      }
    } finally {
      queue.shutDown();
      ctx.logger().info("Shutdown signal received, waiting for all workers to finish");
    }
  }

  /** One key from the queue: false once the queue shut down. */
  boolean processNextWorkItem(Ctx ctx) {
    String key = queue.get();
    if (key == null) {
      return false;
    }
    try {
      reconcile(ctx, key);
      queue.forget(key);
    } catch (RuntimeException e) {
      HandleError.handle(ctx, e, "Reconciler error", "controller", NAME, "key", key);
      queue.addRateLimited(key);
    } finally {
      queue.done(key);
    }
    return true;
  }

  /**
   * Upstream's {@code Reconcile}: a deleted claim or one without results of this driver needs
   * nothing; otherwise every plugin runs.
   *
   * @throws IllegalStateException naming each plugin that failed, to have the key retried
   */
  void reconcile(Ctx ctx, String key) {
    int slash = key.indexOf('/');
    ResourceClaim claim =
        claims.get(key.substring(0, slash), key.substring(slash + 1)).orElse(null);
    if (claim == null || !isRelevant(claim, driverName)) {
      return;
    }
    Ctx claimCtx = ctx.withValues("claim", kobj(claim));
    List<String> errors = new ArrayList<>();
    for (Plugin p : plugins) {
      try {
        p.reconcile(claimCtx, client, claim);
      } catch (RuntimeException e) {
        errors.add(p.name() + ": " + e.getMessage());
      }
    }
    if (!errors.isEmpty()) {
      throw new IllegalStateException("plugins failed: " + errors);
    }
  }

  /** Upstream's {@code isRelevant}: the claim has an allocation result of {@code driverName}. */
  static boolean isRelevant(ResourceClaim claim, String driverName) {
    if (claim.getStatus() == null
        || claim.getStatus().getAllocation() == null
        || claim.getStatus().getAllocation().getDevices() == null) {
      return false;
    }
    List<DeviceRequestAllocationResult> results =
        claim.getStatus().getAllocation().getDevices().getResults();
    if (results == null) {
      return false;
    }
    for (DeviceRequestAllocationResult r : results) {
      if (driverName.equals(r.getDriver())) {
        return true;
      }
    }
    return false;
  }
}
