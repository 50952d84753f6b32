package io.jdra.scheduler.plugins.noderesources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.testing.objects.Make;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Fit's fast path (the free amounts NodeInfo keeps) against its reasons worked out from the node's
 * allocatable, requested and pods, on random nodes whose pods come and go and whose Node changes.
 */
class FitFastPathTest {
  private static final Ctx CTX = Ctx.forTest(new FakeClock());
  private final Random random = new Random(42);
  private int uids;

  @Test
  void fastPathAgreesWithTheReasonsOnRandomNodesAndPods() {
    Fit fit = new Fit(name -> false);
    int fastFits = 0;
    int rejected = 0;
    for (int n = 0; n < 300; n++) {
      NodeInfo node = NodeInfo.of(node());
      List<String> onNode = new ArrayList<>();
      for (int step = 0; step < 30; step++) {
        node = change(node, onNode);
        assertThat(node.freePods())
            .isEqualTo(node.allocatable().allowedPodNumber() - node.pods().size());
        for (int k = 0; k < 3; k++) {
          PodInfo pod = new PodInfo(pod(random.nextInt(8) == 0));
          boolean fast = Fit.fitsWithoutScalars(pod.request(), node);
          List<String> reasons = fit.insufficient(pod.request(), node);
          if (pod.request().scalar().isEmpty()) {
            assertThat(fast).as("node %s pod %s", node.name(), pod).isEqualTo(reasons.isEmpty());
          } else {
            assertThat(fast).isFalse();
          }
          assertThat(fit.filter(CTX, new CycleState(), pod, node) == null)
              .isEqualTo(reasons.isEmpty());
          fastFits += fast ? 1 : 0;
          rejected += reasons.isEmpty() ? 0 : 1;
        }
      }
    }
    // Both outcomes are exercised.
    assertThat(fastFits).isGreaterThan(1000);
    assertThat(rejected).isGreaterThan(1000);
  }

  private NodeInfo change(NodeInfo node, List<String> onNode) {
    int what = random.nextInt(10);
    if (what < 5) {
      Pod p = pod(false);
      onNode.add(p.getMetadata().getUid());
      return node.withPod(new PodInfo(p), uids);
    }
    if (what < 8 && !onNode.isEmpty()) {
      return node.withoutPod(onNode.remove(random.nextInt(onNode.size())), uids);
    }
    return node.withNode(node(), uids);
  }

  private Node node() {
    Map<String, Quantity> alloc = new HashMap<>();
    alloc.put("cpu", new Quantity(random.nextInt(9) + "" + (random.nextBoolean() ? "" : "500m")));
    alloc.put("memory", new Quantity(random.nextInt(9) + "Gi"));
    alloc.put("pods", new Quantity(Integer.toString(random.nextInt(12))));
    if (random.nextBoolean()) {
      alloc.put("ephemeral-storage", new Quantity(random.nextInt(9) + "Gi"));
    }
    if (random.nextInt(4) == 0) {
      alloc.put("example.com/foo", new Quantity(Integer.toString(random.nextInt(3))));
    }
    return new NodeBuilder(Make.node("n").obj())
        .withNewStatus()
        .withAllocatable(alloc)
        .endStatus()
        .build();
  }

  private Pod pod(boolean scalar) {
    Map<String, Quantity> req = new HashMap<>();
    if (random.nextInt(4) > 0) {
      req.put("cpu", new Quantity((random.nextInt(2000) + 1) + "m"));
    }
    if (random.nextInt(4) > 0) {
      req.put("memory", new Quantity((random.nextInt(2048) + 1) + "Mi"));
    }
    if (random.nextInt(3) == 0) {
      req.put("ephemeral-storage", new Quantity((random.nextInt(2048) + 1) + "Mi"));
    }
    if (scalar) {
      req.put("example.com/foo", new Quantity(Integer.toString(random.nextInt(3))));
    }
    String uid = "u" + ++uids;
    return new PodBuilder(Make.pod(uid).namespace("ns").uid(uid).obj())
        .editSpec()
        .withContainers(
            new ContainerBuilder()
                .withName("c")
                .withNewResources()
                .withRequests(req)
                .endResources()
                .build())
        .endSpec()
        .build();
  }
}
