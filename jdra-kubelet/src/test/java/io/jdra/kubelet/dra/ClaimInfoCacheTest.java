package io.jdra.kubelet.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdra.kubelet.dra.state.Checkpointer;
import io.jdra.kubelet.dra.state.ClaimInfoState;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The cache's checkpoint writes: durable on return, shared by concurrent callers. */
class ClaimInfoCacheTest {
  /** Records every store; the first one can be held until released. */
  static final class Recording implements Checkpointer {
    final List<List<String>> stores = new CopyOnWriteArrayList<>();
    final CountDownLatch firstEntered = new CountDownLatch(1);
    final CountDownLatch releaseFirst;
    volatile IOException fail;

    Recording(boolean holdFirst) {
      releaseFirst = new CountDownLatch(holdFirst ? 1 : 0);
    }

    @Override
    public List<ClaimInfoState> getOrCreate() {
      return List.of();
    }

    @Override
    public void store(List<ClaimInfoState> entries) throws IOException {
      if (fail != null) {
        throw fail;
      }
      firstEntered.countDown();
      try {
        releaseFirst.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      stores.add(entries.stream().map(ClaimInfoState::claimName).toList());
    }
  }

  static ClaimInfo info(String name) {
    return ClaimInfo.fromState(new ClaimInfoState("uid-" + name, name, "default", null, null));
  }

  static void putAndSync(ClaimInfoCache cache, String name) throws PrepareException {
    cache.withLockChecked(c -> {
      c.put(info(name));
      c.syncToCheckpoint();
      return null;
    });
  }

  @Test
  void changesAreOnDiskWhenTheLockedWorkReturns() throws Exception {
    Recording cp = new Recording(false);
    ClaimInfoCache cache = new ClaimInfoCache(cp);
    putAndSync(cache, "b");
    putAndSync(cache, "a");
    assertThat(cp.stores).containsExactly(List.of("b"), List.of("a", "b"));
  }

  @Test
  void withoutSyncNothingIsWritten() throws Exception {
    Recording cp = new Recording(false);
    ClaimInfoCache cache = new ClaimInfoCache(cp);
    cache.withLockChecked(c -> {
      c.put(info("a"));
      return null;
    });
    assertThat(cp.stores).isEmpty();
  }

  @Test
  void callersWaitingForAWriteShareTheNextOne() throws Exception {
    Recording cp = new Recording(true);
    ClaimInfoCache cache = new ClaimInfoCache(cp);
    Thread first = Thread.ofVirtual().start(() -> sync(cache, "a"));
    cp.firstEntered.await(10, TimeUnit.SECONDS);
    // While "a" is being written, two more callers change the cache and wait.
    CountDownLatch changed = new CountDownLatch(2);
    Thread second = Thread.ofVirtual().start(() -> sync(cache, "b", changed));
    Thread third = Thread.ofVirtual().start(() -> sync(cache, "c", changed));
    changed.await(10, TimeUnit.SECONDS);
    // The lock is free while the file is written: readers do not wait for the disk.
    int entries = cache.withReadLockUnchecked(c -> c.list().size());
    assertThat(entries).isEqualTo(3);
    cp.releaseFirst.countDown();
    first.join();
    second.join();
    third.join();
    assertThat(cp.stores).containsExactly(List.of("a"), List.of("a", "b", "c"));
  }

  @Test
  void aFailedWriteFailsTheCallerAndTheNextSyncWritesEverything() throws Exception {
    Recording cp = new Recording(false);
    ClaimInfoCache cache = new ClaimInfoCache(cp);
    cp.fail = new IOException("disk full");
    assertThatThrownBy(() -> putAndSync(cache, "a"))
        .isInstanceOf(PrepareException.class)
        .hasMessage("checkpoint ResourceClaim state: disk full");
    cp.fail = null;
    putAndSync(cache, "b");
    assertThat(cp.stores).containsExactly(List.of("a", "b"));
  }

  @Test
  void changesBeforeAFailureInTheLockedWorkAreStillWritten() throws Exception {
    Recording cp = new Recording(false);
    ClaimInfoCache cache = new ClaimInfoCache(cp);
    assertThatThrownBy(() ->
            cache.withLockChecked(c -> {
              c.put(info("a"));
              c.syncToCheckpoint();
              throw new PrepareException("second claim is bad");
            }))
        .hasMessage("second claim is bad");
    assertThat(cp.stores).containsExactly(List.of("a"));
  }

  private static void sync(ClaimInfoCache cache, String name) {
    sync(cache, name, new CountDownLatch(1));
  }

  private static void sync(ClaimInfoCache cache, String name, CountDownLatch changed) {
    try {
      cache.withLockChecked(c -> {
        c.put(info(name));
        c.syncToCheckpoint();
        changed.countDown();
        return null;
      });
    } catch (PrepareException e) {
      throw new IllegalStateException(e);
    }
  }
}
