package io.jdra.kubelet.sim;

import static io.jdra.kubelet.sim.PodStatusPatchTest.obj;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The status manager on a fake clock against a fake API server that runs on the caller's thread (a
 * status set from inside a write is one set while that write is in flight) and applies the
 * strategic merge patches it gets to its one pod; the informer's copy is the server's unless a test
 * says otherwise.
 */
class StatusManagerTest {
  final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  final Ctx ctx = Ctx.forTest(clock).withCancel();

  /** The API server's pod (null: not found). */
  StatusManager.ServerPod server = new StatusManager.ServerPod("uid-1", obj("{}"));

  /** The informer's copy of the pod; null means it follows the server. */
  StatusManager.ServerPod cached;

  final List<String> gets = new ArrayList<>();
  final List<String> patches = new ArrayList<>();
  final List<ObjectNode> rawPatches = new ArrayList<>();
  final List<Integer> failWith = new ArrayList<>();
  Consumer<String> duringWrite = phase -> {};

  final StatusManager manager =
      new StatusManager(
          ctx,
          new StatusManager.PodClient() {
            @Override
            public StatusManager.ServerPod get(String namespace, String name) {
              gets.add(namespace + "/" + name);
              return server;
            }

            @Override
            public void patchStatus(String namespace, String name, String patch) {
              ObjectNode p = obj(patch);
              rawPatches.add(p);
              patches.add(p.path("status").path("phase").asString(""));
              duringWrite.accept(p.path("status").path("phase").asString(""));
              if (!failWith.isEmpty()) {
                throw new KubernetesClientException("injected", failWith.remove(0), null);
              }
              assertThat(p.path("metadata").path("uid").asString()).isEqualTo(server.uid());
              server = new StatusManager.ServerPod(server.uid(), apply(server.status(), p));
            }
          },
          key -> {
            assertThat(key).isEqualTo("default/p");
            return cached != null ? cached : server;
          },
          Runnable::run);

  CompletableFuture<Void> set(String phase) {
    return manager.setPodStatus("uid-1", "default", "p", status(phase));
  }

  static ObjectNode status(String phase) {
    return obj(
        "{'phase':'"
            + phase
            + "','conditions':[{'type':'Ready','status':'"
            + (phase.equals("Running") ? "True" : "False")
            + "'}]}");
  }

  @Test
  void statusesSetDuringAWriteGoOutAsOneWriteOfTheNewest() {
    List<CompletableFuture<Void>> later = new ArrayList<>();
    duringWrite =
        phase -> {
          if (phase.equals("a")) {
            later.add(set("b"));
            later.add(set("c"));
          }
        };
    CompletableFuture<Void> first = set("a");
    assertThat(patches).containsExactly("a", "c");
    assertThat(first).isCompleted();
    assertThat(later).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
    assertThat(manager.pending()).isZero();
  }

  @Test
  void anUnchangedStatusIsNotSentAgain() {
    set("a");
    CompletableFuture<Void> again = set("a");
    assertThat(again).isCompleted();
    assertThat(patches).containsExactly("a");
    assertThat(gets).hasSize(1);
    set("b");
    assertThat(patches).containsExactly("a", "b");
  }

  @Test
  void theServersPodIsReadFirstAndOnlyTheDifferenceIsSent() {
    server =
        new StatusManager.ServerPod(
            "uid-1",
            obj(
                "{'phase':'Pending','qosClass':'BestEffort','conditions':["
                    + "{'type':'example.com/gate','status':'True'},"
                    + "{'type':'Ready','status':'False'}]}"));
    set("Running");
    assertThat(gets).containsExactly("default/p");
    assertThat(rawPatches)
        .singleElement()
        .isEqualTo(
            obj(
                "{'metadata':{'uid':'uid-1'},'status':{'phase':'Running',"
                    + "'$setElementOrder/conditions':[{'type':'example.com/gate'},{'type':'Ready'}],"
                    + "'conditions':[{'status':'True','type':'Ready'}]}}"));
    assertThat(server.status())
        .isEqualTo(
            obj(
                "{'phase':'Running','qosClass':'BestEffort','conditions':["
                    + "{'type':'example.com/gate','status':'True'},"
                    + "{'type':'Ready','status':'True'}]}"));
  }

