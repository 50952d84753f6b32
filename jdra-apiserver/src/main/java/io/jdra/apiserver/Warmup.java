package io.jdra.apiserver;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.rest.ObjectService;
import io.jdra.apiserver.rest.WriteOptions;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs dry-run writes of the DRA kinds in the background once the server is up, so that the first
 * real write does not pay for loading validation, models and patch tables (about a second on a cold
 * JVM). Dry runs store nothing and change no resourceVersion.
 */
final class Warmup {
  private static final Logger LOG = LoggerFactory.getLogger(Warmup.class);

  private static final String CLAIM =
      """
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
       "metadata":{"name":"jdra-warmup","labels":{"app":"warmup"}},
       "spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"warmup.example.com",
         "selectors":[{"cel":{"expression":"device.driver == 'warmup.example.com'"}}]}}]}}}
      """;

  private static final String SLICE =
      """
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"jdra-warmup"},
       "spec":{"driver":"warmup.example.com","nodeName":"warmup","pool":{"name":"p",
         "generation":1,"resourceSliceCount":1},"devices":[{"name":"d",
         "attributes":{"model":{"string":"m"}},"capacity":{"memory":{"value":"1Gi"}}}]}}
      """;

  private Warmup() {}

  static void start(ObjectService service) {
    Thread.ofPlatform()
        .name("jdra-apiserver-warmup")
        .daemon()
        .priority(Thread.MIN_PRIORITY)
        .start(() -> run(service));
  }

  private static void run(ObjectService service) {
    long t0 = System.nanoTime();
    try {
      dryRun(service, "resourceclaims", "default", CLAIM);
      dryRun(service, "resourceslices", "", SLICE);
      LOG.debug("Warm-up done in {} ms", (System.nanoTime() - t0) / 1_000_000);
    } catch (RuntimeException e) {
      LOG.debug("Warm-up failed (harmless)", e);
    }
  }

  private static void dryRun(ObjectService service, String plural, String ns, String json) {
    ResourceType t = service.registry().find("resource.k8s.io", "v1", plural).orElseThrow();
    service
        .create(
            t,
            ns,
            Json.parseObject(json.getBytes(StandardCharsets.UTF_8)),
            new WriteOptions(true, "jdra-warmup", false))
        .join();
  }
}
