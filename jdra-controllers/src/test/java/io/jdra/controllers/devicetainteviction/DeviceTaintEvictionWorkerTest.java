package io.jdra.controllers.devicetainteviction;

import static io.jdra.controllers.devicetainteviction.Fixtures.*;
import static io.jdra.controllers.devicetainteviction.Harness.add;
import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.controllers.devicetainteviction.WorkItem.PodItem;
import io.jdra.controllers.devicetainteviction.WorkItem.RuleItem;
import io.jdra.runtime.workqueue.MockQueue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the workers do with the API: order of calls, retries, events, metrics, status pacing. */
class DeviceTaintEvictionWorkerTest {
  static final PodItem MY_POD_ITEM = new PodItem(new PodRef(NS, POD, POD_UID));

  @Test
  void conditionThenUidPreconditionedDelete() {
    Harness h = new Harness(true);
    h.feed(List.of(add(SLICE_TAINTED), add(IN_USE_CLAIM), add(POD_WITH_CLAIM)));
    h.clock.step(Duration.ofMillis(1500));
    h.process();
    assertThat(h.cluster.calls)
        .containsExactly(
            "get pod default/my-pod",
            "patch pod status default/my-pod",
            "delete pod default/my-pod");
    assertThat(h.cluster.deleted).containsExactly(MY_POD_ITEM.pod());
    assertThat(h.metrics.podDeletionsTotal.get()).isEqualTo(1.0);
    var histogram = h.metrics.podDeletionDuration.collect().getDataPoints().get(0);
    assertThat(histogram.getCount()).isEqualTo(1);
    assertThat(histogram.getSum()).as("seconds since the taint took effect").isEqualTo(1.5);
  }

  @Test
  void disruptionTargetCondition() {
    var condition =
        DeviceTaintEvictionController.disruptionTarget(POD_WITH_CLAIM, TAINT_TIME.plusMillis(1700));
    assertThat(condition.getType()).isEqualTo("DisruptionTarget");
    assertThat(condition.getStatus()).isEqualTo("True");
    assertThat(condition.getReason()).isEqualTo("DeletionByDeviceTaintManager");
    assertThat(condition.getMessage())
        .isEqualTo("Device Taint manager: deleting due to NoExecute taint");
    assertThat(condition.getLastTransitionTime()).isEqualTo("2026-01-01T00:00:01Z");
    var withIt =
        new io.fabric8.kubernetes.api.model.PodBuilder(POD_WITH_CLAIM)
            .editOrNewStatus()
            .addToConditions(condition)
            .endStatus()
            .build();
    assertThat(DeviceTaintEvictionController.disruptionTarget(withIt, TAINT_TIME.plusSeconds(60)))
        .as("already set: no patch")
        .isNull();
  }

  @Test
  void failedDeletionIsRetriedWithBackoffAndReportedOnce() {
    Harness h = new Harness(true);
    h.feed(List.of(add(SLICE_TAINTED), add(IN_USE_CLAIM), add(POD_WITH_CLAIM)));
    h.cluster.failOn = "delete pod";
    h.cluster.failNext = 2;
    h.process();
    assertThat(h.queue.state().failures()).isEqualTo(Map.of(MY_POD_ITEM, 1));
    assertThat(h.cluster.deleted).isEmpty();
    // The backoff has passed twice (the mock queue leaves re-adding to the test).
    h.queue.add(MY_POD_ITEM);
    h.process();
    assertThat(h.queue.state().failures()).isEqualTo(Map.of(MY_POD_ITEM, 2));
    h.queue.add(MY_POD_ITEM);
    h.process();
    assertThat(h.cluster.deleted).containsExactly(MY_POD_ITEM.pod());
    assertThat(h.queue.state().failures()).as("forgotten after success").isEmpty();
    assertThat(h.events).containsExactly("default/my-pod Marking for deletion");
    assertThat(h.controller.tracker().deletePodAt()).isEmpty();
  }

  @Test
  void podGoneBeforeDeletionIsNotCounted() {
    Harness h = new Harness(true);
    h.feed(List.of(add(SLICE_TAINTED), add(IN_USE_CLAIM), add(POD_WITH_CLAIM)));
    h.cluster.failOn = "get pod";
    h.cluster.failNext = 1;
    h.process(); // GET fails: retry later.
    h.cluster.apply(POD_WITH_CLAIM, null); // Deleted by someone else meanwhile.
    h.queue.add(MY_POD_ITEM);
    h.process();
    assertThat(h.cluster.deleted).isEmpty();
    assertThat(h.metrics.podDeletionsTotal.get()).isZero();
    assertThat(h.events).isEmpty();
    assertThat(h.controller.tracker().deletePodAt()).isEmpty();
  }

  @Test
  void ruleStatusIsWrittenAtMostEveryStatusPeriod() {
    Harness h = new Harness(true);
    h.feed(List.of(add(IN_USE_CLAIM_TOLERATING), add(POD_WITH_CLAIM), add(RULE_EVICT)));
    h.process();
    assertThat(h.cluster.ruleStatusWrites).isEqualTo(1);
    RuleItem item = new RuleItem("evict", "rule-1");
    h.clock.step(Duration.ofSeconds(3));
    h.queue.add(item);
    h.process();
    assertThat(h.cluster.ruleStatusWrites).as("no write within the period").isEqualTo(1);
    assertThat(h.queue.state().later())
        .contains(new MockQueue.Delayed<>(item, Duration.ofSeconds(7)));
    h.clock.step(Duration.ofSeconds(7));
    h.queue.moveLaterToReady();
    h.process();
    assertThat(h.cluster.ruleStatusWrites)
        .as("nothing changed: no write after the period either")
        .isEqualTo(1);
  }

  @Test
  void noneRuleIsReportedOncePerGeneration() {
    Harness h = new Harness(true);
    h.feed(List.of(add(SLICE), add(IN_USE_CLAIM), add(POD_WITH_CLAIM), add(RULE_NONE)));
    h.process();
    assertThat(h.cluster.ruleStatusWrites).isEqualTo(1);
    h.advance(Duration.ofMinutes(5));
    assertThat(h.cluster.ruleStatusWrites).isEqualTo(1);
    var current = h.cluster.rule("evict");
    var nextGeneration =
        new io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRuleBuilder(current)
            .editMetadata()
            .withGeneration(2L)
            .endMetadata()
            .editSpec()
            .editDeviceSelector()
            .withDevice("instance-no-schedule")
            .endDeviceSelector()
            .endSpec()
            .build();
    h.cluster.apply(current, nextGeneration);
    h.process();
    assertThat(h.ruleCondition("evict"))
        .isEqualTo(
            "False NoEffect 1 published device selected. 0 allocated devices selected. 0 pods"
                + " would be evicted in 0 different namespaces if the effect was NoExecute. This"
                + " information will not be updated again. Recreate the DeviceTaintRule to trigger"
                + " an update.");
    assertThat(h.cluster.pod(NS, POD)).as("None never evicts").isNotNull();
  }
}
