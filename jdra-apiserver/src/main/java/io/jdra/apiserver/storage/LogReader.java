package io.jdra.apiserver.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Reads the records of one storage file ({@link RecordCodec}'s framing) and tells a clean end, a
 * torn tail and corruption apart, as etcd's WAL does: a record cut short at the end of the file (or
 * a last record whose bytes never reached the disk) is a write the crash interrupted and was never
 * acknowledged; a bad record with a valid record after it, a bad checksum inside the file or an
 * impossible length is corruption. Never allocates more than the file holds. Not thread-safe.
 */
final class LogReader implements AutoCloseable {
  /** No record is larger: objects are bounded by the 3 MiB request limit plus metadata. */
  static final int MAX_RECORD = 16 << 20;

  private static final int HEADER = 8;

  /** Why reading stopped before the end of the file. */
  enum Stop {
    /** An interrupted last write: safe to truncate at {@link #offset()}. */
    TORN,
    /** Damage that would silently lose or resurrect acknowledged writes. */
    CORRUPT
  }

  private final Path path;
  private final FileChannel channel;
  private final long size;
  private final CRC32C crc = new CRC32C();
  private long offset;
  private Stop stop;
  private String reason = "";

  LogReader(Path path, long start) throws IOException {
    this.path = path;
    this.channel = FileChannel.open(path, StandardOpenOption.READ);
    this.size = channel.size();
    this.offset = start;
  }

  /** The next record's payload, or null at the end or at a {@link #stop()}. */
  byte[] next() throws IOException {
    if (stop != null || offset == size) {
      return null;
    }
    long remaining = size - offset;
    if (remaining < HEADER) {
      return stopAt(Stop.TORN, "a record header cut short");
    }
    ByteBuffer head = read(offset, HEADER);
    int length = head.getInt();
    int expected = head.getInt();
    if (length <= 0 || length > MAX_RECORD) {
      return allZero(offset, size)
          ? stopAt(Stop.TORN, "zero-filled space after the last record")
          : stopAt(Stop.CORRUPT, "invalid record length " + length);
    }
    if (length > remaining - HEADER) {
      return stopAt(Stop.TORN, "a record of " + length + " bytes cut short");
    }
    byte[] payload = read(offset + HEADER, length).array();
    crc.reset();
    crc.update(payload);
    if ((int) crc.getValue() != expected) {
      boolean last = offset + HEADER + length == size;
      return stopAt(
          last ? Stop.TORN : Stop.CORRUPT, "checksum mismatch in a record of " + length + " bytes");
    }
    offset += HEADER + length;
    return payload;
  }

  /**
   * Classifies a failure at the current offset; a torn tail must not have a valid record after it
   * (else a damaged length field in the middle would pass for one and lose the rest).
   */
  private byte[] stopAt(Stop kind, String why) throws IOException {
    stop = kind;
    reason = why;
    if (kind == Stop.TORN) {
      long valid = validRecordAfter(offset + 1);
      if (valid >= 0) {
        stop = Stop.CORRUPT;
        reason = why + ", with a valid record after it at offset " + valid;
      }
    }
    return null;
  }

  /** The offset of the first well-formed record at or after from, or -1. */
  private long validRecordAfter(long from) throws IOException {
    if (from >= size) {
      return -1;
    }
    byte[] rest = read(from, (int) Math.min(size - from, MAX_RECORD + HEADER)).array();
    ByteBuffer b = ByteBuffer.wrap(rest);
    CRC32C c = new CRC32C();
    for (int i = 0; i + HEADER < rest.length; i++) {
      int length = b.getInt(i);
      if (length <= 0 || length > rest.length - i - HEADER) {
        continue;
      }
      c.reset();
      c.update(rest, i + HEADER, length);
      if ((int) c.getValue() == b.getInt(i + 4)) {
        return from + i;
      }
    }
    return -1;
  }

  private boolean allZero(long from, long to) throws IOException {
    long at = from;
    while (at < to) {
      int n = (int) Math.min(to - at, 1 << 16);
      ByteBuffer b = read(at, n);
      while (b.hasRemaining()) {
        if (b.get() != 0) {
          return false;
        }
      }
      at += n;
    }
    return true;
  }

  private ByteBuffer read(long at, int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n);
    while (b.hasRemaining()) {
      if (channel.read(b, at + b.position()) < 0) {
        throw new IOException(path + ": unexpected end of file at offset " + (at + b.position()));
      }
    }
    return b.flip();
  }

  /** Why reading stopped, or null when it reached the end of the file. */
  Stop stop() {
    return stop;
  }

  /** Where the last good record ends: the offset of the bad one after a stop. */
  long offset() {
    return offset;
  }

  long size() {
    return size;
  }

  String reason() {
    return reason;
  }

  Path path() {
    return path;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
