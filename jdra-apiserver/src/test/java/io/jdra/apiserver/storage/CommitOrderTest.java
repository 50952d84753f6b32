package io.jdra.apiserver.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Watchers see a write only once the persistence says it is durable, in order, exactly once. */
class CommitOrderTest {
  /** A persistence whose appends complete only when the test says so. */
  static final class HeldPersistence implements Persistence {
    final List<CompletableFuture<Void>> pending = new ArrayList<>();

    @Override
    public Recovered recover() {
      return new Recovered(0, List.of(), List.of());
    }

    @Override
    public synchronized CompletableFuture<Void> append(LogRecord record) {
      CompletableFuture<Void> f = new CompletableFuture<>();
      pending.add(f);
      return f;
    }

    synchronized void commitNext() {
      pending.remove(0).complete(null);
    }

    @Override
    public synchronized CompletableFuture<Void> barrier() {
      return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new));
    }

    @Override
    public boolean snapshotDue() {
      return false;
    }

    @Override
    public void rotate() {}

    @Override
    public void writeSnapshot(long version, List<LogRecord> objects) {}

    @Override
    public void close() {}
  }

  static final class Recorder implements WatchListener {
    final List<Long> versions = new ArrayList<>();
    final List<Long> progress = new ArrayList<>();

    @Override
    public void onEvent(WatchEvent event) {
      versions.add(event.resourceVersion());
    }

    @Override
    public void onProgress(long version) {
      progress.add(version);
    }
  }

  private final HeldPersistence log = new HeldPersistence();
  private final AtomicLong counter = new AtomicLong();
  private final ResourceStore store = new ResourceStore("g/things", counter, log, 100);

  private CompletableFuture<StoredObject> create(String name) {
    return store.create(
        "",
        name,
        rv -> new StoredObject("", name, "u-" + name, rv, new byte[0], Map.of(), Map.of()));
  }

  @Test
  void eventsWaitForDurabilityAndKeepTheirOrder() {
    Recorder w = new Recorder();
    store.watch(0, w);
    CompletableFuture<StoredObject> a = create("a");
    CompletableFuture<StoredObject> b = create("b");

    assertThat(store.get("", "a")).as("reads see the write at once").isNotNull();
    assertThat(w.versions).as("nothing durable yet").isEmpty();
    assertThat(a).isNotDone();

    log.commitNext();
    assertThat(w.versions).containsExactly(1L);
    assertThat(a).isCompleted();
    assertThat(b).isNotDone();
    log.commitNext();
    assertThat(w.versions).containsExactly(1L, 2L);
  }

  @Test
  void aWatchStartedBetweenWriteAndCommitGetsTheEventOnce() {
    create("a");
    Recorder replayed = new Recorder();
    store.watch(0, replayed);
    Recorder listed = new Recorder();
    store.watch(1, listed); // a client that listed at version 1 already has "a"

    log.commitNext();

    assertThat(replayed.versions).containsExactly(1L);
    assertThat(listed.versions).isEmpty();
  }

  @Test
  void bookmarksNeverPassAnEventNotYetDelivered() {
    Recorder w = new Recorder();
    store.watch(0, w);
    create("a");
    store.progress(w);
    log.commitNext();
    store.progress(w);

    assertThat(w.progress).containsExactly(0L, 1L);
  }
}
