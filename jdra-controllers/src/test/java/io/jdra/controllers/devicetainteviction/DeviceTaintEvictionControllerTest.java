package io.jdra.controllers.devicetainteviction;

import static io.jdra.controllers.devicetainteviction.Fixtures.*;
import static io.jdra.controllers.devicetainteviction.Harness.add;
import static io.jdra.controllers.devicetainteviction.Harness.remove;
import static io.jdra.controllers.devicetainteviction.Harness.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.jdra.controllers.devicetainteviction.Harness.Ev;
import io.jdra.testing.objects.Make;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The controller's event handlers and workers, as upstream's {@code TestController}: each case
 * feeds informer events, checks which pods are to be evicted when, then processes work and moves
 * the fake clock step by step, checking deletions, the rule's condition and the pod events.
 */
class DeviceTaintEvictionControllerTest {
  static final String MY_POD = NS + "/" + POD;
  static final String MARKING = MY_POD + " Marking for deletion";
  static final String CANCELLING = MY_POD + " Cancelling deletion";
  static final String T0 = TAINT_TIME.toString();

  /**
   * After advancing by {@code advance} and processing: the pods deleted so far and the rule's
   * condition ("status reason message"; null: do not check).
   */
  record Step(Duration advance, List<String> deleted, String rule) {}

  record Case(
      String name,
      List<Ev> events,
      boolean extendedResources,
      Map<String, String> deletePodAt,
      List<Step> steps,
      List<String> events2) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case c(
      String name,
      List<Ev> events,
      Map<String, String> deletePodAt,
      List<Step> steps,
      List<String> wantEvents) {
    return new Case(name, events, true, deletePodAt, steps, wantEvents);
  }

  static Step now(List<String> deleted, String rule) {
    return new Step(Duration.ZERO, deleted, rule);
  }

  static final String NONE_MESSAGE =
      "False NoEffect 3 published devices selected. 1 allocated device selected. 1 pod would be"
          + " evicted in 1 namespace if the effect was NoExecute. This information will not be"
          + " updated again. Recreate the DeviceTaintRule to trigger an update.";

  static final Pod OTHER_POD_NEW_UID =
      Make.pod("other-pod").namespace(NS).uid("uid-new").nodeName(NODE).obj();

  /** Shared claim whose first reservation is stale: the pod is gone (upstream #135686). */
  static final ResourceClaim SHARED_CLAIM_GHOST_FIRST =
      Make.claim(CLAIM)
          .namespace(NS)
          .uid("claim-shared")
          .request("my-class")
          .allocatedOn(NODE, DRIVER, "instance")
          .reservedForPod("ghost", "uid-ghost")
          .reservedForPod(POD, POD_UID)
          .obj();

  /** Shared claim whose first reservation names a pod that was re-created with another UID. */
  static final ResourceClaim SHARED_CLAIM_OTHER_UID_FIRST =
      Make.claim(CLAIM)
          .namespace(NS)
          .uid("claim-shared")
          .request("my-class")
          .allocatedOn(NODE, DRIVER, "instance")
          .reservedForPod("other-pod", "uid-old")
          .reservedForPod(POD, POD_UID)
          .obj();

  static final Pod POD_TERMINATING =
      new PodBuilder(POD_WITH_CLAIM)
          .editMetadata()
          .withDeletionTimestamp("2026-01-01T00:00:00Z")
          .endMetadata()
          .build();

  static final String OTHER_NS = NS + "-other";
  static final Pod POD_OTHER_NS = pod(OTHER_NS, POD, "uid-2");
  static final ResourceClaim CLAIM_OTHER_NS = claim(OTHER_NS, CLAIM, POD, "uid-2");

