package io.jdra.kubelet.dra;

import io.jdra.kubelet.dra.state.Checkpointer;
import io.jdra.kubelet.dra.state.ClaimInfoState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * The claims this kubelet prepared or is preparing, keyed by namespace and name, backed by a
 * checkpoint (upstream claimInfoCache). Every read and write happens inside {@link
 * #withLockChecked} or {@link #withReadLockUnchecked}; a sequence of changes inside one {@code
 * withLockChecked} is atomic for other threads. The checkpoint is written only by {@link
 * #syncToCheckpoint}, so callers choose when a change becomes durable (upstream writes before and
 * after calling drivers).
 */
public final class ClaimInfoCache {
  /** Work done under the cache lock. */
  @FunctionalInterface
  public interface Locked<T> {
    T run(ClaimInfoCache cache) throws Exception;
  }

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Checkpointer checkpointer;
  private final Map<String, ClaimInfo> claims = new HashMap<>();

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
    lock.writeLock().lock();
    try {
      return work.run(this);
    } catch (PrepareException | RuntimeException e) {
      throw e;
    } catch (IOException e) {
      throw new PrepareException("checkpoint ResourceClaim state: " + e.getMessage(), e);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    } finally {
      lock.writeLock().unlock();
    }
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
    List<ClaimInfo> out = new ArrayList<>(claims.values());
    out.sort(Comparator.comparing(ClaimInfo::namespace).thenComparing(ClaimInfo::claimName));
    return out;
  }

  /** Writes the current entries to the checkpoint. */
  public void syncToCheckpoint() throws IOException {
    checkWriteLocked();
    checkpointer.store(list().stream().map(ClaimInfo::state).toList());
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

  private static String key(String namespace, String name) {
    return namespace + "/" + name;
  }
}
