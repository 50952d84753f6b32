package io.jdra.apiserver.storage;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * All resource stores, sharing one cluster-wide resourceVersion counter and one persistence.
 * Thread-safe.
 */
public final class Storage implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Storage.class);

  private final AtomicLong counter = new AtomicLong();
  private final Map<String, ResourceStore> stores = new ConcurrentHashMap<>();
  private final Persistence persistence;
  private final int historyLimit;
  private final AtomicBoolean snapshotting = new AtomicBoolean();

  /**
   * Since when a resource without a store had no writes: 0 for a fresh server, the snapshot's
   * version after recovery (what happened before it to resources absent from it is unknown).
   */
  private volatile long knownSince;

  /**
   * @param persistence where writes go
   * @param historyLimit events remembered per resource for watch resumption
   */
  public Storage(Persistence persistence, int historyLimit) {
    if (historyLimit < 1) {
      throw new IllegalArgumentException("watch history limit must be positive");
    }
    this.persistence = persistence;
    this.historyLimit = historyLimit;
  }

  /** Loads what the persistence holds; call once before serving. */
  public void recover() throws IOException {
    Persistence.Recovered r = persistence.recover();
    counter.set(r.snapshotVersion());
    knownSince = r.snapshotVersion();
    for (LogRecord rec : r.snapshot()) {
      store(rec.resource()).replay(rec, false);
      counter.accumulateAndGet(rec.object().resourceVersion(), Math::max);
    }
    for (ResourceStore s : stores.values()) {
      s.setCompactedVersion(r.snapshotVersion());
    }
    for (LogRecord rec : r.tail()) {
      ResourceStore s = store(rec.resource());
      s.replay(rec, true);
      counter.accumulateAndGet(rec.object().resourceVersion(), Math::max);
    }
    LOG.info(
        "Recovered storage: snapshot at {}, {} objects, {} log records, resourceVersion {}",
        r.snapshotVersion(),
        r.snapshot().size(),
        r.tail().size(),
        counter.get());
  }

  /** The store of a resource key ({@code group/plural}), created on first use. */
  public ResourceStore store(String resource) {
    return stores.computeIfAbsent(
        resource, k -> new ResourceStore(k, counter, persistence, historyLimit, knownSince));
  }

  /**
   * Completes once every write made so far is durable; reads answer only then, so that whatever a
   * client has read survives a crash.
   */
  public CompletableFuture<Void> durable() {
    return persistence.barrier();
  }

  /** The newest resourceVersion handed out. */
  public long currentVersion() {
    return counter.get();
  }

  /**
   * Takes a snapshot if the persistence asks for one. Locks every store briefly to copy references,
   * then writes without locks. Safe to call from a timer; concurrent calls are skipped.
   */
  public void maybeSnapshot() throws IOException {
    if (!persistence.snapshotDue() || !snapshotting.compareAndSet(false, true)) {
      return;
    }
    try {
      List<ResourceStore> all = new ArrayList<>(stores.values());
      all.sort((a, b) -> a.resource().compareTo(b.resource()));
      List<LogRecord> records = new ArrayList<>();
      long version;
      all.forEach(ResourceStore::lock);
      try {
        persistence.rotate();
        version = counter.get();
        for (ResourceStore s : all) {
          for (StoredObject o : s.copyLocked()) {
            records.add(new LogRecord(s.resource(), o, false));
          }
        }
      } finally {
        all.forEach(ResourceStore::unlock);
      }
      persistence.writeSnapshot(version, records);
      LOG.info("Wrote snapshot: {} objects at resourceVersion {}", records.size(), version);
    } finally {
      snapshotting.set(false);
    }
  }

  @Override
  public void close() throws IOException {
    persistence.close();
  }
}
