package io.jdra.apiserver;

import io.jdra.apiserver.rest.ObjectService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's own background work: storage snapshots, on one thread. Garbage collection and
 * namespace finalization are not the server's: as kube-apiserver, it records what a deletion asks
 * for (finalizers {@code orphan}, {@code foregroundDeletion}, a namespace's {@code kubernetes}) and
 * the controller-manager's garbage collector and namespace controller act on it.
 */
final class Controllers implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Controllers.class);

  private final ObjectService service;
  private final ScheduledExecutorService executor =
      Executors.newSingleThreadScheduledExecutor(
          r -> Thread.ofPlatform().name("jdra-apiserver-snapshots").daemon().unstarted(r));

  Controllers(ObjectService service) {
    this.service = service;
  }

  void start() {
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
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
