package io.jdra.inprocess;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.jdra.apiserver.EmbeddedApiServer;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The process's CPU per in-process request (all threads: the caller, the server's event loop that
 * answers, fabric8's scheduler, GC, JIT), with fabric8's timer per request ({@code fabric8}) and
 * with {@link RequestDeadlines} ({@code own}), interleaved in rounds in one JVM against one
 * embedded server. The request is a GET of a small ConfigMap from one thread, one at a time: the
 * cheapest for the server, so the per-request overhead of the client shows most.
 *
 * <pre>
 * java -cp $(cat cp.txt):target/classes:target/test-classes io.jdra.inprocess.RequestCpuProbe
 *     [requests per round, 5000] [rounds, 12]
 * </pre>
 */
public final class RequestCpuProbe {
  private RequestCpuProbe() {}

  public static void main(String[] args) {
    int perRound = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 12;
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    try (EmbeddedApiServer server = EmbeddedApiServer.startInMemory()) {
      KubernetesClient fabric8 = client(server, null);
      KubernetesClient own = client(server, RequestDeadlines.shared());
      own.configMaps()
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("probe")
                  .endMetadata()
                  .withData(Map.of("k", "v"))
                  .build())
          .create();
      List<KubernetesClient> modes = List.of(fabric8, own);
      for (int w = 0; w < 4; w++) {
        for (KubernetesClient c : modes) {
          gets(c, perRound);
        }
      }
      List<List<Double>> us = List.of(new ArrayList<>(), new ArrayList<>());
      for (int r = 0; r < rounds; r++) {
        for (int m = 0; m < 2; m++) {
          int mode = (r % 2 == 0) ? m : 1 - m; // ABBA: neither mode always runs first
          long cpu = os.getProcessCpuTime();
          gets(modes.get(mode), perRound);
          us.get(mode).add((os.getProcessCpuTime() - cpu) / 1000.0 / perRound);
        }
      }
      System.out.printf("fabric8 timers us/request: %s%n", summary(us.get(0)));
      System.out.printf("own deadlines  us/request: %s%n", summary(us.get(1)));
      fabric8.close();
      own.close();
    }
  }

  private static void gets(KubernetesClient c, int n) {
    for (int i = 0; i < n; i++) {
      if (c.configMaps().withName("probe").get() == null) {
        throw new IllegalStateException("the probe's ConfigMap is gone");
      }
    }
  }

  private static String summary(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    return String.format(
        "median %.2f, lowest %.2f, all %s",
        sorted.get(sorted.size() / 2),
        sorted.getFirst(),
        values.stream().map(v -> String.format("%.1f", v)).toList());
  }

  private static KubernetesClient client(EmbeddedApiServer server, RequestDeadlines deadlines) {
    ConfigBuilder b =
        new ConfigBuilder()
            .withMasterUrl(server.url().toString())
            .withNamespace("default")
            .withAutoConfigure(false);
    if (server.token() != null) {
      b.withOauthToken(server.token());
    }
    Config config = b.build();
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientFactory(new InProcessHttpClientFactory(server.inProcess()::send, deadlines))
        .build();
  }
}
