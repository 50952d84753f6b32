package io.jdra.apiserver.storage;

import java.io.ByteArrayOutputStream;
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
import java.util.Set;
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
 * follow snapshot {@code snapshot-N.dat} (written to a temporary file, synced and renamed, ending
 * with a trailer that counts its objects), so recovery is: newest snapshot, then segments from N
 * on. Every record carries a CRC-32C; a torn tail is truncated, any other damage stops start-up
 * (see {@link #recover}). Thread-safe.
 */
public final class FileLog implements Persistence {
  private static final Logger LOG = LoggerFactory.getLogger(FileLog.class);

  /** Log bytes after which a snapshot is due. */
  static final long SNAPSHOT_BYTES = 64L * 1024 * 1024;

  /** A record to write, a segment rotation, or (record null, rotate false) a barrier. */
  private record Entry(LogRecord record, CompletableFuture<Void> done, boolean rotate) {}

  private final Path dir;
  private final long snapshotBytes;
  private final LinkedBlockingQueue<Entry> queue = new LinkedBlockingQueue<>();
  private final AtomicLong bytesSinceSnapshot = new AtomicLong();

  /** Appends not yet durable (or failed): a barrier is needed only while this is above 0. */
  private final AtomicLong pending = new AtomicLong();

  private volatile long segment;
  private FileChannel channel;

  /** The size of the current segment after its last successful sync (writer thread only). */
  private long goodSize;

  private Thread writer;
  private volatile boolean closing;

  private FileLog(Path dir, long snapshotBytes) {
    this.dir = dir;
    this.snapshotBytes = snapshotBytes;
  }

  /** A log in {@code dir} (created if missing); call {@link #recover} before appending. */
  public static FileLog open(Path dir) {
    return open(dir, SNAPSHOT_BYTES);
  }

  /** As {@link #open(Path)}, with a snapshot due after {@code snapshotBytes} of log (tests). */
  static FileLog open(Path dir, long snapshotBytes) {
    try {
      PrivateFiles.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("create storage directory " + dir + ": " + e.getMessage(), e);
    }
    return new FileLog(dir, snapshotBytes);
  }

  /**
   * Reads the newest snapshot and the segments after it. A torn tail (a write the crash
   * interrupted, never acknowledged) is truncated; any other damage stops start-up with a {@link
   * CorruptStorageException} naming the file, the offset and how to recover.
   */
  @Override
  public Recovered recover() throws IOException {
    long snap = newest("snapshot-");
    long snapshotVersion = 0;
    List<LogRecord> snapshot = new ArrayList<>();
    if (snap >= 0) {
      snapshotVersion = readSnapshot(file("snapshot-", snap), snapshot);
    }
    List<LogRecord> tail = new ArrayList<>();
    long last = Math.max(snap, 0);
    long logBytes = 0;
    for (long seg : segments()) {
      if (seg < snap) {
        continue;
      }
      last = Math.max(last, seg);
      logBytes += readSegment(file("log-", seg), tail);
    }
    // the log written since the snapshot counts towards the next one across restarts
    bytesSinceSnapshot.set(logBytes);
    segment = last + 1;
    channel = openSegment(segment);
    goodSize = channel.size();
    writer = Thread.ofPlatform().name("jdra-storage-log").daemon().start(this::writeLoop);
    return new Recovered(snapshotVersion, snapshot, tail);
  }

  /** Reads a snapshot into out; returns its version. It must be whole, up to its trailer. */
  private static long readSnapshot(Path p, List<LogRecord> out) throws IOException {
    try (LogReader r = new LogReader(p, 0)) {
      byte[] payload;
      RecordCodec.Trailer trailer = null;
      while (trailer == null && (payload = r.next()) != null) {
        trailer = RecordCodec.trailer(payload);
        if (trailer == null) {
          out.add(decode(r, payload));
        }
      }
      if (r.stop() != null) {
        throw CorruptStorageException.snapshot(p, r.offset(), r.reason());
      }
      if (trailer == null || r.offset() != r.size() || trailer.count() != out.size()) {
        throw CorruptStorageException.snapshot(
            p,
            r.offset(),
            trailer == null
                ? "it ends without its trailer"
                : "its trailer counts " + trailer.count() + " objects, not " + out.size());
      }
      return trailer.version();
    }
  }

  /** Reads a segment into out, truncating a torn tail; returns the bytes kept. */
  private long readSegment(Path p, List<LogRecord> out) throws IOException {
    try (LogReader r = new LogReader(p, 0)) {
      byte[] payload;
      while ((payload = r.next()) != null) {
        out.add(decode(r, payload));
      }
      if (r.stop() == LogReader.Stop.CORRUPT) {
        throw CorruptStorageException.segment(p, r.offset(), r.reason());
      }
      if (r.stop() == LogReader.Stop.TORN) {
        LOG.warn(
            "Truncating a torn write at the end of the storage log: {} at offset {} ({}), {} bytes"
                + " dropped",
            p,
            r.offset(),
            r.reason(),
            r.size() - r.offset());
        try (FileChannel c = FileChannel.open(p, StandardOpenOption.WRITE)) {
          c.truncate(r.offset());
          c.force(true);
        }
      }
      return r.offset();
    }
  }

  private static LogRecord decode(LogReader r, byte[] payload) throws IOException {
    try {
      return RecordCodec.decode(payload);
    } catch (IOException e) {
      long at = r.offset() - payload.length - 8;
      throw new CorruptStorageException(
          r.path(), at, "a record that does not decode (" + e.getMessage() + ")", false);
    }
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
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND),
            PrivateFiles.fileAttributes());
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
    pending.incrementAndGet();
    queue.add(new Entry(record, f, false));
    return f.whenComplete((v, e) -> pending.decrementAndGet());
  }

  @Override
  public CompletableFuture<Void> barrier() {
    if (pending.get() == 0) {
      return CompletableFuture.completedFuture(null);
    }
    if (closing) {
      return CompletableFuture.failedFuture(new IOException("storage is closed"));
    }
    // The queue is written in order: the marker's batch is synced after every earlier append.
    CompletableFuture<Void> f = new CompletableFuture<>();
    queue.add(new Entry(null, f, false));
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
          goodSize = 0;
          complete(done);
          e.done.complete(null);
          continue;
        }
        if (e.record != null) {
          RecordCodec.write(e.record, buf);
        }
        done.add(e.done);
      }
      bytesSinceSnapshot.addAndGet(buf.size());
      flush(buf);
      channel.force(false);
      goodSize = channel.size();
      complete(done);
    } catch (IOException | RuntimeException | Error ex) {
      // even an OutOfMemoryError fails the batch's writes instead of leaving them unanswered
      LOG.error("Writing the storage log failed", ex);
      for (Entry e : batch) {
        e.done.completeExceptionally(ex);
      }
      dropPartialWrite();
    }
  }

  /**
   * Cuts what a failed batch may have written, so that later records do not follow a partial one
   * (which recovery would rightly take for corruption).
   */
  private void dropPartialWrite() {
    try {
      channel.truncate(goodSize);
      channel.force(false);
    } catch (IOException | RuntimeException e) {
      LOG.error(
          "Cutting a failed write from the storage log failed; later writes may not recover", e);
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
    return bytesSinceSnapshot.get() > snapshotBytes;
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
            Set.of(
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING),
            PrivateFiles.fileAttributes())) {
      ByteArrayOutputStream buf = new ByteArrayOutputStream(1 << 20);
      for (LogRecord r : objects) {
        RecordCodec.write(r, buf);
        if (buf.size() > (1 << 20)) {
          c.write(ByteBuffer.wrap(buf.toByteArray()));
          buf.reset();
        }
      }
      RecordCodec.writeTrailer(new RecordCodec.Trailer(version, objects.size()), buf);
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
