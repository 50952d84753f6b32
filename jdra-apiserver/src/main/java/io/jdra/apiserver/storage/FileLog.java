package io.jdra.apiserver.storage;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Durable storage as an append-only log with group commit plus snapshots. One writer thread takes
 * every queued record, writes the batch and calls {@code fdatasync} once, then completes the
 * batch's futures: a write is acknowledged only when it is on disk. Segments {@code log-N.dat}
 * follow snapshot {@code snapshot-N.dat} (written to a temporary file, synced and renamed), so
 * recovery is: newest snapshot, then segments from N on, stopping at a torn or corrupt record.
 * Thread-safe.
 */
public final class FileLog implements Persistence {
  private static final Logger LOG = LoggerFactory.getLogger(FileLog.class);
  private static final long SNAPSHOT_BYTES = 64L * 1024 * 1024;

  private record Entry(LogRecord record, CompletableFuture<Void> done, boolean rotate) {}

  private final Path dir;
  private final LinkedBlockingQueue<Entry> queue = new LinkedBlockingQueue<>();
  private final AtomicLong bytesSinceSnapshot = new AtomicLong();
  private volatile long segment;
  private FileChannel channel;
  private Thread writer;
  private volatile boolean closing;

  private FileLog(Path dir) {
    this.dir = dir;
  }

  /** A log in {@code dir} (created if missing); call {@link #recover} before appending. */
  public static FileLog open(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("create storage directory " + dir + ": " + e.getMessage(), e);
    }
    return new FileLog(dir);
  }

  @Override
  public Recovered recover() throws IOException {
    long snap = newest("snapshot-");
    long snapshotVersion = 0;
    List<LogRecord> snapshot = new ArrayList<>();
    if (snap >= 0) {
      try (DataInputStream in =
          new DataInputStream(
              RecordCodec.buffered(Files.newInputStream(file("snapshot-", snap))))) {
        snapshotVersion = in.readLong();
        LogRecord r;
        while ((r = RecordCodec.read(in)) != null) {
          snapshot.add(r);
        }
      }
    }
    List<LogRecord> tail = new ArrayList<>();
    long last = Math.max(snap, 0);
    for (long seg : segments()) {
      if (seg < snap) {
        continue;
      }
      last = Math.max(last, seg);
      try (DataInputStream in =
          new DataInputStream(RecordCodec.buffered(Files.newInputStream(file("log-", seg))))) {
        LogRecord r;
        while ((r = RecordCodec.read(in)) != null) {
          tail.add(r);
        }
      }
    }
    segment = last + 1;
    channel = openSegment(segment);
    writer = Thread.ofPlatform().name("jdra-storage-log").daemon().start(this::writeLoop);
    return new Recovered(snapshotVersion, snapshot, tail);
  }

  private Path file(String prefix, long n) {
    return dir.resolve(prefix + n + ".dat");
  }

  private long newest(String prefix) throws IOException {
    long best = -1;
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.toList()) {
        long n = number(p, prefix);
        best = Math.max(best, n);
      }
    }
    return best;
  }

  private List<Long> segments() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> number(p, "log-")).filter(n -> n >= 0).sorted().toList();
    }
  }

  private static long number(Path p, String prefix) {
    String f = p.getFileName().toString();
    if (!f.startsWith(prefix) || !f.endsWith(".dat")) {
      return -1;
    }
    try {
      return Long.parseLong(f.substring(prefix.length(), f.length() - 4));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private FileChannel openSegment(long n) throws IOException {
    FileChannel c =
        FileChannel.open(
            file("log-", n),
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.APPEND);
    syncDir();
    return c;
  }

  private void syncDir() {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException e) {
      LOG.debug("Directory fsync not supported", e);
    }
  }

  @Override
  public CompletableFuture<Void> append(LogRecord record) {
    CompletableFuture<Void> f = new CompletableFuture<>();
    if (closing) {
      f.completeExceptionally(new IOException("storage is closed"));
      return f;
    }
    queue.add(new Entry(record, f, false));
    return f;
  }

  private void writeLoop() {
    List<Entry> batch = new ArrayList<>();
    ByteArrayOutputStream buf = new ByteArrayOutputStream(1 << 20);
    while (true) {
      try {
        Entry first = queue.poll(100, TimeUnit.MILLISECONDS);
        if (first == null) {
          if (closing && queue.isEmpty()) {
            return;
          }
          continue;
        }
        batch.add(first);
        queue.drainTo(batch, 4096);
        writeBatch(batch, buf);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } finally {
        batch.clear();
        buf.reset();
      }
    }
  }

  private void writeBatch(List<Entry> batch, ByteArrayOutputStream buf) {
    List<CompletableFuture<Void>> done = new ArrayList<>(batch.size());
    try {
      for (Entry e : batch) {
        if (e.rotate) {
          flush(buf);
          channel.force(false);
          channel.close();
          segment++;
          channel = openSegment(segment);
          complete(done);
          e.done.complete(null);
          continue;
        }
        RecordCodec.write(e.record, buf);
        done.add(e.done);
      }
      bytesSinceSnapshot.addAndGet(buf.size());
      flush(buf);
      channel.force(false);
      complete(done);
    } catch (IOException | RuntimeException ex) {
      LOG.error("Writing the storage log failed", ex);
      for (Entry e : batch) {
        e.done.completeExceptionally(ex);
      }
    }
  }

  private void flush(ByteArrayOutputStream buf) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(buf.toByteArray());
    while (b.hasRemaining()) {
      channel.write(b);
    }
    buf.reset();
  }

  private static void complete(List<CompletableFuture<Void>> done) {
    for (CompletableFuture<Void> f : done) {
      f.complete(null);
    }
    done.clear();
  }

  @Override
  public boolean snapshotDue() {
    return bytesSinceSnapshot.get() > SNAPSHOT_BYTES;
  }

  private volatile CompletableFuture<Void> rotated = CompletableFuture.completedFuture(null);
  private volatile long snapshotSegment;

  @Override
  public void rotate() {
    CompletableFuture<Void> f = new CompletableFuture<>();
    snapshotSegment = segment + 1 + queue.stream().filter(Entry::rotate).count();
    queue.add(new Entry(null, f, true));
    rotated = f;
  }

  @Override
  public void writeSnapshot(long version, List<LogRecord> objects) throws IOException {
    rotated.join();
    long n = snapshotSegment;
    Path tmp = dir.resolve("snapshot.tmp");
    try (FileChannel c =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteArrayOutputStream buf = new ByteArrayOutputStream(1 << 20);
      new DataOutputStream(buf).writeLong(version);
      for (LogRecord r : objects) {
        RecordCodec.write(r, buf);
        if (buf.size() > (1 << 20)) {
          c.write(ByteBuffer.wrap(buf.toByteArray()));
          buf.reset();
        }
      }
      c.write(ByteBuffer.wrap(buf.toByteArray()));
      c.force(true);
    }
    Files.move(tmp, file("snapshot-", n), StandardCopyOption.ATOMIC_MOVE);
    syncDir();
    bytesSinceSnapshot.set(0);
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.toList()) {
        long seg = number(p, "log-");
        long old = number(p, "snapshot-");
        if ((seg >= 0 && seg < n) || (old >= 0 && old < n)) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  @Override
  public void close() throws IOException {
    closing = true;
    if (writer != null) {
      try {
        writer.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (channel != null && channel.isOpen()) {
      channel.force(false);
      channel.close();
    }
  }
}
