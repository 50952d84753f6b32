package io.jdra.exampledriver;

import io.jdra.exampledriver.Checkpoint.Snapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Makes checkpoint versions durable, one write for as many changes as arrived meanwhile (group
 * commit).
 *
 * <p>Each write is what upstream's writeCheckpoint does, no more and no less: a temporary file in
 * the same directory, written, synced, renamed over {@code checkpoint.json}; the directory is not
 * synced (neither upstream's driver nor the kubelet's checkpoint manager does). A crash leaves the
 * old or the new file, never a torn one.
 *
 * <p>{@link #awaitDurable(long)} returns once a file with that version or a later one is on disk.
 * The caller that finds no write running takes a snapshot of the newest version and writes it;
 * callers arriving while that write runs wait for the writer lock and then find their version
 * covered, or write the newest snapshot themselves, covering everyone queued behind them. So with N
 * concurrent prepares there are about two syncs, not N, and one caller alone pays one sync as
 * before. Thread-safe.
 */
final class CheckpointWriter {
  private final Path path;
  private final Supplier<Snapshot> snapshot;
  private final ReentrantLock writer = new ReentrantLock();
  private volatile long durable;
  private volatile long writes;
  private volatile Object lastFileKey;

  /**
   * @param snapshot the newest content; called by the writing thread while it holds only this
   *     writer's lock, so it may take the lock that guards the checkpoint
   * @param durable the version already on disk (what was read at start)
   */
  CheckpointWriter(Path path, Supplier<Snapshot> snapshot, long durable) {
    this.path = path;
    this.snapshot = snapshot;
    this.durable = durable;
  }

  /**
   * Blocks until {@code version} is on disk.
   *
   * @throws UncheckedIOException the write this caller did failed (the file is unchanged); callers
   *     waiting behind it try their own write
   */
  void awaitDurable(long version) {
    if (durable >= version) {
      return;
    }
    writer.lock();
    try {
      if (durable >= version) {
        return;
      }
      Snapshot s = snapshot.get();
      write(s.bytes());
      durable = s.version();
      writes++;
    } finally {
      writer.unlock();
    }
  }

  /** The identity (device and inode) of the file at {@code path}, or null when there is none. */
  static Object fileKey(Path path) {
    try {
      return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
    } catch (IOException e) {
      return null;
    }
  }

  /** The identity of the checkpoint file this writer wrote or was told of last. */
  Object lastFileKey() {
    return lastFileKey;
  }

  /** The checkpoint file was read as it is now (identity {@code key}). */
  void observed(Object key) {
    lastFileKey = key;
  }

  /** Callers waiting for the writer lock (for tests). */
  int waiting() {
    return writer.getQueueLength();
  }

  /** Files written so far (for tests and the benchmark). */
  long writes() {
    return writes;
  }

  private void write(byte[] bytes) {
    Path tmp = null;
    try {
      tmp = Files.createTempFile(path.getParent(), "tmp-checkpoint-", "");
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true); // fsync, as Go's File.Sync
      }
      Object key = fileKey(tmp);
      Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      tmp = null;
      lastFileKey = key;
    } catch (IOException e) {
      throw new UncheckedIOException("write checkpoint " + path + ": " + e.getMessage(), e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // A leftover temp file is harmless: only checkpoint.json is read.
        }
      }
    }
  }
}
