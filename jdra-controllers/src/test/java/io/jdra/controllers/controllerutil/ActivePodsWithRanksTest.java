package io.jdra.controllers.controllerutil;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The scale-down order: upstream's criteria in order, and a total order (Java's sort rejects an
 * intransitive comparator, which upstream's bucket-then-UID tie-break was for 100 pods in a rolling
 * update).
 */
class ActivePodsWithRanksTest {
  static final Instant NOW = Instant.parse("2026-01-01T01:00:00Z");

  static Pod pod(
      String name,
      String node,
      String phase,
      boolean ready,
      long readySecondsAgo,
      int cost,
      int restarts,
      long createdSecondsAgo) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withUid("uid-" + name)
        .withCreationTimestamp(NOW.minusSeconds(createdSecondsAgo).toString())
        .addToAnnotations(PodUtil.POD_DELETION_COST, String.valueOf(cost))
        .endMetadata()
        .withNewSpec()
        .withNodeName(node)
        .endSpec()
        .withNewStatus()
        .withPhase(phase)
        .addNewCondition()
        .withType("Ready")
        .withStatus(ready ? "True" : "False")
        .withLastTransitionTime(NOW.minusSeconds(readySecondsAgo).toString())
        .endCondition()
        .addNewContainerStatus()
        .withName("c")
        .withRestartCount(restarts)
        .endContainerStatus()
        .endStatus()
        .build();
  }

  @Test
  void upstreamCriteriaInOrder() {
    List<Pod> pods =
        List.of(
            pod("running-ready-old", "n", "Running", true, 3000, 0, 0, 3000),
            pod("running-ready-new", "n", "Running", true, 10, 0, 0, 10),
            pod("running-notready", "n", "Running", false, 10, 0, 0, 10),
            pod("pending", "n", "Pending", false, 10, 0, 0, 10),
            pod("unscheduled", null, "Pending", false, 10, 0, 0, 10),
            pod("cheap", "n", "Running", true, 3000, -10, 0, 3000),
            pod("restarted", "n", "Running", true, 3000, 0, 5, 3000));
    List<String> order =
        ActivePodsWithRanks.sortForDeletion(pods, List.of(), NOW).stream()
            .map(p -> p.getMetadata().getName())
            .toList();
    assertThat(order)
        .containsExactly(
            "unscheduled",
            "pending",
            "running-notready",
            "cheap",
            "running-ready-new",
            "restarted",
            "running-ready-old");
  }

  @Test
  void doubledUpPodsGoFirst() {
    Pod alone = pod("alone", "n1", "Running", true, 100, 0, 0, 100);
    Pod crowded = pod("crowded", "n2", "Running", true, 100, 0, 0, 100);
    Pod neighbour = pod("neighbour", "n2", "Running", true, 100, 0, 0, 100);
    List<Pod> sorted =
        ActivePodsWithRanks.sortForDeletion(
            List.of(alone, crowded), List.of(alone, crowded, neighbour), NOW);
    assertThat(sorted.get(0).getMetadata().getName()).isEqualTo("crowded");
  }

  @Test
  void theOrderIsTotalWhateverTheInputOrder() {
    Random random = new Random(42);
    List<Pod> pods = new ArrayList<>();
    String[] nodes = {null, "n1", "n2"};
    String[] phases = {"Pending", "Running", "Unknown"};
    for (int i = 0; i < 1000; i++) {
      pods.add(
          pod(
              "p" + i,
              nodes[random.nextInt(3)],
              phases[random.nextInt(3)],
              random.nextBoolean(),
              random.nextInt(4) * 100L + random.nextInt(3),
              random.nextInt(3),
              random.nextInt(2),
              random.nextInt(4) * 100L + random.nextInt(3)));
    }
    List<Pod> first = ActivePodsWithRanks.sortForDeletion(pods, pods, NOW);
    for (int round = 0; round < 20; round++) {
      Collections.shuffle(pods, random);
      assertThat(ActivePodsWithRanks.sortForDeletion(pods, pods, NOW)).isEqualTo(first);
      // The Job's order has ties (no UID criterion), but is transitive: sorted, never decreasing.
      List<Pod> jobOrder = ActivePodsWithRanks.sortActivePods(pods);
      for (int i = 1; i < jobOrder.size(); i++) {
        assertThat(
                ActivePodsWithRanks.compare(
                    jobOrder.get(i - 1), 0, jobOrder.get(i), 0, null, false))
            .isLessThanOrEqualTo(0);
      }
    }
  }
}
