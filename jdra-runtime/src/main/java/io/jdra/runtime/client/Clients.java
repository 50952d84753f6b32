package io.jdra.runtime.client;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Creates fabric8 clients from {@link ClientOptions}, finding the kubeconfig as kubectl does. */
public final class Clients {
  static final Path SERVICE_ACCOUNT_TOKEN =
      Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");

  private Clients() {}

  /**
   * A client for the options. Fails with a clear message when the explicit kubeconfig does not
   * exist or when no configuration is found at all.
   */
  public static KubernetesClient create(ClientOptions options) {
    Config config = config(options, System.getenv(), Path.of(System.getProperty("user.home")));
    KubernetesClientBuilder b = new KubernetesClientBuilder().withConfig(config);
    if (options.effectiveQps() > 0) {
      ClientRateLimiter limiter =
          new ClientRateLimiter(options.effectiveQps(), options.effectiveBurst());
      b.withHttpClientBuilderConsumer(h -> h.addOrReplaceInterceptor("jdra-qps", limiter));
    }
    return b.build();
  }

  /** The client configuration: --kubeconfig, else KUBECONFIG, ~/.kube/config, in-cluster. */
  static Config config(ClientOptions options, Map<String, String> env, Path home) {
    Config config;
    if (options.kubeconfig() != null) {
      File f = new File(options.kubeconfig());
      if (!f.isFile()) {
        throw new IllegalArgumentException(
            "--kubeconfig " + options.kubeconfig() + ": no such file");
      }
      config = Config.fromKubeconfig(f);
    } else {
      String fromEnv = env.get("KUBECONFIG");
      boolean hasEnv = fromEnv != null && !fromEnv.isEmpty();
      boolean hasHome = Files.isRegularFile(home.resolve(".kube/config"));
      boolean inCluster =
          env.get("KUBERNETES_SERVICE_HOST") != null && Files.isRegularFile(SERVICE_ACCOUNT_TOKEN);
      if (!hasEnv && !hasHome && !inCluster) {
        throw new IllegalArgumentException(
            "no API server configured: pass --kubeconfig, set KUBECONFIG, create ~/.kube/config"
                + " or run in a cluster");
      }
      // fabric8 resolves KUBECONFIG, ~/.kube/config and the service account in kubectl's order.
      config = Config.autoConfigure(null);
    }
    if (options.userAgent() != null) {
      config.setUserAgent(options.userAgent());
    }
    return config;
  }
}
