package io.jdra.cli.up;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * When {@code jdra up} is ready, read through the API as a user would see it: every node Ready and
 * every driver's ResourceSlices published for every node.
 */
public final class Readiness {
  private static final Duration POLL = Duration.ofMillis(100);

  private Readiness() {}

  /**
   * Waits until ready.
   *
   * @throws IllegalStateException after {@code timeout}, saying what is still missing
   */
  public static void await(LocalCluster cluster, UpOptions o, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<String> missing = missing(cluster.admin(), o);
    while (!missing.isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "not ready after "
                + timeout.toSeconds()
                + " s; still waiting for: "
                + summary(missing));
      }
      Thread.sleep(POLL.toMillis());
      missing = missing(cluster.admin(), o);
    }
  }

  /** What is not ready yet, one entry per node or node/driver. */
  static List<String> missing(KubernetesClient client, UpOptions o) {
    Set<String> ready = new HashSet<>();
    for (Node n : client.nodes().list().getItems()) {
      if (isReady(n)) {
        ready.add(n.getMetadata().getName());
      }
    }
    Set<String> published = new HashSet<>();
    for (ResourceSlice s :
        client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems()) {
      published.add(s.getSpec().getNodeName() + "/" + s.getSpec().getDriver());
    }
    List<String> missing = new ArrayList<>();
    for (int i = 1; i <= o.nodes(); i++) {
      String node = UpOptions.nodeName(i);
      if (!ready.contains(node)) {
        missing.add("node " + node + " Ready");
      }
      for (String p : o.profiles()) {
        String key = node + "/" + UpOptions.driverName(p);
        if (!published.contains(key)) {
          missing.add("ResourceSlices of " + key);
        }
      }
    }
    return missing;
  }

  private static boolean isReady(Node n) {
    if (n.getStatus() == null || n.getStatus().getConditions() == null) {
      return false;
    }
    for (NodeCondition c : n.getStatus().getConditions()) {
      if ("Ready".equals(c.getType()) && "True".equals(c.getStatus())) {
        return true;
      }
    }
    return false;
  }

  private static String summary(List<String> missing) {
    int shown = Math.min(5, missing.size());
    String s = String.join(", ", missing.subList(0, shown));
    return missing.size() > shown ? s + " and " + (missing.size() - shown) + " more" : s;
  }
}
