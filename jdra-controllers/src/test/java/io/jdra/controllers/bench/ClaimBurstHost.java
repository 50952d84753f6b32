package io.jdra.controllers.bench;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.apiserver.ApiServerOptions;
import io.jdra.apiserver.EmbeddedApiServer;
import io.jdra.controllers.manager.ControllerManager;
import io.jdra.controllers.manager.ControllerManagerOptions;
import io.jdra.inprocess.InProcessClients;
import io.jdra.inprocess.InProcessHttpClientFactory;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.client.ClientOptions;
import io.jdra.runtime.client.Clients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The API server and the ResourceClaim controller in one process, as {@code jdra up} runs them: the
 * controller's client reaches the server in memory (jdra-inprocess), while other processes (the
 * load generator, kubectl) use HTTPS with the kubeconfig written to {@code --kubeconfig F}. Used by
 * {@code scripts/bench-resourceclaim --in-process}. Prints {@code ready} once the controller has
 * synced; stops on SIGTERM.
 *
 * <p>With {@code --generate} the load generator ({@link ClaimBurst#bench}) runs in this process
 * too, on its own in-process client (the kubeconfig's user), and the process ends after its bursts:
 * the whole benchmark in one JVM, as upstream's scheduler_perf and integration benchmarks run the
 * API server, the controllers and the workload in one test process. Requests and answers are the
 * same REST calls as over HTTPS; only the socket, HTTP encoding and TLS are gone. Used by {@code
 * scripts/bench-resourceclaim --one-process}.
 *
 * <p>Options: {@code --kubeconfig F [--concurrent-resource-claim-syncs N] [--generate [ClaimBurst's
 * --pods, --threads, --warmup, --rounds]]}; the controller's client is unthrottled, as {@code
 * --kube-api-qps -1}.
 */
public final class ClaimBurstHost {
  private ClaimBurstHost() {}

  public static void main(String[] args) throws Exception {
    Path kubeconfig = Path.of(ClaimBurst.arg(args, "--kubeconfig", null));
    int syncs =
        Integer.parseInt(
            ClaimBurst.arg(
                args,
                "--concurrent-resource-claim-syncs",
                "" + ControllerManagerOptions.DEFAULT_CONCURRENT_RESOURCE_CLAIM_SYNCS));
    EmbeddedApiServer server =
        EmbeddedApiServer.start(
            ApiServerOptions.inMemory().withPort(0).withSecurity(true).withKubeconfig(kubeconfig));
    Ctx ctx = Ctx.background("claim-burst-host");
    KubernetesClient client =
        Clients.create(
            ClientOptions.forComponent("kube-controller-manager", -1, 0)
                .withKubeconfig(kubeconfig.toString()),
            new InProcessHttpClientFactory(server.inProcess()));
    ControllerManager.Handle cm =
        ControllerManager.start(
            ctx.withName("controller-manager"),
            client,
            ControllerManagerOptions.defaults()
                .withControllers(List.of("resourceclaim-controller"))
                .withConcurrentResourceClaimSyncs(syncs));
    cm.synced().get(2, TimeUnit.MINUTES);
    System.out.println("API server listening on " + server.url() + "; controller in process");
    System.out.println("ready");
    System.out.flush();
    if (List.of(args).contains("--generate")) {
      try (KubernetesClient generator =
          InProcessClients.create(
              server,
              Config.fromKubeconfig(Files.readString(kubeconfig)),
              Clients.sharedSerialization())) {
        ClaimBurst.bench(generator, args, ClaimBurst.Part.oneProcess());
      } finally {
        cm.stop();
        client.close();
        server.close();
      }
      return;
    }
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> {
              try {
                cm.stop();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              client.close();
              server.close();
              stop.countDown();
            }));
    stop.await();
  }
}
