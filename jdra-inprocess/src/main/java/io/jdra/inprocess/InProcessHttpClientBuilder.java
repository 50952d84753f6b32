package io.jdra.inprocess;

import io.fabric8.kubernetes.client.http.StandardHttpClientBuilder;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Builds {@link InProcessHttpClient}s. Connection settings (timeouts, TLS, proxies) have nothing to
 * act on in memory and are ignored; interceptors (authentication, impersonation, rate limits) and
 * tags apply as for any fabric8 client.
 */
final class InProcessHttpClientBuilder
    extends StandardHttpClientBuilder<
        InProcessHttpClient, InProcessHttpClientFactory, InProcessHttpClientBuilder> {
  InProcessHttpClientBuilder(InProcessHttpClientFactory factory) {
    super(factory);
  }

  @Override
  public InProcessHttpClient build() {
    // A derived client (newBuilder() of a client) shares its parent's open/closed state.
    AtomicBoolean closed = client != null ? client.getClosed() : new AtomicBoolean();
    return new InProcessHttpClient(this, closed, clientFactory.sender(), clientFactory.deadlines());
  }

  @Override
  protected InProcessHttpClientBuilder newInstance(InProcessHttpClientFactory factory) {
    return new InProcessHttpClientBuilder(factory);
  }
}
