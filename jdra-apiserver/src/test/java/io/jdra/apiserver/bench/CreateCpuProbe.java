package io.jdra.apiserver.bench;

import io.jdra.apiserver.ApiServerOptions;
import io.jdra.apiserver.EmbeddedApiServer;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.rest.WriteOptions;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU time per in-process create (thread CPU time, so it stays meaningful on a busy machine):
 * {@code java -cp ... io.jdra.apiserver.bench.CreateCpuProbe [rounds]}. Prints one line per round.
 */
public final class CreateCpuProbe {
  private CreateCpuProbe() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    int perRound = 20_000;
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long id = 0;
    for (int round = 0; round < rounds; round++) {
      try (EmbeddedApiServer s = EmbeddedApiServer.start(ApiServerOptions.inMemory())) {
        var service = s.service();
        ResourceType t =
            service.registry().find("resource.k8s.io", "v1", "resourceclaims").orElseThrow();
        long cpu0 = mx.getCurrentThreadCpuTime();
        for (int i = 0; i < perRound; i++) {
          byte[] body = CreateBench.claim(id++);
          service.create(t, "default", Json.parseObject(body), WriteOptions.DEFAULT).join();
        }
        long cpu = mx.getCurrentThreadCpuTime() - cpu0;
        System.out.printf("round %d: %.1f us CPU per create%n", round, cpu / 1e3 / perRound);
      }
    }
  }
}
