package io.jdra.kubelet.dra;

import io.jdra.kubelet.dra.state.Checkpointer;
import io.jdra.kubelet.dra.state.ClaimInfoState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * The claims this kubelet prepared or is preparing, keyed by namespace and name, backed by a
 * checkpoint (upstream claimInfoCache). Every read and write happens inside {@link
 * #withLockChecked} or {@link #withReadLockUnchecked}; a sequence of changes inside one {@code
 * withLockChecked} is atomic for other threads. The checkpoint is written only by {@link
 * #syncToCheckpoint}, so callers choose when a change becomes durable (upstream writes before and
 * after calling drivers).
 *
 * <p>Unlike upstream, the file is not written while the lock is held: {@code syncToCheckpoint}
 * takes a snapshot, and {@code withLockChecked} returns only once a checkpoint at least that new is
 * on disk. Pods preparing at the same time thus share one write and fsync (group commit) instead of
 * queueing for the lock behind each other's fsyncs; the guarantee callers rely on, durable before
 * the next step, is the same.
 */
public final class ClaimInfoCache {
  /** Work done under the cache lock. */
  @FunctionalInterface
  public interface Locked<T> {
    T run(ClaimInfoCache cache) throws Exception;
  }

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Checkpointer checkpointer;

  /** By namespace and name, sorted: snapshots are in checkpoint order without sorting. */
  private final Map<String, ClaimInfo> claims = new TreeMap<>();

  /** Serializes checkpoint writes; never taken while waiting for {@link #lock}. */
  private final ReentrantLock writing = new ReentrantLock();

  /** The newest state a caller asked to make durable (written under the write lock). */
  private volatile Snapshot latest = new Snapshot(0, List.of());

  /** Version of the newest snapshot on disk (guarded by {@link #writing}). */
  private long durable;

  /** Version the current write-lock holder asked to make durable, 0 if none. */
  private long requested;

  private record Snapshot(long version, List<ClaimInfo> entries) {}

  /**
   * A cache holding what {@code checkpointer} has stored.
   *
   * @throws IOException when the checkpoint cannot be read, including a corrupt one
   */
  public ClaimInfoCache(Checkpointer checkpointer) throws IOException {
    this.checkpointer = checkpointer;
    for (ClaimInfoState s : checkpointer.getOrCreate()) {
      claims.put(key(s.namespace(), s.claimName()), ClaimInfo.fromState(s));
    }
  }

  /**
   * Runs {@code work} under the write lock. A checkpoint write failure becomes a {@link
   * PrepareException} with upstream's wording.
   */
  public <T> T withLockChecked(Locked<T> work) throws PrepareException {
    T result = null;
    Exception failure = null;
    long sync;
    lock.writeLock().lock();
    try {
      requested = 0;
      result = work.run(this);
    } catch (Exception e) {
      failure = e;
    } finally {
      sync = requested;
      requested = 0;
      lock.writeLock().unlock();
    }
    if (sync != 0) {
      // Also after a failure: what was changed before it is in memory and must reach the disk
      // as upstream's write under the lock would have.
      try {
        awaitDurable(sync);
      } catch (IOException e) {
        PrepareException pe =
            new PrepareException("checkpoint ResourceClaim state: " + e.getMessage(), e);
        if (failure == null) {
          throw pe;
        }
        failure.addSuppressed(pe);
      }
    }
    if (failure instanceof PrepareException pe) {
      throw pe;
    }
    if (failure instanceof RuntimeException re) {
      throw re;
    }
    if (failure != null) {
      throw new IllegalStateException(failure);
    }
    return result;
  }

  /** Runs a read-only {@code work} under the read lock. */
  public <T> T withReadLockUnchecked(Function<ClaimInfoCache, T> work) {
    lock.readLock().lock();
    try {
      return work.apply(this);
    } finally {
      lock.readLock().unlock();
    }
  }

  public Optional<ClaimInfo> get(String namespace, String name) {
    checkLocked();
    return Optional.ofNullable(claims.get(key(namespace, name)));
  }

  /** Adds or replaces the entry for the claim's namespace and name. */
  public void put(ClaimInfo info) {
    checkWriteLocked();
    claims.put(key(info.namespace(), info.claimName()), info);
  }

  public void delete(String namespace, String name) {
    checkWriteLocked();
    claims.remove(key(namespace, name));
  }

  public boolean hasPodReference(String podUid) {
    checkLocked();
    return claims.values().stream().anyMatch(c -> c.hasPodReference(podUid));
  }

  /** Names of the claims that list {@code podUid}, sorted. */
  public List<String> claimNamesForPod(String podUid) {
    checkLocked();
    return claims.values().stream()
        .filter(c -> c.hasPodReference(podUid))
        .map(ClaimInfo::claimName)
        .sorted()
        .toList();
  }

  /** Every entry, ordered by namespace and name. */
  public List<ClaimInfo> list() {
    checkLocked();
    return new ArrayList<>(claims.values());
  }

  /**
   * Makes the current entries durable: written to the checkpoint before the enclosing {@link
   * #withLockChecked} returns (after the lock is released, together with other callers' changes).
   */
  public void syncToCheckpoint() {
    checkWriteLocked();
    latest = new Snapshot(latest.version() + 1, List.copyOf(claims.values()));
    requested = latest.version();
  }

  /**
   * Returns once a snapshot of at least {@code version} is on disk. Whoever gets to write writes
   * the newest snapshot, which covers every caller waiting at that moment.
   */
  private void awaitDurable(long version) throws IOException {
    writing.lock();
    try {
      if (durable >= version) {
        return;
      }
      Snapshot s = latest;
      checkpointer.store(s.entries().stream().map(ClaimInfo::state).toList());
      durable = s.version();
    } finally {
      writing.unlock();
    }
  }

  private void checkLocked() {
    if (!lock.isWriteLockedByCurrentThread() && lock.getReadHoldCount() == 0) {
      throw new IllegalStateException("claim info cache used without its lock");
    }
  }

  private void checkWriteLocked() {
    if (!lock.isWriteLockedByCurrentThread()) {
      throw new IllegalStateException("claim info cache changed without its write lock");
    }
  }

  /** Sorts by namespace, then name: NUL sorts before every character a name may have. */
  private static String key(String namespace, String name) {
    return namespace + "\u0000" + name;
  }
}
