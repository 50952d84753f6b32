package io.jdra.apiserver.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads wait for {@link Persistence#barrier}: it completes only after every append made before it
 * is durable, and at once when nothing is pending.
 */
class FileLogBarrierTest {
  @TempDir Path dir;

  @Test
  void barrierCompletesAfterEveryEarlierAppend() throws IOException {
    FileLog log = FileLog.open(dir);
    log.recover();
    try {
      for (int round = 0; round < 20; round++) {
        List<CompletableFuture<Void>> appends = new ArrayList<>();
        for (int i = 1; i <= 50; i++) {
          appends.add(log.append(FileLogCorruptionTest.record(round * 50 + i)));
        }
        boolean[] allDurable = {false};
        log.barrier()
            .thenRun(() -> allDurable[0] = appends.stream().allMatch(CompletableFuture::isDone))
            .join();
        assertThat(allDurable[0]).as("round %d", round).isTrue();
      }
      assertThat(log.barrier()).isCompleted();
    } finally {
      log.close();
    }
  }

  @Test
  void storageReadsWaitForTheWritesTheySee() throws IOException {
    FileLog log = FileLog.open(dir);
    Storage storage = new Storage(log, 100);
    storage.recover();
    try {
      ResourceStore store = storage.store("/configmaps");
      CompletableFuture<StoredObject> created =
          store.create("default", "cm-1", rv -> FileLogCorruptionTest.record((int) rv).object());
      assertThat(store.get("default", "cm-1")).isNotNull();
      storage.durable().join();
      assertThat(created).isCompleted();
    } finally {
      storage.close();
    }
  }
}
