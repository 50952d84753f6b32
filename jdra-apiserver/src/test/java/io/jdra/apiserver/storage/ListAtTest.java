package io.jdra.apiserver.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ResourceStore#listAt} against a naive model that copies the whole state after every write:
 * every past version, namespace, start key, filter and limit must give the same page.
 */
class ListAtTest {
  static final List<String> NAMESPACES = List.of("a", "b", "c");

  static StoredObject object(String ns, String name, long rv, String value) {
    return new StoredObject(
        ns,
        name,
        ns + "/" + name,
        rv,
        value.getBytes(StandardCharsets.UTF_8),
        Map.of("v", value),
        Map.of());
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("small store, long history", 1L, 8, 10_000),
        Arguments.of("many keys", 2L, 40, 10_000),
        Arguments.of("another seed", 3L, 15, 10_000));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void everyPastVersionListsAsItWas(String name, long seed, int keys, int history) {
    Storage storage = new Storage(Persistence.NONE, history);
    ResourceStore store = storage.store("/configmaps");
    Random rnd = new Random(seed);
    // Version 0 asks for the current state, so the model starts with the first write.
    TreeMap<Long, NavigableMap<String, StoredObject>> states = new TreeMap<>();
    for (int i = 0; i < 300; i++) {
      String ns = NAMESPACES.get(rnd.nextInt(NAMESPACES.size()));
      String n = "k" + rnd.nextInt(keys);
      String value = Integer.toString(rnd.nextInt(3));
      if (store.get(ns, n) == null) {
        store.create(ns, n, rv -> object(ns, n, rv, value));
      } else if (rnd.nextInt(3) == 0) {
        store.delete(ns, n, 0, rv -> object(ns, n, rv, value));
      } else {
        store.update(ns, n, 0, rv -> object(ns, n, rv, value));
      }
      TreeMap<String, StoredObject> copy = new TreeMap<>();
      for (StoredObject o : store.listAt(0, null, null, x -> true, 0).items()) {
        copy.put(o.key(), o);
      }
      states.put(storage.currentVersion(), copy);
    }
    List<Predicate<StoredObject>> filters =
        List.of(o -> true, o -> o.labels().get("v").equals("1"));
    for (var state : states.entrySet()) {
      for (String ns : new String[] {null, "b"}) {
        for (String from : new String[] {null, "b/k3\0", "a/k1"}) {
          for (Predicate<StoredObject> filter : filters) {
            for (int limit : new int[] {0, 1, 4}) {
              ListPage want = naive(state.getValue(), ns, from, filter, limit, state.getKey());
              ListPage got = store.listAt(state.getKey(), ns, from, filter, limit);
              assertThat(got)
                  .as("at %d ns %s from %s limit %d", state.getKey(), ns, from, limit)
                  .isEqualTo(want);
            }
          }
        }
      }
    }
  }

  /** The page as upstream's cacher makes it from a full copy of the state. */
  static ListPage naive(
      NavigableMap<String, StoredObject> state,
      String ns,
      String from,
      Predicate<StoredObject> filter,
      int limit,
      long version) {
    NavigableMap<String, StoredObject> range = PastState.range(state, ns, from);
    List<StoredObject> all = new ArrayList<>(range.values());
    List<StoredObject> items = new ArrayList<>();
    int i = 0;
    for (; i < all.size(); i++) {
      if (filter.test(all.get(i))) {
        items.add(all.get(i));
        if (limit > 0 && items.size() == limit) {
          i++;
          break;
        }
      }
    }
    long remaining = all.size() - i;
    boolean more = limit > 0 && items.size() == limit && remaining > 0;
    return new ListPage(
        items, version, more ? items.get(items.size() - 1).key() : null, more ? remaining : 0);
  }

  @ParameterizedTest(name = "history {0}: rv {1} gone={2}")
  @MethodSource
  void olderThanHistoryIsGone(int history, int writesBack, boolean gone) {
    Storage storage = new Storage(Persistence.NONE, history);
    ResourceStore store = storage.store("/configmaps");
    store.create("a", "x", rv -> object("a", "x", rv, "0"));
    for (int i = 0; i < 10; i++) {
      store.update("a", "x", 0, rv -> object("a", "x", rv, "1"));
    }
    long version = storage.currentVersion() - writesBack;
    if (gone) {
      assertThatThrownBy(() -> store.listAt(version, null, null, o -> true, 0))
          .isInstanceOf(StorageException.Gone.class);
    } else {
      assertThat(store.listAt(version, null, null, o -> true, 0).items()).hasSize(1);
    }
  }

  static Stream<Arguments> olderThanHistoryIsGone() {
    return Stream.of(
        Arguments.of(5, 5, false),
        Arguments.of(5, 6, true),
        Arguments.of(20, 10, false),
        Arguments.of(1, 1, false),
        Arguments.of(1, 2, true));
  }

  @org.junit.jupiter.api.Test
  void aResourceNeverWrittenWasEmptyAtEveryEarlierVersion() {
    Storage storage = new Storage(Persistence.NONE, 2);
    ResourceStore busy = storage.store("/configmaps");
    busy.create("a", "x", rv -> object("a", "x", rv, "0"));
    long early = storage.currentVersion();
    for (int i = 0; i < 5; i++) {
      busy.update("a", "x", 0, rv -> object("a", "x", rv, "1"));
    }
    ResourceStore quiet = storage.store("/secrets");
    ListPage page = quiet.listAt(early, null, null, o -> true, 0);
    assertThat(page.items()).isEmpty();
    assertThat(page.version()).isEqualTo(early);
    assertThatThrownBy(() -> busy.listAt(early, null, null, o -> true, 0))
        .isInstanceOf(StorageException.Gone.class);
  }
}
