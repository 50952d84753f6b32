package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** fabric8's leader election on coordination.k8s.io Leases: one leader, handover on release. */
class LeaderElectionTest {
  static ServerFixture f;

  @BeforeAll
  static void start() {
    f = new ServerFixture();
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  static LeaderElector elector(KubernetesClient c, String id, BlockingQueue<String> events) {
    return c.leaderElector()
        .withConfig(
            new LeaderElectionConfigBuilder()
                .withName("test")
                .withLock(new LeaseLock("default", "jdra-test", id))
                .withLeaseDuration(Duration.ofSeconds(2))
                .withRenewDeadline(Duration.ofMillis(1500))
                .withRetryPeriod(Duration.ofMillis(200))
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(
                    new LeaderCallbacks(
                        () -> events.add("start " + id),
                        () -> events.add("stop " + id),
                        leader -> events.add("leader " + leader)))
                .build())
        .build();
  }

  @Test
  void oneLeaderThenHandover() throws Exception {
    BlockingQueue<String> events = new LinkedBlockingQueue<>();
    try (KubernetesClient c2 = ServerFixture.client(f.server)) {
      CompletableFuture<?> a = elector(f.client, "a", events).start();
      String first;
      do {
        first = events.poll(20, TimeUnit.SECONDS);
      } while (first != null && !first.startsWith("start"));
      assertThat(first).isEqualTo("start a");
      CompletableFuture<?> b = elector(c2, "b", events).start();
      // While a holds the lease, b must stay a follower.
      await()
          .during(Duration.ofMillis(500))
          .atMost(Duration.ofSeconds(2))
          .until(() -> !events.contains("start b"));
      a.cancel(true);
      String next;
      do {
        next = events.poll(20, TimeUnit.SECONDS);
      } while (next != null && !next.equals("start b"));
      assertThat(next).isEqualTo("start b");
      b.cancel(true);
    }
  }
}
