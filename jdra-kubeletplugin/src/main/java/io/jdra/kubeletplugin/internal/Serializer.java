package io.jdra.kubeletplugin.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One prepare or unprepare at a time (upstream Serialize). With a lock file (rolling updates) the
 * old and the new driver instance exclude each other through {@code flock}; otherwise a mutex.
 */
public final class Serializer {
  /**
   * OS file locks belong to the process, so two plugins in one JVM (jdra up) would not exclude each
   * other through them; a JVM-wide lock per file does that part.
   */
  private static final ConcurrentHashMap<Path, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();

  private final boolean enabled;
  private final Path lockFile;
  private final ReentrantLock mutex;

  public Serializer(boolean enabled, Path lockFile) {
    this.enabled = enabled;
    this.lockFile = lockFile == null ? null : lockFile.toAbsolutePath().normalize();
    this.mutex =
        this.lockFile == null
            ? new ReentrantLock()
            : JVM_LOCKS.computeIfAbsent(this.lockFile, p -> new ReentrantLock());
  }

  /** Acquires; the returned handle releases. */
  public AutoCloseable lock() {
    if (!enabled) {
      return () -> {};
    }
    mutex.lock();
    if (lockFile == null) {
      return mutex::unlock;
    }
    try {
      Files.createDirectories(lockFile.getParent());
      FileChannel ch =
          FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = ch.lock();
      return () -> {
        try {
          lock.release();
          ch.close();
        } finally {
          mutex.unlock();
        }
      };
    } catch (IOException e) {
      mutex.unlock();
      throw new UncheckedIOException("lock file " + lockFile + ": " + e.getMessage(), e);
    }
  }
}