  static Stream<Case> cases() {
    String inOneHour = TAINT_TIME.plus(TOLERATION).toString();
    return Stream.of(
        c("empty", List.of(), Map.of(), List.of(now(List.of(), null)), List.of()),
        c(
            "untainted-claim",
            List.of(add(SLICE), add(IN_USE_CLAIM), add(POD_WITH_CLAIM)),
            Map.of(),
            List.of(now(List.of(), null)),
            List.of()),
        c(
            "evict-pod-resourceslice",
            List.of(add(SLICE_TAINTED), add(IN_USE_CLAIM), add(POD_WITH_CLAIM)),
            Map.of(MY_POD, T0),
            List.of(now(List.of(MY_POD), null)),
            List.of(MARKING)),
        c(
            "no-schedule-does-not-evict",
            List.of(add(SLICE_TAINTED_NO_SCHEDULE), add(IN_USE_CLAIM), add(POD_WITH_CLAIM)),
            Map.of(),
            List.of(now(List.of(), null)),
            List.of()),
        c(
            "none-does-not-evict",
            List.of(add(SLICE_TAINTED_NONE), add(IN_USE_CLAIM), add(POD_WITH_CLAIM)),
            Map.of(),
            List.of(now(List.of(), null)),
            List.of()),
        c(
            "unscheduled-pod-stays",
            List.of(add(SLICE_TAINTED), add(IN_USE_CLAIM), add(POD_UNSCHEDULED)),
            Map.of(),
            List.of(now(List.of(), null)),
            List.of()),
        c(
            "tolerated-forever",
            List.of(add(SLICE_TAINTED), add(IN_USE_CLAIM_TOLERATING_FOREVER), add(POD_WITH_CLAIM)),
            Map.of(),
            List.of(now(List.of(), null)),
            List.of()),
        c(
            "toleration-expires",
            List.of(add(SLICE_TAINTED), add(IN_USE_CLAIM_TOLERATING), add(POD_WITH_CLAIM)),
            Map.of(MY_POD, inOneHour),
            List.of(
                now(List.of(), null),
                new Step(TOLERATION.minusSeconds(1), List.of(), null),
                new Step(Duration.ofSeconds(1), List.of(MY_POD), null)),
            List.of(MARKING)),
        c(
            "taint-removed-cancels",
            List.of(
                add(SLICE_TAINTED),
                add(IN_USE_CLAIM_TOLERATING),
                add(POD_WITH_CLAIM),
                update(SLICE_TAINTED, SLICE)),
            Map.of(),
            List.of(now(List.of(), null), new Step(TOLERATION, List.of(), null)),
            List.of(CANCELLING)),
        c(
            "slice-removed-cancels",
            List.of(
                add(SLICE_TAINTED),
                add(IN_USE_CLAIM_TOLERATING),
                add(POD_WITH_CLAIM),
                remove(SLICE_TAINTED)),
            Map.of(),
            List.of(new Step(TOLERATION, List.of(), null)),
            List.of(CANCELLING)),
        c(
            "rule-removed-cancels",
            List.of(
                add(IN_USE_CLAIM_TOLERATING),
                add(POD_WITH_CLAIM),
                add(RULE_EVICT),
                remove(RULE_EVICT)),
            Map.of(),
            List.of(new Step(TOLERATION, List.of(), null)),
            List.of(CANCELLING)),
        c(
            "only-newest-generation-counts",
            List.of(
                add(SLICE_TAINTED),
                add(SLICE_NEXT_GENERATION),
                add(IN_USE_CLAIM),
                add(POD_WITH_CLAIM)),
            Map.of(),
            List.of(now(List.of(), null)),
            List.of()),
        c(
            "shared-claim-first-reservation-pod-missing",
            List.of(add(SHARED_CLAIM_GHOST_FIRST), add(POD_WITH_CLAIM), add(SLICE_TAINTED)),
            Map.of(MY_POD, T0),
            List.of(now(List.of(MY_POD), null)),
            List.of(MARKING)),
        c(
            "shared-claim-first-reservation-other-uid",
            List.of(
                add(OTHER_POD_NEW_UID),
                add(SHARED_CLAIM_OTHER_UID_FIRST),
                add(POD_WITH_CLAIM),
                add(SLICE_TAINTED)),
            Map.of(MY_POD, T0),
            List.of(now(List.of(MY_POD), null)),
            List.of(MARKING)),
        c(
            "extended-resource-claim",
            List.of(add(SLICE_TAINTED), add(IN_USE_CLAIM), add(POD_EXTENDED)),
            Map.of(MY_POD, T0),
            List.of(now(List.of(MY_POD), null)),
            List.of(MARKING)),
        new Case(
            "extended-resource-claim-gate-off",
            List.of(add(SLICE_TAINTED), add(IN_USE_CLAIM), add(POD_EXTENDED)),
            false,
            Map.of(),
            List.of(now(List.of(), null)),
            List.of()),
        c(
            "rule-taints-device-of-deleted-slice",
            List.of(
                add(SLICE),
                add(IN_USE_CLAIM_TOLERATING),
                add(POD_WITH_CLAIM),
                remove(SLICE),
                add(RULE_EVICT)),
            Map.of(MY_POD, inOneHour),
            List.of(
                now(
                    List.of(),
                    "True PodsPendingEviction 1 pod needs to be evicted in 1 namespace."),
                new Step(TOLERATION, List.of(MY_POD), null)),
            List.of(MARKING)),
        c(
            "rule-status-not-started",
            List.of(add(RULE_EVICT)),
            Map.of(),
            List.of(now(List.of(), "False NotStarted ")),
            List.of()),
        c(
            "evict-pod-rule",
            List.of(add(IN_USE_CLAIM), add(POD_WITH_CLAIM), add(RULE_EVICT)),
            Map.of(MY_POD, T0),
            List.of(
                now(
                    List.of(MY_POD),
                    "True PodsPendingEviction 1 pod needs to be evicted in 1 namespace."),
                new Step(
                    RuleConditions.STATUS_PERIOD,
                    List.of(MY_POD),
                    "False Completed 1 pod evicted since starting the controller.")),
            List.of(MARKING)),
        c(
            "evict-pod-rule-later",
            List.of(add(IN_USE_CLAIM_TOLERATING), add(POD_WITH_CLAIM), add(RULE_EVICT)),
            Map.of(MY_POD, inOneHour),
            List.of(
                now(
                    List.of(),
                    "True PodsPendingEviction 1 pod needs to be evicted in 1 namespace."),
                // Deleted; the condition follows only after the status period.
                new Step(
                    TOLERATION,
                    List.of(MY_POD),
                    "True PodsPendingEviction 1 pod needs to be evicted in 1 namespace."),
                new Step(
                    RuleConditions.STATUS_PERIOD,
                    List.of(MY_POD),
                    "False Completed 1 pod evicted since starting the controller.")),
            List.of(MARKING)),
        c(
            "evict-many-pods-many-namespaces",
            List.of(
                add(IN_USE_CLAIM),
                add(POD_WITH_CLAIM),
                add(CLAIM_OTHER_NS),
                add(POD_OTHER_NS),
                add(RULE_EVICT)),
            Map.of(MY_POD, T0, OTHER_NS + "/" + POD, T0),
            List.of(
                now(
                    List.of(MY_POD, OTHER_NS + "/" + POD),
                    "True PodsPendingEviction 2 pods need to be evicted in 2 different namespaces."),
                new Step(
                    RuleConditions.STATUS_PERIOD,
                    List.of(MY_POD, OTHER_NS + "/" + POD),
                    "False Completed 2 pods evicted since starting the controller.")),
            List.of(MARKING, OTHER_NS + "/" + POD + " Marking for deletion")),
        c(
            "none-effect-simulates-no-execute",
            List.of(add(SLICE), add(IN_USE_CLAIM), add(POD_WITH_CLAIM), add(RULE_NONE)),
            Map.of(),
            List.of(
                now(List.of(), NONE_MESSAGE),
                new Step(Duration.ofHours(1), List.of(), NONE_MESSAGE)),
            List.of()),
        c(
            "terminating-pod-is-left-alone",
            List.of(add(SLICE_TAINTED), add(IN_USE_CLAIM), add(POD_TERMINATING)),
            Map.of(MY_POD, T0),
            List.of(now(List.of(), null)),
            List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void controller(Case tc) {
    Harness h = new Harness(tc.extendedResources());
    h.feed(tc.events());
    assertThat(h.deletePodAt()).as("deletePodAt after events").isEqualTo(tc.deletePodAt());
    for (Step step : tc.steps()) {
      h.advance(step.advance());
      assertThat(h.cluster.deleted.stream().map(Object::toString).toList())
          .as("deleted pods after %s", step.advance())
          .containsExactlyInAnyOrderElementsOf(step.deleted());
      if (step.rule() != null) {
        assertThat(h.ruleCondition(RULE_EVICT.getMetadata().getName()))
            .as("rule condition after %s", step.advance())
            .isEqualTo(step.rule());
      }
    }
    assertThat(h.events).as("events").containsExactlyInAnyOrderElementsOf(tc.events2());
    assertThat(h.queue.state().failures()).as("failed work items").isEmpty();
  }

  /**
   * Informers deliver events of different objects in any order: the same add events in every order
   * must lead to the same decisions (upstream's permutation test).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void sameStateInEveryOrder(Case tc) {
    if (tc.events().stream().anyMatch(e -> e.oldObj() != null) || tc.events().size() < 2) {
      return; // Updates and removals depend on their add.
    }
    Harness first = new Harness(tc.extendedResources());
    first.feed(tc.events());
    Object want = first.snapshot();
    for (List<Ev> order : permutations(tc.events())) {
      Harness h = new Harness(tc.extendedResources());
      h.feed(order);
      assertThat(h.snapshot()).as("state after %s", order).isEqualTo(want);
      assertThat(h.deletePodAt()).as("deletePodAt after %s", order).isEqualTo(tc.deletePodAt());
    }
  }

  static <T> List<List<T>> permutations(List<T> items) {
    if (items.size() <= 1) {
      return List.of(items);
    }
    List<List<T>> out = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      List<T> rest = new ArrayList<>(items);
      T head = rest.remove(i);
      for (List<T> p : permutations(rest)) {
        List<T> l = new ArrayList<>();
        l.add(head);
        l.addAll(p);
        out.add(l);
      }
    }
    return out;
  }

  static ResourceClaim copy(ResourceClaim c) {
    return new ResourceClaimBuilder(c).build();
  }
}
