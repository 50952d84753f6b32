package io.jdra.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Checks the demo tests share: pods Running or gone, claims and namespaces released. */
final class Demos {
  static final Duration TIMEOUT = Duration.ofSeconds(60);
  static final Duration POLL = Duration.ofMillis(200);

  private Demos() {}

  /**
   * The dra-example-driver demos directory; skips the calling test class when kubectl or the
   * upstream examples are missing.
   */
  static Path examplesOrSkip() {
    assumeTrue(Paths.kubectl() != null, "kubectl not installed; skipping");
    Path ex = Paths.examples();
    assumeTrue(ex != null, "upstream examples absent; skipping");
    return ex.resolve("dra-example-driver/demo/examples");
  }

  /** The demo's manifest, {@code <ns>/<ns>.yaml}; skips as {@link #examplesOrSkip}. */
  static Path manifestOrSkip(String ns) {
    return examplesOrSkip().resolve(ns + "/" + ns + ".yaml");
  }

  /** {@code kubectl apply -f manifest}, as the demo's README says. */
  static void apply(JdraUpProcess up, Path manifest) throws Exception {
    up.kubectl().run("apply", "-f", manifest.toString()).ok();
  }

  /** Waits until {@code kubectl logs} of the pod shows {@code text}. */
  static void awaitLogLine(JdraUpProcess up, String ns, String pod, String text) {
    await()
        .atMost(TIMEOUT)
        .pollInterval(POLL)
        .untilAsserted(() -> {
          Kubectl.Result r = up.kubectl().run("logs", "-n", ns, pod);
          assertThat(r.out()).as(ns + "/" + pod + " logs; " + r.err()).contains(text);
        });
  }

  /** Deletes the manifest and waits until its namespace and claims are gone. */
  static void deleteAndAwaitGone(JdraUpProcess up, String ns, Path manifest) throws Exception {
    up.kubectl().run("delete", "-f", manifest.toString(), "--wait=true", "--ignore-not-found").ok();
    awaitNamespaceAndClaimsGone(up, ns);
  }

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
