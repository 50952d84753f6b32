package io.jdra.runtime.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.Clock;
import io.jdra.testing.apiserver.WithApiServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Two candidates for one Lease on the embedded API server. */
@WithApiServer
class LeaderElectionTest {
  private static String holder(KubernetesClient client) {
    Lease l = client.leases().inNamespace("kube-system").withName("jdra-test-lease").get();
    return l == null ? null : l.getSpec().getHolderIdentity();
  }

  @Test
  void oneLeadsReleasesOnCancelAndTheOtherTakesOver(KubernetesClient client) throws Exception {
    List<String> log = new CopyOnWriteArrayList<>();
    Ctx root = Ctx.forTest(Clock.system());
    Ctx ctxA = root.withCancel();
    Ctx ctxB = root.withCancel();
    LeaderElection.Config base = LeaderElection.Config.defaults("kube-system", "jdra-test-lease");
    Thread a = candidate(client, base.withIdentity("a"), ctxA, log);
    await().atMost(Duration.ofSeconds(20)).until(() -> log.contains("a started"));
    assertThat(holder(client)).isEqualTo("a");

    Thread b = candidate(client, base.withIdentity("b"), ctxB, log);
    ctxA.cancel();
    a.join();
    assertThat(log).contains("a leader ctx cancelled", "a stopped");

    await().atMost(Duration.ofSeconds(20)).until(() -> log.contains("b started"));
    assertThat(holder(client)).isEqualTo("b");
    ctxB.cancel();
    b.join();
    Lease released = client.leases().inNamespace("kube-system").withName("jdra-test-lease").get();
    assertThat(released.getSpec().getLeaseDurationSeconds())
        .as("released on cancel: %s", released.getSpec())
        .isEqualTo(1);
  }

  @Test
  void upstreamTimingsAndInvalidOnesRefused() {
    LeaderElection.Config c = LeaderElection.Config.defaults("kube-system", "x");
    assertThat(c.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
    assertThat(c.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
    assertThat(c.retryPeriod()).isEqualTo(Duration.ofSeconds(2));
    assertThat(c.identity()).contains("_");
    assertThatThrownBy(() ->
            new LeaderElection.Config(
                "ns",
                "x",
                "id",
                Duration.ofSeconds(5),
                Duration.ofSeconds(10),
                Duration.ofSeconds(2)))
        .hasMessageContaining("must be greater than renewDeadline");
  }

  private static Thread candidate(
      KubernetesClient client, LeaderElection.Config config, Ctx ctx, List<String> log) {
    String id = config.identity();
    return Thread.ofPlatform()
        .start(() ->
            new LeaderElection(client, config)
                .run(
                    ctx,
                    leaderCtx -> {
                      log.add(id + " started");
                      leaderCtx.done().join();
                      log.add(id + " leader ctx cancelled");
                    },
                    () -> log.add(id + " stopped")));
  }
}
