package io.jdra.apiserver.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log written since the last snapshot counts towards the next one across restarts, so a server
 * restarted often still compacts (issue 15, finding 11).
 */
class SnapshotDueTest {
  @TempDir Path dir;

  /** Appends records 1..n from {@code first} and waits until they are durable. */
  private static void write(FileLog log, int first, int n) {
    for (int i = first; i < first + n; i++) {
      log.append(FileLogCorruptionTest.record(i)).join();
    }
  }

  @Test
  void logWrittenBeforeARestartCountsTowardsTheNextSnapshot() throws IOException {
    long threshold = 8 * 1024;
    FileLog first = FileLog.open(dir, threshold);
    first.recover();
    write(first, 1, 60); // more than half the threshold, less than all of it
    assertThat(first.snapshotDue()).isFalse();
    first.close();

    FileLog second = FileLog.open(dir, threshold);
    second.recover();
    try {
      write(second, 61, 60); // alone not enough either; with the earlier log, more than enough
      assertThat(second.snapshotDue()).isTrue();
    } finally {
      second.close();
    }
  }
}