  @Test
  void aStatusTheServerHasAlreadyIsReadButNotPatched() {
    server = new StatusManager.ServerPod("uid-1", status("Running"));
    CompletableFuture<Void> f = set("Running");
    assertThat(f).isCompleted();
    assertThat(gets).hasSize(1);
    assertThat(patches).isEmpty();
    assertThat(manager.pending()).isZero();
  }

  @Test
  void aNewPodOfTheSameNameIsNotPatchedAndTheOldOneIsDropped() {
    server = new StatusManager.ServerPod("uid-2", obj("{}"));
    CompletableFuture<Void> f = set("Running");
    assertThat(f).isCompleted();
    assertThat(f.isCompletedExceptionally()).isFalse();
    assertThat(patches).isEmpty();
    assertThat(manager.pending()).isZero();
    clock.step(Duration.ofMinutes(1));
    assertThat(gets).hasSize(1);
  }

  @Test
  void aFailedWriteFailsItsWaitersAndIsRetriedWithBackOff() {
    failWith.add(500);
    failWith.add(500);
    CompletableFuture<Void> f = set("a");
    assertThat(f).isCompletedExceptionally();
    assertThat(manager.pending()).isOne();
    clock.step(Duration.ofMillis(499));
    assertThat(patches).hasSize(1);
    clock.step(Duration.ofMillis(1));
    assertThat(patches).hasSize(2);
    // Second failure: the back-off doubled.
    clock.step(Duration.ofMillis(999));
    assertThat(patches).hasSize(2);
    clock.step(Duration.ofMillis(1));
    assertThat(patches).containsExactly("a", "a", "a");
    assertThat(manager.pending()).isZero();
  }

  @Test
  void aNewerStatusReplacesAPendingRetryAndGoesOutAtOnce() {
    failWith.add(500);
    set("a");
    CompletableFuture<Void> newer = set("b");
    assertThat(newer).isCompleted();
    assertThat(patches).containsExactly("a", "b");
    clock.step(Duration.ofMinutes(1));
    assertThat(patches).containsExactly("a", "b");
  }

  @Test
  void aPodThatIsGoneIsDropped() {
    server = null;
    CompletableFuture<Void> f = set("a");
    assertThat(f).isCompleted();
    assertThat(f.isCompletedExceptionally()).isFalse();
    assertThat(manager.pending()).isZero();
    clock.step(Duration.ofMinutes(1));
    assertThat(gets).hasSize(1);
    assertThat(patches).isEmpty();
  }

  @Test
  void aPodDeletedBetweenTheReadAndThePatchIsDropped() {
    failWith.add(404);
    CompletableFuture<Void> f = set("a");
    assertThat(f).isCompleted();
    assertThat(f.isCompletedExceptionally()).isFalse();
    assertThat(manager.pending()).isZero();
    clock.step(Duration.ofMinutes(1));
    assertThat(patches).containsExactly("a");
  }

  @Test
  void waitersOfAStoppedNodeFailInsteadOfWaitingForever() {
    List<CompletableFuture<Void>> later = new ArrayList<>();
    duringWrite =
        phase -> {
          later.add(set("b"));
          ctx.cancel();
        };
    set("a");
    assertThat(later).singleElement().satisfies(f -> assertThat(f).isCompletedExceptionally());
    assertThat(set("c")).isCompletedExceptionally();
    assertThat(patches).containsExactly("a");
  }

  @Test
  void aForgottenPodIsNotRetried() {
    failWith.add(500);
    set("a");
    manager.forget("uid-1");
    clock.step(Duration.ofMinutes(1));
    assertThat(patches).containsExactly("a");
    assertThat(manager.pending()).isZero();
  }

