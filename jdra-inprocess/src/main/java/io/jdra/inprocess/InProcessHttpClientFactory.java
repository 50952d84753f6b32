package io.jdra.inprocess;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.jdra.apiserver.http.InProcessTransport;
import java.util.Objects;

/**
 * fabric8's factory for clients whose requests go to one embedded API server in memory; give it to
 * {@code KubernetesClientBuilder.withHttpClientFactory} (or use {@link InProcessClients}).
 */
public final class InProcessHttpClientFactory implements HttpClient.Factory {
  private final InProcessTransport transport;

  public InProcessHttpClientFactory(InProcessTransport transport) {
    this.transport = Objects.requireNonNull(transport, "transport");
  }

  /** fabric8's common configuration, with watches as HTTP streams (no WebSocket in memory). */
  @Override
  public HttpClient.Builder newBuilder(Config config) {
    config.setOnlyHttpWatches(true);
    return HttpClient.Factory.super.newBuilder(config);
  }

  @Override
  public InProcessHttpClientBuilder newBuilder() {
    return new InProcessHttpClientBuilder(this);
  }

  InProcessTransport transport() {
    return transport;
  }
}
