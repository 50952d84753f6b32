package io.jdra.exampledriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdra.exampledriver.Checkpoint.PreparedDevice;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Group commit of the checkpoint: one write for the changes that arrived meanwhile. */
class CheckpointWriterTest {
  @TempDir Path dir;

  private final ReentrantLock lock = new ReentrantLock();
  private Checkpoint checkpoint;

  private Checkpoint.Snapshot snapshot() {
    lock.lock();
    try {
      return checkpoint.snapshot();
    } finally {
      lock.unlock();
    }
  }

  private long put(String uid) {
    lock.lock();
    try {
      return checkpoint.put(uid, List.of(new PreparedDevice("node", "gpu-" + uid, null)));
    } finally {
      lock.unlock();
    }
  }

  @Test
  void callersQueuedBehindAWriteShareTheNextOne() throws Exception {
    Path file = dir.resolve(Checkpoint.FILE);
    checkpoint = Checkpoint.read(file, 0);
    CountDownLatch firstSnapshotTaken = new CountDownLatch(1);
    CountDownLatch releaseFirst = new CountDownLatch(1);
    CheckpointWriter[] writer = new CheckpointWriter[1];
    writer[0] =
        new CheckpointWriter(
            file,
            () -> {
              Checkpoint.Snapshot s = snapshot();
              if (firstSnapshotTaken.getCount() > 0) {
                firstSnapshotTaken.countDown();
                await(releaseFirst); // the first write is slow, as an fsync is
              }
              return s;
            },
            0);

    long v1 = put("a");
    Thread first = Thread.ofPlatform().start(() -> writer[0].awaitDurable(v1));
    firstSnapshotTaken.await();
    List<Thread> others = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      long v = put("b" + i);
      others.add(Thread.ofPlatform().start(() -> writer[0].awaitDurable(v)));
    }
    while (writer[0].waiting() < 8) {
      Thread.onSpinWait(); // until all eight wait for the writer lock
    }
    releaseFirst.countDown();
    first.join();
    for (Thread t : others) {
      t.join();
    }

    assertThat(writer[0].writes()).as("one write for a, one for all eight b's").isEqualTo(2);
    Checkpoint onDisk = Checkpoint.read(file, 0);
    assertThat(onDisk.claims())
        .containsOnlyKeys("a", "b0", "b1", "b2", "b3", "b4", "b5", "b6", "b7");
    assertThat(onDisk.claims().get("b3"))
        .containsExactly(new PreparedDevice("node", "gpu-b3", null));
  }

  @Test
  void aVersionOnDiskAlreadyCostsNoWrite() {
    Path file = dir.resolve(Checkpoint.FILE);
    checkpoint = Checkpoint.read(file, 0);
    CheckpointWriter writer = new CheckpointWriter(file, this::snapshot, 0);
    long v = put("a");

    writer.awaitDurable(v);
    writer.awaitDurable(v);
    writer.awaitDurable(0);

    assertThat(writer.writes()).isEqualTo(1);
  }

  @Test
  void aFailedWriteLeavesNoTemporaryFileAndTheNextCallerWritesAgain() throws Exception {
    Path file = dir.resolve(Checkpoint.FILE);
    checkpoint = Checkpoint.read(file, 0);
    CheckpointWriter writer = new CheckpointWriter(file, this::snapshot, 0);
    writer.awaitDurable(put("a"));
    long v = put("b");
    // Something in the way of the rename (tests run as root, so permissions would not stop it).
    Files.delete(file);
    Files.createDirectories(file.resolve("in-the-way"));

    assertThatThrownBy(() -> writer.awaitDurable(v))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("write checkpoint " + file);
    try (var files = Files.list(dir)) {
      assertThat(files).as("no temporary file left").containsExactly(file);
    }

    Files.delete(file.resolve("in-the-way"));
    Files.delete(file);
    writer.awaitDurable(v);

    assertThat(Checkpoint.read(file, 0).claims()).containsOnlyKeys("a", "b");
    assertThat(writer.writes()).isEqualTo(2);
  }

  @Test
  void readsWhatItWrote() {
    Path file = dir.resolve(Checkpoint.FILE);
    checkpoint = Checkpoint.read(file, 0);
    checkpoint.put(
        "uid-1",
        List.of(new PreparedDevice("n", "gpu-0", null), new PreparedDevice("n", "gpu-1", "s1")));
    checkpoint.put("uid-2", List.of());
    checkpoint.put("uid-3", List.of(new PreparedDevice("n", "gpu-\"2\"", null)));
    checkpoint.remove("uid-2");
    new CheckpointWriter(file, this::snapshot, 0).awaitDurable(checkpoint.version());

    Checkpoint read = Checkpoint.read(file, 7);

    assertThat(read.claims()).isEqualTo(checkpoint.claims());
    assertThat(read.version()).isEqualTo(7);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
