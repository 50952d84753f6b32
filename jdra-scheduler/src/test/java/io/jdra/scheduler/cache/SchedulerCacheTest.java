package io.jdra.scheduler.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.testing.objects.Make;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Snapshots after pod changes are made from the last snapshot (only the changed nodes replaced);
 * they must be what a snapshot made anew gives: the nodes with a Node object, in the order they
 * were added, each with its pods.
 */
class SchedulerCacheTest {
  private static List<String> names(Snapshot s) {
    return s.nodes().stream().map(NodeInfo::name).toList();
  }

  private static List<String> pods(Snapshot s, String node) {
    return s.get(node).pods().stream().map(PodInfo::uid).toList();
  }

  @Test
  void podChangesReplaceOnlyTheirNodesAndKeepTheOrder() {
    SchedulerCache cache = new SchedulerCache();
    cache.addNode(Make.node("n2").obj());
    cache.addNode(Make.node("n1").obj());
    cache.addNode(Make.node("n3").obj());
    Snapshot first = cache.snapshot();
    assertThat(names(first)).containsExactly("n2", "n1", "n3");

    cache.assumePod(new PodInfo(Make.pod("a").uid("a").obj()), "n1");
    cache.addPod(Make.pod("b").uid("b").nodeName("n3").obj());
    Snapshot second = cache.snapshot();
    assertThat(names(second)).containsExactly("n2", "n1", "n3");
    assertThat(pods(second, "n1")).containsExactly("a");
    assertThat(pods(second, "n3")).containsExactly("b");
    assertThat(second.nodes().get(0)).isSameAs(first.nodes().get(0));
    assertThat(pods(first, "n1")).isEmpty(); // an earlier snapshot does not change

    cache.forgetPod(new PodInfo(Make.pod("a").uid("a").obj()));
    Snapshot third = cache.snapshot();
    assertThat(pods(third, "n1")).isEmpty();
    assertThat(pods(third, "n3")).containsExactly("b");
    assertThat(cache.snapshot()).isSameAs(third);
  }

  @Test
  void podsOfUnknownNodesStayOutUntilTheNodeComes() {
    SchedulerCache cache = new SchedulerCache();
    cache.addNode(Make.node("n1").obj());
    cache.snapshot();
    cache.addPod(Make.pod("a").uid("a").nodeName("later").obj());
    assertThat(names(cache.snapshot())).containsExactly("n1");

    cache.addNode(Make.node("later").obj());
    Snapshot s = cache.snapshot();
    assertThat(names(s)).containsExactly("n1", "later");
    assertThat(pods(s, "later")).containsExactly("a");

    cache.removeNode(Make.node("n1").obj());
    cache.addPod(Make.pod("b").uid("b").nodeName("later").obj());
    s = cache.snapshot();
    assertThat(names(s)).containsExactly("later");
    assertThat(pods(s, "later")).containsExactly("a", "b");
  }
}
