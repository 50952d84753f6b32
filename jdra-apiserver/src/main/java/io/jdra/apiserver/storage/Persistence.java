package io.jdra.apiserver.storage;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where writes go to survive a restart. Implementations must be thread-safe; {@link #append} is
 * called with a store lock held and must not block.
 */
public interface Persistence extends AutoCloseable {

  /**
   * What a restart finds.
   *
   * @param snapshotVersion the resourceVersion the snapshot was taken at (0 without one)
   * @param snapshot every object at that version
   * @param tail writes after the snapshot, in the order they were made
   */
  record Recovered(long snapshotVersion, List<LogRecord> snapshot, List<LogRecord> tail) {}

  /** Reads the stored state; called once before any append. */
  Recovered recover() throws IOException;

  /** Queues a write; the future completes once it is durable, or fails if it cannot be. */
  CompletableFuture<Void> append(LogRecord record);

  /**
   * Completes once every append made before this call is durable: a read that returns what those
   * appends wrote waits for it, so that nothing a client has seen is lost in a crash (and no
   * resourceVersion it has seen is handed out again). Completes at once when nothing is pending.
   */
  CompletableFuture<Void> barrier();

  /** Whether enough was written since the last snapshot to take a new one. */
  boolean snapshotDue();

  /**
   * Starts a new log segment; called while every store is locked, so the snapshot that follows
   * holds exactly the writes before this point.
   */
  void rotate() throws IOException;

  /** Durably writes a snapshot of everything written before the last {@link #rotate}. */
  void writeSnapshot(long version, List<LogRecord> objects) throws IOException;

  @Override
  void close() throws IOException;

  /** No persistence: everything completes at once and nothing survives a restart. */
  Persistence NONE =
      new Persistence() {
        private final CompletableFuture<Void> done = CompletableFuture.completedFuture(null);

        @Override
        public Recovered recover() {
          return new Recovered(0, List.of(), List.of());
        }

        @Override
        public CompletableFuture<Void> append(LogRecord record) {
          return done;
        }

        @Override
        public CompletableFuture<Void> barrier() {
          return done;
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
      };
}
