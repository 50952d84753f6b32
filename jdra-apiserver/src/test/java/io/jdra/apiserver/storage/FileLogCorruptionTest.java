package io.jdra.apiserver.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage to the storage files is never silent: a torn last write is truncated, anything else stops
 * recovery with the file, the offset and how to recover.
 */
class FileLogCorruptionTest {
  @TempDir Path dir;

  static LogRecord record(int i) {
    byte[] json =
        ("{\"metadata\":{\"name\":\"cm-" + i + "\",\"resourceVersion\":\"" + i + "\"}}")
            .getBytes(StandardCharsets.UTF_8);
    return new LogRecord(
        "/configmaps",
        new StoredObject("default", "cm-" + i, "uid-" + i, i, json, Map.of("a", "b"), Map.of()),
        false);
  }

  /** Writes records 1..n to a fresh log and closes it; returns the segment file. */
  private Path writeLog(int n) throws IOException {
    FileLog log = FileLog.open(dir);
    log.recover();
    for (int i = 1; i <= n; i++) {
      log.append(record(i)).join();
    }
    log.close();
    return dir.resolve("log-1.dat");
  }

  private Persistence.Recovered recover() throws IOException {
    FileLog log = FileLog.open(dir);
    try {
      return log.recover();
    } finally {
      log.close();
    }
  }

  private static void overwrite(Path file, long offset, byte[] bytes) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      f.write(bytes);
    }
  }

  private static byte flipped(Path file, long offset) throws IOException {
    return (byte) (Files.readAllBytes(file)[(int) offset] ^ 0x20);
  }

  @Test
  void intactLogRecoversEverything() throws IOException {
    writeLog(50);
    assertThat(recover().tail()).hasSize(50);
  }

  @Test
  void flippedByteInTheMiddleStopsRecovery() throws IOException {
    Path seg = writeLog(50);
    long middle = Files.size(seg) / 2;
    overwrite(seg, middle, new byte[] {flipped(seg, middle)});

    assertThatThrownBy(this::recover)
        .isInstanceOf(CorruptStorageException.class)
        .hasMessageContaining("storage file " + seg + " is corrupt at offset ")
        .hasMessageContaining("checksum mismatch")
        .hasMessageContaining("truncate -s ");
  }

  @Test
  void hugeLengthFieldIsCorruptionNotAnAllocation() throws IOException {
    Path seg = writeLog(50);
    overwrite(seg, 0, new byte[] {0x1f, (byte) 0xff, (byte) 0xff, (byte) 0xff});

    assertThatThrownBy(this::recover)
        .isInstanceOf(CorruptStorageException.class)
        .hasMessageContaining("at offset 0: invalid record length 536870911");
  }

  @Test
  void lengthPointingPastTheEndWithRecordsAfterItIsCorruption() throws IOException {
    Path seg = writeLog(50);
    // the second byte of the first length: it now claims more than the file holds
    overwrite(seg, 1, new byte[] {0x7f});

    assertThatThrownBy(this::recover)
        .isInstanceOf(CorruptStorageException.class)
        .hasMessageContaining("with a valid record after it");
  }

  @Test
  void tornTailIsTruncatedAndTheLogStaysUsable() throws IOException {
    Path seg = writeLog(50);
    long size = Files.size(seg);
    try (RandomAccessFile f = new RandomAccessFile(seg.toFile(), "rw")) {
      f.setLength(size - 10);
    }

    Persistence.Recovered r = recover();

    assertThat(r.tail()).hasSize(49);
    assertThat(r.tail().get(48).object().name()).isEqualTo("cm-49");
    assertThat(Files.size(seg)).isLessThan(size - 10);
    FileLog log = FileLog.open(dir);
    log.recover();
    log.append(record(51)).join();
    log.close();
    assertThat(recover().tail()).hasSize(50);
  }

  @Test
  void zeroFilledTailIsTruncated() throws IOException {
    Path seg = writeLog(10);
    overwrite(seg, Files.size(seg), new byte[4096]);

    assertThat(recover().tail()).hasSize(10);
  }

  private Path writeSnapshot(int n) throws IOException {
    FileLog log = FileLog.open(dir);
    log.recover();
    List<LogRecord> objects = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      log.append(record(i)).join();
      objects.add(record(i));
    }
    log.rotate();
    log.writeSnapshot(n, objects);
    log.close();
    try (var s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith("snapshot-")).findFirst().get();
    }
  }

  @Test
  void snapshotRecovers() throws IOException {
    writeSnapshot(100);
    Persistence.Recovered r = recover();
    assertThat(r.snapshotVersion()).isEqualTo(100);
    assertThat(r.snapshot()).hasSize(100);
  }

  @Test
  void flippedByteInTheSnapshotStopsRecovery() throws IOException {
    Path snap = writeSnapshot(100);
    long middle = Files.size(snap) / 2;
    overwrite(snap, middle, new byte[] {flipped(snap, middle)});

    assertThatThrownBy(this::recover)
        .isInstanceOf(CorruptStorageException.class)
        .hasMessageContaining("storage file " + snap + " is corrupt")
        .hasMessageContaining("restore the storage directory");
  }

  @Test
  void snapshotCutShortStopsRecovery() throws IOException {
    Path snap = writeSnapshot(100);
    try (RandomAccessFile f = new RandomAccessFile(snap.toFile(), "rw")) {
      f.setLength(Files.size(snap) / 2);
    }

    assertThatThrownBy(this::recover).isInstanceOf(CorruptStorageException.class);
  }
}
