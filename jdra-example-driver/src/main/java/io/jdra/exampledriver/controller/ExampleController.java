package io.jdra.exampledriver.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.InformerFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The Java twin of upstream's {@code dra-example-controller} binary: a {@link ClaimReconciler} for
 * one driver with the plugins {@code --enable-plugin} names, on its own informers and thread.
 * Started by {@code jdra example-controller} and by {@code jdra up --controller-plugins}.
 */
public final class ExampleController implements AutoCloseable {
  /** Upstream's {@code --driver-name} default. */
  public static final String DEFAULT_DRIVER_NAME = "gpu.example.com";

  private final Ctx ctx;
  private final InformerFactory informers;
  private final Thread worker;
  private final CompletableFuture<Void> synced;

  private ExampleController(
      Ctx ctx, InformerFactory informers, Thread worker, CompletableFuture<Void> synced) {
    this.ctx = ctx;
    this.informers = informers;
    this.worker = worker;
    this.synced = synced;
  }

  /**
   * Starts the controller; it runs until {@code ctx} is cancelled or {@link #close} is called.
   *
   * @param pluginNames {@code --enable-plugin} values (comma-separated lists allowed)
   * @throws IllegalArgumentException for an unknown plugin, before anything starts
   */
  public static ExampleController start(
      Ctx parent, KubernetesClient client, String driverName, List<String> pluginNames) {
    List<Plugin> plugins = Plugins.create(pluginNames, driverName);
    Ctx ctx = parent.withName("dra-example-controller").withCancel();
    InformerFactory informers = new InformerFactory(client);
    ClaimReconciler reconciler =
        ClaimReconciler.create(ctx, client, informers, driverName, plugins);
    informers.start(ctx);
    CompletableFuture<Void> synced =
        CompletableFuture.runAsync(() -> {
          if (!informers.waitForCacheSync(ctx, Duration.ofMinutes(2))) {
            throw new IllegalStateException("ResourceClaim informer did not sync");
          }
        });
    Thread worker =
        Thread.ofPlatform()
            .name("dra-example-controller")
            .start(() -> {
              try {
                reconciler.run(ctx);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    ctx.logger()
        .info(
            "Started",
            "driverName",
            driverName,
            "plugins",
            plugins.stream().map(Plugin::name).toList());
    return new ExampleController(ctx, informers, worker, synced);
  }

  /** Completes once the ResourceClaim informer has listed (fails if it did not within 2 min). */
  public CompletableFuture<Void> synced() {
    return synced.copy();
  }

  /** Stops the worker and the informers; waits for the claim being reconciled, if any. */
  @Override
  public void close() throws InterruptedException {
    ctx.cancel();
    informers.stop();
    worker.join(Duration.ofSeconds(10));
  }
}
