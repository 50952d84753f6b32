package io.jdra.httpclient;

import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.http.TlsVersion;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;

/**
 * Records a client's settings and applies them to fabric8's Vert.x builder in {@link #build}, which
 * is where the client's Vert.x is made: a builder that is never built owns no threads. Not
 * thread-safe, as fabric8's builders.
 */
final class DeferredBuilder implements HttpClient.Builder {
  private final Supplier<Vertx> vertices;
  private final List<Consumer<HttpClient.Builder>> settings = new ArrayList<>();

  DeferredBuilder(Supplier<Vertx> vertices) {
    this.vertices = vertices;
  }

  private DeferredBuilder record(Consumer<HttpClient.Builder> setting) {
    settings.add(setting);
    return this;
  }

  @Override
  public HttpClient build() {
    Vertx vertx = vertices.get();
    try {
      HttpClient.Builder builder = VertxClientFactory.fabric8Builder(vertx);
      settings.forEach(s -> s.accept(builder));
      return new EventLoopWebSocketClient(builder.build(), vertx, true);
    } catch (RuntimeException | Error e) {
      vertx.close();
      throw e;
    }
  }

  @Override
  public HttpClient.Builder connectTimeout(long amount, TimeUnit unit) {
    return record(b -> b.connectTimeout(amount, unit));
  }

  @Override
  public HttpClient.Builder websocketPingInterval(long amount, TimeUnit unit) {
    return record(b -> b.websocketPingInterval(amount, unit));
  }

  @Override
  public HttpClient.Builder addOrReplaceInterceptor(String name, Interceptor interceptor) {
    return record(b -> b.addOrReplaceInterceptor(name, interceptor));
  }

  @Override
  public HttpClient.Builder authenticatorNone() {
    return record(HttpClient.Builder::authenticatorNone);
  }

  @Override
  public HttpClient.DerivedClientBuilder tag(Object value) {
    return record(b -> b.tag(value));
  }

  @Override
  public HttpClient.Builder sslContext(KeyManager[] keyManagers, TrustManager[] trustManagers) {
    return record(b -> b.sslContext(keyManagers, trustManagers));
  }

  @Override
  public HttpClient.Builder followAllRedirects() {
    return record(HttpClient.Builder::followAllRedirects);
  }

  @Override
  public HttpClient.Builder proxyAddress(InetSocketAddress address) {
    return record(b -> b.proxyAddress(address));
  }

  @Override
  public HttpClient.Builder proxyAuthorization(String credentials) {
    return record(b -> b.proxyAuthorization(credentials));
  }

  @Override
  public HttpClient.Builder tlsVersions(TlsVersion... versions) {
    return record(b -> b.tlsVersions(versions));
  }

  @Override
  public HttpClient.Builder tlsServerName(String serverName) {
    return record(b -> b.tlsServerName(serverName));
  }

  @Override
  public HttpClient.Builder preferHttp11() {
    return record(HttpClient.Builder::preferHttp11);
  }

  @Override
  public HttpClient.Builder proxyType(HttpClient.ProxyType type) {
    return record(b -> b.proxyType(type));
  }
}
