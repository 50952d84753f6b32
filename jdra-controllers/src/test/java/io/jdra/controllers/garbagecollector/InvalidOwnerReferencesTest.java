package io.jdra.controllers.garbagecollector;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.record.FakeEventRecorder;
import io.jdra.runtime.workqueue.MockQueue;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Owner references the graph cannot trust, as upstream's graph_builder.go handles them ({@code
 * addDependentToOwners}, the virtual-to-observed swap, virtual deletes with {@code
 * partitionDependents} and {@code getAlternateOwnerIdentity}; garbagecollector_test.go's {@code
 * TestGarbageCollectorSync}-free cases of {@code TestConflictingData}): which dependents are
 * checked, which identity stands for the owner, what is remembered as absent, and the {@code
 * OwnerRefInvalidNamespace} events. Mock queues and a fake recorder; no API server.
 */
class InvalidOwnerReferencesTest {
  static final Ctx CTX = Ctx.forTest(new FakeClock(Instant.parse("2026-01-01T00:00:00Z")));

  /** The world of one case. */
  static final class World {
    final MockQueue<String> toDelete = new MockQueue<>();
    final AbsentOwnerCache absent = new AbsentOwnerCache();
    final FakeEventRecorder events = EventRecorder.fake();
    final GraphBuilder graph = new GraphBuilder(toDelete, new MockQueue<>(), absent, events);

    /** ConfigMap {@code uid} (named cm-uid) in {@code ns} ("" for cluster-scoped) is seen. */
    World add(String ns, String uid, OwnerReference... owners) {
      graph.processGraphChanges(
          CTX.logger(), new GraphEvent(GraphEvent.Type.ADD, null, meta(ns, uid, owners)));
      return this;
    }

    World virtualDelete(String ns, String uid) {
      graph.processGraphChanges(CTX.logger(), GraphEvent.virtualDelete(id(ns, uid)));
      return this;
    }
  }

  static ObjectIdentity id(String ns, String uid) {
    return new ObjectIdentity("v1", "ConfigMap", ns, "cm-" + uid, uid);
  }

  static ObjectMeta meta(String ns, String uid, OwnerReference... owners) {
    return new ObjectMeta(id(ns, uid), List.of(owners), List.of(), false, "1");
  }

  static OwnerReference owner(String uid) {
    return owner(uid, "cm-" + uid);
  }

  static OwnerReference owner(String uid, String name) {
    return new OwnerReferenceBuilder()
        .withApiVersion("v1")
        .withKind("ConfigMap")
        .withName(name)
        .withUid(uid)
        .build();
  }

  static String invalidNamespace(String ns, String ownerUid) {
    return "Warning OwnerRefInvalidNamespace ownerRef [v1/ConfigMap, namespace: "
        + ns
        + ", name: cm-"
        + ownerUid
        + ", uid: "
        + ownerUid
        + "] does not exist in namespace \""
        + ns
        + "\"";
  }

  record Case(
      String name,
      Consumer<World> events,
      List<String> toDelete,
      Map<String, Integer> rateLimited,
      ObjectIdentity ownerIdentity,
      List<ObjectIdentity> absent,
      List<String> recorded) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "owner observed first, dependent in another namespace: event, dependent checked",
            w -> w.add("a", "o").add("b", "d", owner("o")),
            List.of("d"),
            Map.of(),
            id("a", "o"),
            List.of(),
            List.of(invalidNamespace("b", "o"))),
        new Case(
            "dependent first, owner then observed in another namespace: event, dependent checked",
            w -> w.add("b", "d", owner("o")).add("a", "o"),
            List.of("o", "d"),
            Map.of(),
            id("a", "o"),
            List.of(),
            List.of(invalidNamespace("b", "o"))),
        new Case(
            "owner not observed, a second dependent in another namespace: checked, no event",
            w -> w.add("a", "d1", owner("o")).add("b", "d2", owner("o")),
            List.of("o", "d2"),
            Map.of(),
            id("a", "o"),
            List.of(),
            List.of()),
        new Case(
            "a cluster-scoped owner may be referred to from any namespace",
            w -> w.add("", "o").add("a", "d1", owner("o")).add("b", "d2", owner("o")),
            List.of(),
            Map.of(),
            id("", "o"),
            List.of(),
            List.of()),
        new Case(
            "a reference with other coordinates than the observed owner: checked, no event",
            w -> w.add("a", "o").add("a", "d", owner("o", "other")),
            List.of("d"),
            Map.of(),
            id("a", "o"),
            List.of(),
            List.of()),
        new Case(
            "virtual owner absent in the first namespace: its dependents there are checked, the"
                + " owner is looked for in the next",
            w -> w.add("a", "d1", owner("o")).add("b", "d2", owner("o")).virtualDelete("a", "o"),
            List.of("o", "d2", "d1"),
            Map.of("o", 1),
            id("b", "o"),
            List.of(id("a", "o")),
            List.of()),
        new Case(
            "virtual owner absent in both namespaces: it takes each identity in turn while"
                + " dependents disagree",
            w ->
                w.add("a", "d1", owner("o"))
                    .add("b", "d2", owner("o"))
                    .virtualDelete("a", "o")
                    .virtualDelete("b", "o"),
            List.of("o", "d2", "d1"),
            Map.of("o", 2),
            id("a", "o"),
            List.of(id("a", "o"), id("b", "o")),
            List.of()),
        new Case(
            "observed owner, a virtual delete of other coordinates: only the dependents naming"
                + " those are checked",
            w -> w.add("a", "o").add("b", "d", owner("o")).virtualDelete("b", "o"),
            List.of("d"),
            Map.of(),
            id("a", "o"),
            List.of(id("b", "o")),
            List.of(invalidNamespace("b", "o"))),
        new Case(
            "an owner with dependents deleted is remembered as absent",
            w -> w.add("a", "o").add("a", "d", owner("o")).virtualDelete("a", "o"),
            List.of("d"),
            Map.of(),
            null,
            List.of(id("a", "o")),
            List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void graph(Case c) {
    World w = new World();
    c.events().accept(w);
    assertThat(GraphBuilderTest.drain(w.toDelete)).as("attemptToDelete").isEqualTo(c.toDelete());
    assertThat(w.toDelete.state().failures()).as("rate-limited").isEqualTo(c.rateLimited());
    NodeView o = w.graph.view("o");
    assertThat(o == null ? null : o.identity()).as("owner node").isEqualTo(c.ownerIdentity());
    for (ObjectIdentity a : c.absent()) {
      assertThat(w.absent.has(a)).as("absent " + a).isTrue();
    }
    assertThat(w.events.strings()).as("events").isEqualTo(c.recorded());
  }
}
