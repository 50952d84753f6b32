package io.jdra.controllers.devicetainteviction;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRule;
import io.jdra.controllers.devicetainteviction.DeviceTaintEvictionController.Options;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.runtime.workqueue.MockQueue;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A controller on a {@link FakeCluster}, a {@link MockQueue} and a {@link FakeClock} starting at
 * the taint time: events are fed synchronously, work is processed by calling the controller's
 * worker step until nothing is ready, time moves only when the test says so.
 */
final class Harness {
  final FakeClock clock = new FakeClock(Fixtures.TAINT_TIME);
  final MockQueue<WorkItem> queue = new MockQueue<>();
  final FakeCluster cluster = new FakeCluster();
  final List<String> events = new ArrayList<>();
  final PrometheusRegistry registry = new PrometheusRegistry();
  final DeviceTaintEvictionMetrics metrics = DeviceTaintEvictionMetrics.create(registry);
  final DeviceTaintEvictionController controller;
  final Ctx ctx = Ctx.forTest(clock);

  Harness(boolean extendedResources) {
    controller =
        new DeviceTaintEvictionController(
            Options.defaults(),
            clock,
            cluster,
            cluster.podLister,
            queue,
            metrics,
            (pod, note) -> events.add(pod + " " + note),
            extendedResources);
    cluster.connect(controller.tracker());
  }

  /** An informer event: add (old null), update, or delete (new null). */
  record Ev(Object oldObj, Object newObj) {
    @Override
    public String toString() {
      Object o = newObj != null ? newObj : oldObj;
      String what = oldObj == null ? "add" : newObj == null ? "remove" : "update";
      return what + " " + o.getClass().getSimpleName();
    }
  }

  static Ev add(Object o) {
    return new Ev(null, o);
  }

  static Ev update(Object o, Object n) {
    return new Ev(o, n);
  }

  static Ev remove(Object o) {
    return new Ev(o, null);
  }

  void feed(List<Ev> evs) {
    evs.forEach(e -> cluster.apply(e.oldObj(), e.newObj()));
  }

  /** Handles every ready work item, including items that become ready meanwhile. */
  void process() {
    while (controller.processNextWorkItem(ctx)) {
      // Next.
    }
  }

  /** Moves time; every delayed item gets a look (items not due re-queue themselves). */
  void advance(Duration d) {
    clock.step(d);
    queue.moveLaterToReady();
    process();
  }

  /** {@code podName -> eviction time} of deletePodAt. */
  Map<String, String> deletePodAt() {
    Map<String, String> out = new TreeMap<>();
    controller
        .tracker()
        .deletePodAt()
        .forEach((k, v) -> out.put(k.toString(), v.when().toString()));
    return out;
  }

  /**
   * Everything the handlers decided, order-free: deletePodAt with reasons, claim evictions and the
   * queued rule items. Pod items are hints that may stay queued after an eviction was planned and
   * cancelled again (deletePodAt decides), so only their presence for planned evictions counts.
   */
  List<Object> snapshot() {
    var st = queue.state();
    Set<WorkItem> queued = new HashSet<>(st.ready());
    st.later().forEach(d -> queued.add(d.item()));
    Map<PodRef, Eviction> deletePodAt = controller.tracker().deletePodAt();
    boolean allPlannedQueued =
        deletePodAt.keySet().stream().allMatch(p -> queued.contains(new WorkItem.PodItem(p)));
    queued.removeIf(i -> i instanceof WorkItem.PodItem);
    return List.of(deletePodAt, controller.tracker().allocatedClaims(), queued, allPlannedQueued);
  }

  /** The rule's EvictionInProgress condition as "status reason message", or null. */
  String ruleCondition(String name) {
    DeviceTaintRule r = cluster.rule(name);
    Condition c = r == null ? null : RuleConditions.existing(r);
    return c == null ? null : c.getStatus() + " " + c.getReason() + " " + c.getMessage();
  }
}
