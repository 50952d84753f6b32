package io.jdra.controllers.garbagecollector;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.workqueue.MockQueue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The graph builder's event handling: which UIDs each sequence of informer events puts on the
 * attemptToDelete and attemptToOrphan queues (mock queues; no API server).
 */
class GraphBuilderTest {
  static final Ctx CTX = Ctx.forTest(new FakeClock(Instant.parse("2026-01-01T00:00:00Z")));

  final MockQueue<String> toDelete = new MockQueue<>();
  final MockQueue<String> toOrphan = new MockQueue<>();
  final GraphBuilder graph =
      new GraphBuilder(toDelete, toOrphan, new AbsentOwnerCache(), EventRecorder.fake());

  record Case(String name, Consumer<Events> events, List<String> toDelete, List<String> toOrphan) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** Events in order, built from short descriptions. */
  static final class Events {
    final List<GraphEvent> list = new ArrayList<>();

    Events add(String uid, OwnerReference... owners) {
      list.add(new GraphEvent(GraphEvent.Type.ADD, null, meta(uid, false, List.of(), owners)));
      return this;
    }

    Events update(ObjectMeta old, ObjectMeta cur) {
      list.add(new GraphEvent(GraphEvent.Type.UPDATE, old, cur));
      return this;
    }

    Events delete(String uid, OwnerReference... owners) {
      list.add(new GraphEvent(GraphEvent.Type.DELETE, null, meta(uid, true, List.of(), owners)));
      return this;
    }

    /** The object without owners is being deleted with {@code finalizer} now. */
    Events deleting(String uid, String finalizer) {
      return update(meta(uid, false, List.of()), meta(uid, true, List.of(finalizer)));
    }

    /** Owner o, deleted in the foreground, waits for d, which blocks it. */
    Events ownerWaitingForBlockingDependent() {
      return add("o").add("d", owner("o", true)).deleting("o", "foregroundDeletion");
    }

    void applyTo(GraphBuilder graph) {
      list.forEach(ev -> graph.processGraphChanges(CTX.logger(), ev));
    }
  }

  static ObjectMeta meta(
      String uid, boolean deleting, List<String> finalizers, OwnerReference... owners) {
    return new ObjectMeta(
        new ObjectIdentity("v1", "ConfigMap", "ns", "cm-" + uid, uid),
        List.of(owners),
        finalizers,
        deleting,
        "1");
  }

  static OwnerReference owner(String uid, boolean block) {
    return new OwnerReferenceBuilder()
        .withApiVersion("v1")
        .withKind("ConfigMap")
        .withName("cm-" + uid)
        .withUid(uid)
        .withBlockOwnerDeletion(block)
        .build();
  }

  static List<Case> cases() {
    return List.of(
        new Case(
            "owner seen first: nothing to do",
            e -> e.add("o").add("d", owner("o", false)),
            List.of(),
            List.of()),
        new Case(
            "owner not seen: the virtual owner is checked",
            e -> e.add("d", owner("o", false)),
            List.of("o"),
            List.of()),
        new Case(
            "owner deleted: its dependents are checked",
            e -> e.add("o").add("d1", owner("o", false)).add("d2", owner("o", true)).delete("o"),
            List.of("d1", "d2"),
            List.of()),
        new Case(
            "orphan finalizer on a deleting owner: orphan its dependents",
            e -> e.add("o").add("d", owner("o", false)).deleting("o", "orphan"),
            List.of(),
            List.of("o")),
        new Case(
            "foreground deletion: the dependents and the owner are checked",
            Events::ownerWaitingForBlockingDependent,
            List.of("d", "o"),
            List.of()),
        new Case(
            "a repeated update of a deleting owner queues nothing new",
            e ->
                e.add("o")
                    .deleting("o", "orphan")
                    .update(meta("o", true, List.of("orphan")), meta("o", true, List.of("orphan"))),
            List.of(),
            List.of("o")),
        new Case(
            "a blocking dependent deleted: the waiting owner is checked again",
            e -> e.ownerWaitingForBlockingDependent().delete("d", owner("o", true)),
            List.of("d", "o"),
            List.of()),
        new Case(
            "a blocking reference removed: the waiting owner is checked again",
            e ->
                e.ownerWaitingForBlockingDependent()
                    .update(
                        meta("d", false, List.of(), owner("o", true)), meta("d", false, List.of())),
            List.of("d", "o"),
            List.of()),
        new Case(
            "a reference no longer blocking: the waiting owner is checked again",
            e ->
                e.ownerWaitingForBlockingDependent()
                    .update(
                        meta("d", false, List.of(), owner("o", true)),
                        meta("d", false, List.of(), owner("o", false))),
            List.of("d", "o"),
            List.of()));
  }

  @Test
  void theWaitingOwnerIsQueuedAgainOnceItsBlockingDependentGoes() {
    new Events().ownerWaitingForBlockingDependent().applyTo(graph);
    assertThat(drain(toDelete)).containsExactly("d", "o");
    assertThat(graph.view("o").blockingDependents()).hasSize(1);
    new Events().delete("d", owner("o", true)).applyTo(graph);
    assertThat(drain(toDelete)).containsExactly("o");
    assertThat(graph.view("o").blockingDependents()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void queues(Case c) {
    Events e = new Events();
    c.events().accept(e);
    e.applyTo(graph);
    assertThat(drain(toDelete)).as("attemptToDelete").isEqualTo(c.toDelete());
    assertThat(drain(toOrphan)).as("attemptToOrphan").isEqualTo(c.toOrphan());
  }

  /** What workers would take, in order (the queue folds duplicates not yet taken). */
  static List<String> drain(MockQueue<String> q) {
    List<String> out = new ArrayList<>();
    for (String s = q.len() > 0 ? q.get() : null; s != null; s = q.len() > 0 ? q.get() : null) {
      out.add(s);
      q.done(s);
    }
    return out;
  }

  @Test
  void virtualDeleteRemovesTheVirtualOwnerAndQueuesItsDependents() {
    new Events().add("d", owner("o", false)).applyTo(graph);
    assertThat(drain(toDelete)).containsExactly("o");
    assertThat(graph.view("o").virtual()).isTrue();
    graph.processGraphChanges(CTX.logger(), GraphEvent.virtualDelete(graph.view("o").identity()));
    assertThat(graph.view("o")).isNull();
    assertThat(drain(toDelete)).containsExactly("d");
  }

  @Test
  void anObservedOwnerReplacesItsVirtualNode() {
    new Events().add("d", owner("o", false)).add("o").applyTo(graph);
    assertThat(graph.isObserved("o")).isTrue();
    assertThat(graph.view("o").dependents())
        .extracting(d -> d.identity().uid())
        .containsExactly("d");
  }
}
