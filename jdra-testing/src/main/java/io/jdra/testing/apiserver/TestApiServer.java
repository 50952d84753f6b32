package io.jdra.testing.apiserver;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.jdra.apiserver.ApiServerOptions;
import io.jdra.apiserver.EmbeddedApiServer;
import io.jdra.inprocess.InProcessClients;
import java.util.ArrayList;
import java.util.List;

/**
 * An embedded API server plus fabric8 clients for it, in one call: {@code try (var s =
 * TestApiServer.start()) { s.client()... }}. Thread-safe; closing stops clients and server.
 *
 * <p>The server alone behaves as kube-apiserver alone: it records a deletion's propagation policy
 * as a finalizer and marks a deleted namespace {@code Terminating}, but nothing deletes dependents
 * or empties namespaces. A test that relies on cascading deletion or namespace deletion starts
 * jdra-controllers' garbage collector and namespace controller against it ({@code
 * ControllerManager.start} with {@code garbage-collector-controller,namespace-controller}).
 */
public final class TestApiServer implements AutoCloseable {
  private final EmbeddedApiServer server;
  private final WithApiServer.Transport transport;
  private final KubernetesClient client;
  private final List<KubernetesClient> extra = new ArrayList<>();

  private TestApiServer(EmbeddedApiServer server, WithApiServer.Transport transport) {
    this.server = server;
    this.transport = transport;
    this.client = newClient(server, transport);
  }

  /** An in-memory server on a free loopback port (plain HTTP, no token). */
  public static TestApiServer start() {
    return start(ApiServerOptions.inMemory());
  }

  /** A server with the given options. */
  public static TestApiServer start(ApiServerOptions options) {
    return start(options, WithApiServer.Transport.HTTP);
  }

  /** An in-memory server whose clients use {@code transport}. */
  public static TestApiServer start(WithApiServer.Transport transport) {
    return start(ApiServerOptions.inMemory(), transport);
  }

  /** A server with the given options whose clients use {@code transport}. */
  public static TestApiServer start(ApiServerOptions options, WithApiServer.Transport transport) {
    return new TestApiServer(EmbeddedApiServer.start(options), transport);
  }

  /** The shared client (namespace {@code default}). */
  public KubernetesClient client() {
    return client;
  }

  /** A further client, e.g. one per simulated component; closed with the server. */
  public synchronized KubernetesClient newClient() {
    KubernetesClient c = newClient(server, transport);
    extra.add(c);
    return c;
  }

  public EmbeddedApiServer server() {
    return server;
  }

  /** A fabric8 client configured for a server (URL, token, CA), namespace {@code default}. */
  public static KubernetesClient newClient(EmbeddedApiServer server) {
    return newClient(server, WithApiServer.Transport.HTTP);
  }

  /** As {@link #newClient(EmbeddedApiServer)}, reaching the server over {@code transport}. */
  public static KubernetesClient newClient(
      EmbeddedApiServer server, WithApiServer.Transport transport) {
    ConfigBuilder b =
        new ConfigBuilder()
            .withMasterUrl(server.url().toString())
            .withNamespace("default")
            .withRequestRetryBackoffLimit(0)
            // Without a token, fabric8 re-reads the environment and kubeconfig before every request
            // once the client is a minute old (TokenRefreshInterceptor); this client needs none.
            .withAutoConfigure(false);
    if (server.token() != null) {
      b.withOauthToken(server.token());
    }
    if (server.caCertificatePem() != null) {
      b.withCaCertData(
          java.util.Base64.getEncoder()
              .encodeToString(
                  server.caCertificatePem().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
    Config config = b.build();
    if (transport == WithApiServer.Transport.IN_PROCESS) {
      return InProcessClients.create(server, config, null);
    }
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  private boolean closed;

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    extra.forEach(KubernetesClient::close);
    client.close();
    server.close();
  }
}
