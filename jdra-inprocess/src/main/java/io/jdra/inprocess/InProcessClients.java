package io.jdra.inprocess;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jdra.apiserver.EmbeddedApiServer;

/**
 * fabric8 clients for an embedded API server of this process whose requests go to it in memory
 * ({@link EmbeddedApiServer#inProcess()}): same answers, errors, watches (with bookmarks and 410
 * Gone), authentication and authorization as over the server's URL, without socket, HTTP encoding
 * or TLS. The components using them are unchanged fabric8 users.
 */
public final class InProcessClients {
  private InProcessClients() {}

  /**
   * A client for {@code server} configured by {@code config}: its token or impersonation decides
   * who the server sees, its namespace, user agent and request settings apply; connection settings
   * (URL host, TLS, proxies, connect timeouts) have nothing to act on. Watches are fabric8's
   * WebSocket watches, each event a message from the server's watch stream ({@link WatchSocket});
   * with {@code onlyHttpWatches} set in {@code config} they are fabric8's HTTP-stream watches.
   *
   * @param serialization the JSON serialization, or null for fabric8's own
   */
  public static KubernetesClient create(
      EmbeddedApiServer server, Config config, KubernetesSerialization serialization) {
    KubernetesClientBuilder b =
        new KubernetesClientBuilder()
            .withConfig(config)
            .withHttpClientFactory(new InProcessHttpClientFactory(server.inProcess()));
    if (serialization != null) {
      b.withKubernetesSerialization(serialization);
    }
    return b.build();
  }
}
