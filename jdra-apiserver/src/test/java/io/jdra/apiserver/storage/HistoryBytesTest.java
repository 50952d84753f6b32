package io.jdra.apiserver.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The watch history is bounded in bytes as well as in events: rewriting a large object does not
 * keep thousands of its versions; a watch from before what is kept gets Gone and re-lists.
 */
class HistoryBytesTest {
  @Test
  void historyKeepsOnlyWhatFitsItsBytes() {
    ResourceStore store =
        new ResourceStore("/configmaps", new AtomicLong(), Persistence.NONE, 10_000, 10_000, 0);
    byte[] json = new byte[1_000];
    List<Long> versions = new ArrayList<>();
    store.create("default", "big", rv -> object(rv, json)).join();
    for (int i = 0; i < 100; i++) {
      versions.add(
          store.update("default", "big", 0, rv -> object(rv, json)).join().resourceVersion());
    }

    assertThatThrownBy(() -> store.watch(versions.get(0), e -> {}))
        .isInstanceOf(StorageException.Gone.class);
    List<WatchEvent> replayed = new ArrayList<>();
    store.watch(versions.get(95), replayed::add);
    assertThat(replayed).hasSize(4);
  }

  private static StoredObject object(long rv, byte[] json) {
    return new StoredObject("default", "big", "u", rv, json, Map.of(), Map.of());
  }
}
