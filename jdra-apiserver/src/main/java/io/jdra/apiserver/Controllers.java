package io.jdra.apiserver;

import io.jdra.apiserver.controllers.GarbageCollector;
import io.jdra.apiserver.controllers.NamespaceController;
import io.jdra.apiserver.rest.ObjectService;
import io.vertx.core.Vertx;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The server's own background work: GC, namespace finalization, snapshots. One thread. */
final class Controllers implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Controllers.class);

  private final ObjectService service;
  private final ScheduledExecutorService executor =
      Executors.newSingleThreadScheduledExecutor(
          r -> Thread.ofPlatform().name("jdra-apiserver-controllers").daemon().unstarted(r));
  private final GarbageCollector gc;
  private final NamespaceController namespaces;

  Controllers(ObjectService service, Vertx vertx) {
    this.service = service;
    this.gc = new GarbageCollector(service, executor);
    this.namespaces = new NamespaceController(service, executor);
  }

  void start() {
    gc.start();
    namespaces.start();
    executor.scheduleWithFixedDelay(this::snapshot, 1, 1, TimeUnit.SECONDS);
  }

  private void snapshot() {
    try {
      service.storage().maybeSnapshot();
    } catch (Exception e) {
      LOG.error("Snapshot failed", e);
    }
  }

  @Override
  public void close() {
    gc.close();
    namespaces.close();
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