  @Test
  void thePeriodicPassSetsBackAStatusSomeoneElseChanged() {
    manager.start();
    set("Running");
    assertThat(patches).containsExactly("Running");
    // Nothing differs: the pass every 10 s reads nothing and writes nothing.
    clock.step(Duration.ofSeconds(10));
    clock.step(Duration.ofSeconds(10));
    assertThat(gets).hasSize(1);
    // Another client sets the phase the kubelet owns (the informer sees it too).
    server = new StatusManager.ServerPod("uid-1", status("Failed"));
    clock.step(Duration.ofSeconds(9));
    assertThat(patches).containsExactly("Running");
    clock.step(Duration.ofSeconds(1));
    assertThat(patches).containsExactly("Running", "Running");
    assertThat(server.status()).isEqualTo(status("Running"));
  }

  @Test
  void thePeriodicPassComparesWithTheInformersCopy() {
    manager.start();
    set("Running");
    // The server changed but the informer has not seen it yet: no write this round.
    cached = server;
    server = new StatusManager.ServerPod("uid-1", status("Failed"));
    clock.step(Duration.ofSeconds(10));
    assertThat(patches).containsExactly("Running");
    cached = null;
    clock.step(Duration.ofSeconds(10));
    assertThat(patches).containsExactly("Running", "Running");
  }

  @Test
  void thePeriodicPassSendsAFailedWriteBeforeItsBackOffEnds() {
    manager.start();
    // Failures at 0, 0.5, 1.5, 3.5 and 7.5 s: the next back-off (8 s) would end at 15.5 s.
    for (int i = 0; i < 5; i++) {
      failWith.add(500);
    }
    set("Running");
    clock.step(Duration.ofMillis(7_500));
    assertThat(patches).hasSize(5);
    clock.step(Duration.ofMillis(2_500));
    assertThat(patches).hasSize(6);
    assertThat(manager.pending()).isZero();
    clock.step(Duration.ofSeconds(10));
    assertThat(patches).hasSize(6);
  }

  @Test
  void thePeriodicPassEndsWithTheNode() {
    manager.start();
    set("Running");
    ctx.cancel();
    server = new StatusManager.ServerPod("uid-1", status("Failed"));
    clock.step(Duration.ofMinutes(1));
    assertThat(patches).containsExactly("Running");
  }

  /**
   * The part of the API server's strategic merge patch these tests need: fields set or removed,
   * merge lists by key with {@code $patch: delete} and {@code $setElementOrder}.
   */
  static ObjectNode apply(ObjectNode status, ObjectNode patch) {
    ObjectNode out = status.deepCopy();
    for (Map.Entry<String, JsonNode> e : patch.path("status").properties()) {
      String field = e.getKey();
      if (field.startsWith("$setElementOrder/")) {
        continue;
      }
      if (e.getValue().isNull()) {
        out.remove(field);
      } else if (patch.path("status").has("$setElementOrder/" + field)) {
        out.set(field, mergeList(out.path(field), e.getValue(), patch, field));
      } else {
        out.set(field, e.getValue());
      }
    }
    return out;
  }

  private static ArrayNode mergeList(JsonNode list, JsonNode changes, ObjectNode patch, String f) {
    String key =
        f.equals("conditions") ? "type" : f.equals("resourceClaimStatuses") ? "name" : "ip";
    Map<String, ObjectNode> byKey = new java.util.LinkedHashMap<>();
    list.forEach(el -> byKey.put(el.path(key).asString(), (ObjectNode) el.deepCopy()));
    for (JsonNode c : changes) {
      String k = c.path(key).asString();
      if (c.path("$patch").asString("").equals("delete")) {
        byKey.remove(k);
      } else {
        ObjectNode el = byKey.computeIfAbsent(k, x -> obj("{}"));
        c.properties()
            .forEach(p -> {
              if (p.getValue().isNull()) {
                el.remove(p.getKey());
              } else {
                el.set(p.getKey(), p.getValue());
              }
            });
      }
    }
    ArrayNode out = obj("{'a':[]}").withArray("a");
    for (JsonNode o : patch.path("status").path("$setElementOrder/" + f)) {
      out.add(byKey.get(o.path(key).asString()));
    }
    return out;
  }
}
