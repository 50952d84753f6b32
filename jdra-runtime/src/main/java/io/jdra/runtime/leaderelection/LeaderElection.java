package io.jdra.runtime.leaderelection;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.logging.HandleError;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease ({@code --leader-elect}), with
 * fabric8's {@link LeaderElector} doing the lease protocol. Timings default to upstream's
 * component-base values: lease 15 s, renew deadline 10 s, retry 2 s.
 *
 * <p>{@link #run} blocks: it campaigns until elected, then runs {@code onStartedLeading} on its own
 * thread with a context that is cancelled when leadership is lost or {@code ctx} is cancelled. On
 * cancellation {@code onStoppedLeading} runs, then once {@code onStartedLeading} has returned the
 * lease is released (so a successor takes over at once, not after 15 s) and {@code run} returns.
 */
public final class LeaderElection {
  /** Where the lease lives, who we are, and the timings. */
  public record Config(
      String namespace,
      String leaseName,
      String identity,
      Duration leaseDuration,
      Duration renewDeadline,
      Duration retryPeriod) {
    public static final Duration DEFAULT_LEASE_DURATION = Duration.ofSeconds(15);
    public static final Duration DEFAULT_RENEW_DEADLINE = Duration.ofSeconds(10);
    public static final Duration DEFAULT_RETRY_PERIOD = Duration.ofSeconds(2);

    public Config {
      if (leaseDuration.compareTo(renewDeadline) <= 0) {
        throw new IllegalArgumentException(
            "leaseDuration (" + leaseDuration + ") must be greater than renewDeadline");
      }
      if (renewDeadline.compareTo(retryPeriod) <= 0) {
        throw new IllegalArgumentException(
            "renewDeadline (" + renewDeadline + ") must be greater than retryPeriod");
      }
    }

    /**
     * Upstream timings for the lease {@code namespace/leaseName} (kube-controller-manager uses
     * {@code kube-system/kube-controller-manager}).
     */
    public static Config defaults(String namespace, String leaseName) {
      return new Config(
          namespace,
          leaseName,
          defaultIdentity(),
          DEFAULT_LEASE_DURATION,
          DEFAULT_RENEW_DEADLINE,
          DEFAULT_RETRY_PERIOD);
    }

    public Config withIdentity(String id) {
      return new Config(namespace, leaseName, id, leaseDuration, renewDeadline, retryPeriod);
    }
  }

  private final KubernetesClient client;
  private final Config config;

  public LeaderElection(KubernetesClient client, Config config) {
    this.client = client;
    this.config = config;
  }

  /** Upstream's identity: host name, underscore, a random UUID. */
  public static String defaultIdentity() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "localhost";
    }
    return host + "_" + UUID.randomUUID();
  }

  /** Campaigns and leads until {@code ctx} is cancelled or leadership is lost (see class doc). */
  public void run(Ctx ctx, Consumer<Ctx> onStartedLeading, Runnable onStoppedLeading) {
    Ctx leaderCtx = ctx.withCancel();
    CompletableFuture<Thread> leader = new CompletableFuture<>();
    var log = ctx.logger().withValues("lease", config.namespace() + "/" + config.leaseName());
    LeaderCallbacks callbacks =
        new LeaderCallbacks(
            () -> {
              log.info("Successfully acquired lease", "identity", config.identity());
              leader.complete(
                  Thread.ofVirtual()
                      .name("leader-" + config.leaseName())
                      .start(() -> lead(leaderCtx, onStartedLeading)));
            },
            () -> {
              log.info("Stopped leading", "identity", config.identity());
              leaderCtx.cancel();
              onStoppedLeading.run();
            },
            newLeader -> log.v(2).info("New leader elected", "identity", newLeader));
    LeaderElector elector =
        client
            .leaderElector()
            .withConfig(
                new LeaderElectionConfigBuilder()
                    .withName(config.leaseName())
                    .withLock(
                        new LeaseLock(config.namespace(), config.leaseName(), config.identity()))
                    .withLeaseDuration(config.leaseDuration())
                    .withRenewDeadline(config.renewDeadline())
                    .withRetryPeriod(config.retryPeriod())
                    .withReleaseOnCancel(false)
                    .withLeaderCallbacks(callbacks)
                    .build())
            .build();
    log.info("Attempting to acquire leader lease", "identity", config.identity());
    CompletableFuture<?> running = elector.start();
    try (Ctx.Registration r = ctx.onCancel(() -> running.cancel(true))) {
      running.get();
    } catch (CancellationException e) {
      // ctx cancelled: fabric8 released the lease
    } catch (ExecutionException e) {
      HandleError.handle(log, e.getCause(), "Leader election failed");
    } catch (InterruptedException e) {
      running.cancel(true);
      Thread.currentThread().interrupt();
    } finally {
      leaderCtx.cancel();
      joinLeader(leader);
      // Released only after the leader's work returned, so a successor never overlaps with it;
      // fabric8's own release-on-cancel runs asynchronously and could race with that work.
      if (ctx.isCancelled() && elector.release()) {
        log.info("Released lease", "identity", config.identity());
      }
    }
  }

  private static void lead(Ctx leaderCtx, Consumer<Ctx> onStartedLeading) {
    try {
      onStartedLeading.accept(leaderCtx);
    } catch (RuntimeException e) {
      HandleError.handle(leaderCtx, e, "Leader work failed");
    }
  }

  private static void joinLeader(CompletableFuture<Thread> leader) {
    Thread t = leader.getNow(null);
    if (t == null) {
      return;
    }
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
