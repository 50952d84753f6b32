package io.jdra.inprocess;

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

  @Override
  public InProcessHttpClientBuilder newBuilder() {
    return new InProcessHttpClientBuilder(this);
  }

  InProcessTransport transport() {
    return transport;
  }
}
