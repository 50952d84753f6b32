package io.jdra.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.time.Duration;
import java.util.List;

/** Checks the demo tests share: pods Running or gone, claims and namespaces released. */
final class Demos {
  static final Duration TIMEOUT = Duration.ofSeconds(60);
  static final Duration POLL = Duration.ofMillis(200);

  private Demos() {}

  static List<ResourceClaim> claims(JdraUpProcess up, String ns) throws Exception {
    return up.client()
        .dynamicResourceAllocation()
        .v1()
        .resourceClaims()
        .inNamespace(ns)
        .list()
        .getItems();
  }

  /** Waits until every pod is Running; the failure shows the end of jdra up's log. */
  static void awaitRunning(JdraUpProcess up, String ns, String... pods) {
    await()
        .atMost(TIMEOUT)
        .pollInterval(POLL)
        .untilAsserted(() -> {
          for (String name : pods) {
            Pod p = up.client().pods().inNamespace(ns).withName(name).get();
            assertThat(p).as(ns + "/" + name).isNotNull();
            assertThat(p.getStatus().getPhase())
                .as(ns + "/" + name + " phase; jdra up log:\n" + up.logTail())
                .isEqualTo("Running");
          }
        });
  }

  static void awaitPodGone(JdraUpProcess up, String ns, String pod) {
    await()
        .atMost(TIMEOUT)
        .pollInterval(POLL)
        .untilAsserted(() ->
            assertThat(up.client().pods().inNamespace(ns).withName(pod).get())
                .as(ns + "/" + pod)
                .isNull());
  }

  /** Waits until the namespace and every claim in it are gone. */
  static void awaitNamespaceAndClaimsGone(JdraUpProcess up, String ns) {
    await()
        .atMost(TIMEOUT)
        .pollInterval(POLL)
        .untilAsserted(() -> {
          assertThat(claims(up, ns)).as("claims of " + ns).isEmpty();
          assertThat(up.client().namespaces().withName(ns).get()).as("namespace " + ns).isNull();
        });
  }
}
