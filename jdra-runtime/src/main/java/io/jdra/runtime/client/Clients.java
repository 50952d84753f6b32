package io.jdra.runtime.client;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.impl.BaseClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.jackson.Jackson2JdkTypesModule;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Executor;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Creates fabric8 clients from {@link ClientOptions}, finding the kubeconfig as kubectl does.
 *
 * <p>Every client of the process shares one JSON serialization (Jackson's per-type introspection of
 * the whole Kubernetes model, several MB per mapper). A fabric8 client otherwise brings its own,
 * and {@code jdra up} runs a client per component and per node, as a real cluster has a process per
 * component: with 100 nodes that was most of the heap per node. Each client keeps its own Vert.x (a
 * shared one was tried: with 30 nodes, connections timed out while an event loop was blocked),
 * connections, rate limit and identity.
 *
 * <p>That serialization does not canonicalize JSON property names (Jackson's symbol table and its
 * interning): Kubernetes objects carry names that are unique per object, such as the {@code
 * k:{"uid":"..."}} keys of an owner reference in {@code managedFields}, and each new name made the
 * parser grow, copy and finally discard its shared table and intern the name; decoding a generated
 * ResourceClaim took 34-40 us with it and 8-9 us without, a Pod 11 us either way ({@code
 * DecodeBench}).
 */
public final class Clients {
  static final Path SERVICE_ACCOUNT_TOKEN =
      Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");

  private Clients() {}

  /**
   * A client for the options. Fails with a clear message when the explicit kubeconfig does not
   * exist or when no configuration is found at all.
   */
  public static KubernetesClient create(ClientOptions options) {
    return create(options, null);
  }

  /**
   * As {@link #create(ClientOptions)}, with requests sent by {@code transport} instead of fabric8's
   * Vert.x client (for components that reach an API server of their own process in memory).
   *
   * @param transport the HTTP client factory, or null for fabric8's default
   */
  public static KubernetesClient create(ClientOptions options, HttpClient.Factory transport) {
    Config config = config(options, System.getenv(), Path.of(System.getProperty("user.home")));
    KubernetesClientBuilder b =
        new KubernetesClientBuilder()
            .withConfig(config)
            .withKubernetesSerialization(Shared.SERIALIZATION);
    if (transport != null) {
      b.withHttpClientFactory(transport);
    }
    if (options.effectiveQps() > 0) {
      ClientRateLimiter limiter =
          new ClientRateLimiter(options.effectiveQps(), options.effectiveBurst());
      b.withHttpClientBuilderConsumer(h -> h.addOrReplaceInterceptor("jdra-qps", limiter));
    }
    return b.build();
  }

  /**
   * The serialization every client of {@link #create} shares, for clients a program builds itself
   * (as the scheduler benchmark does for the embedded API server).
   */
  public static KubernetesSerialization sharedSerialization() {
    return Shared.SERIALIZATION;
  }

  /**
   * A view of {@code client} whose requests and watches decode objects without {@code
   * metadata.managedFields}, for informers (upstream components trim them in an informer transform;
   * see {@code InformerFactory}). The subtree is skipped while parsing ({@link TrimManagedFields}),
   * only the objects' own metadata is trimmed, and everything else decodes as {@link
   * #serialization()} decodes it. The view sends its requests through the client's HTTP client
   * (same connections, authentication, QPS limit) and the client is unchanged: its GETs and the
   * answers to its writes keep their managedFields. Close the client, never the view (closing the
   * view closes the client's HTTP client).
   *
   * @throws IllegalArgumentException if {@code client} is not a fabric8 client implementation
   */
  public static KubernetesClient withoutManagedFields(KubernetesClient client) {
    return view(client, trimmedSerialization(), null);
  }

  /**
   * A view of {@code client} for informers: its watches and informers run their tasks on {@code
   * executor} (an {@link InformerExecutor}), and with {@code trimManagedFields} it decodes as
   * {@link #withoutManagedFields} does, else as the client does. Everything else is the client's,
   * as for {@link #withoutManagedFields}; close the client and the executor, never the view.
   *
   * @throws IllegalArgumentException if {@code client} is not a fabric8 client implementation
   */
  public static KubernetesClient forInformers(
      KubernetesClient client, boolean trimManagedFields, Executor executor) {
    return view(
        client,
        trimManagedFields ? trimmedSerialization() : client.getKubernetesSerialization(),
        executor);
  }

  private static KubernetesClient view(
      KubernetesClient client, KubernetesSerialization serialization, Executor executor) {
    if (!(client instanceof BaseClient base)) {
      throw new IllegalArgumentException(
          "cannot make a view of a "
              + client.getClass().getName()
              + ": not a fabric8 client implementation (BaseClient)");
    }
    return new ClientView(base, serialization, executor);
  }

  /** The serialization of {@link #withoutManagedFields} views (shared, created on first use). */
  public static KubernetesSerialization trimmedSerialization() {
    return Trimmed.SERIALIZATION;
  }

  /** Created on first use. */
  private static final class Shared {
    static final KubernetesSerialization SERIALIZATION = serialization();
  }

  /** Created on first use. */
  private static final class Trimmed {
    static final KubernetesSerialization SERIALIZATION =
        new ClientSerialization(
            mapper().rebuild().addModule(new TrimManagedFields()).build(), true);
  }

  /**
   * fabric8's default serialization (Jackson 2 defaults and its JDK types module) without property
   * name canonicalization, decoding watch events in one pass ({@link ClientSerialization}); see the
   * class comment.
   */
  public static KubernetesSerialization serialization() {
    return new ClientSerialization(mapper(), true);
  }

  /**
   * The mapper of {@link #serialization()} before fabric8 configures it; with fabric8's own {@code
   * KubernetesSerialization} it decodes as fabric8 does (for tests and benchmarks that compare).
   */
  public static JsonMapper mapper() {
    JsonFactory json =
        JsonFactory.builderWithJackson2Defaults()
            .disable(TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES)
            .disable(TokenStreamFactory.Feature.INTERN_PROPERTY_NAMES)
            .build();
    return JsonMapper.builder(json)
        .configureForJackson2()
        .addModule(new Jackson2JdkTypesModule())
        .build();
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
