package io.jdra.inprocess;

import io.fabric8.kubernetes.client.http.HttpClient;
import io.jdra.apiserver.http.InProcessRequest;
import io.jdra.apiserver.http.InProcessResponse;
import io.jdra.apiserver.http.InProcessTransport;
import java.util.Objects;

/**
 * fabric8's factory for clients whose requests go to one embedded API server in memory; give it to
 * {@code KubernetesClientBuilder.withHttpClientFactory} (or use {@link InProcessClients}).
 */
public final class InProcessHttpClientFactory implements HttpClient.Factory {
  /** Where requests go: the server's transport, or a test's stand-in. */
  interface Sender {
    void send(InProcessRequest request, InProcessResponse response);
  }

  private final Sender sender;
  private final RequestDeadlines deadlines;

  public InProcessHttpClientFactory(InProcessTransport transport) {
    this(Objects.requireNonNull(transport, "transport")::send, RequestDeadlines.shared());
  }

  /**
   * @param deadlines times the clients' requests, or null to leave their timeouts to fabric8
   */
  InProcessHttpClientFactory(Sender sender, RequestDeadlines deadlines) {
    this.sender = sender;
    this.deadlines = deadlines;
  }

  @Override
  public InProcessHttpClientBuilder newBuilder() {
    return new InProcessHttpClientBuilder(this);
  }

  Sender sender() {
    return sender;
  }

  RequestDeadlines deadlines() {
    return deadlines;
  }
}
