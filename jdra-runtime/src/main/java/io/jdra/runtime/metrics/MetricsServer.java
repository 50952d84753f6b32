package io.jdra.runtime.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The HTTP endpoint of a component ({@code --metrics-bind-address}): {@code /metrics} in the
 * Prometheus text format from the component's own registry, {@code /healthz} and {@code /livez} (ok
 * while the process serves), {@code /readyz} with named checks as component-base's healthz: 200
 * "ok" when all pass, else 500 listing {@code [-]name failed: reason}; {@code ?verbose} lists every
 * check.
 *
 * <p>Runs on the JDK's HTTP server with virtual threads; {@link #close()} stops it and frees the
 * port.
 */
public final class MetricsServer implements AutoCloseable {
  /** A readiness check: null or empty when ready, else the reason it is not. */
  @FunctionalInterface
  public interface Check extends Supplier<String> {}

  private final HttpServer server;
  private final ExecutorService executor;
  private final Supplier<MetricSnapshots> metrics;
  private final Map<String, Check> readyChecks = new LinkedHashMap<>();

  private MetricsServer(
      HttpServer server, ExecutorService executor, Supplier<MetricSnapshots> metrics) {
    this.server = server;
    this.executor = executor;
    this.metrics = metrics;
  }

  /**
   * Starts serving on {@code bindAddress} ("host:port", ":port" for all interfaces, port 0 for a
   * free one).
   */
  public static MetricsServer start(String bindAddress, PrometheusRegistry registry)
      throws IOException {
    return start(bindAddress, registry::scrape);
  }

  /**
   * Starts serving what {@code metrics} scrapes (several components' registries, {@link
   * CombinedMetrics}) on {@code bindAddress}.
   */
  public static MetricsServer start(String bindAddress, Supplier<MetricSnapshots> metrics)
      throws IOException {
    HttpServer server = HttpServer.create(parse(bindAddress), 0);
    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    server.setExecutor(executor);
    MetricsServer m = new MetricsServer(server, executor, metrics);
    server.createContext("/metrics", m::metrics);
    server.createContext("/healthz", ex -> reply(ex, 200, "ok"));
    server.createContext("/livez", ex -> reply(ex, 200, "ok"));
    server.createContext("/readyz", m::readyz);
    server.start();
    return m;
  }

  static InetSocketAddress parse(String bindAddress) {
    int colon = bindAddress.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException(
          "metrics bind address " + bindAddress + " must be host:port or :port");
    }
    String host = bindAddress.substring(0, colon);
    int port;
    try {
      port = Integer.parseInt(bindAddress.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("metrics bind address " + bindAddress + ": bad port", e);
    }
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
  }

  /** Adds a named readiness check (for example "informer-sync", "leader-election"). */
  public synchronized MetricsServer addReadyzCheck(String name, Check check) {
    readyChecks.put(name, check);
    return this;
  }

  /** The port actually bound. */
  public int port() {
    return server.getAddress().getPort();
  }

  private void metrics(HttpExchange ex) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, metrics.get());
    ex.getResponseHeaders().set("Content-Type", PrometheusTextFormatWriter.CONTENT_TYPE);
    send(ex, 200, out.toByteArray());
  }

  private void readyz(HttpExchange ex) throws IOException {
    Map<String, Check> checks;
    synchronized (this) {
      checks = new LinkedHashMap<>(readyChecks);
    }
    StringBuilder body = new StringBuilder();
    boolean ok = true;
    for (var e : checks.entrySet()) {
      String reason;
      try {
        reason = e.getValue().get();
      } catch (RuntimeException err) {
        reason = err.toString();
      }
      if (reason == null || reason.isEmpty()) {
        body.append("[+]").append(e.getKey()).append(" ok\n");
      } else {
        ok = false;
        body.append("[-]").append(e.getKey()).append(" failed: ").append(reason).append('\n');
      }
    }
    String query = ex.getRequestURI().getQuery();
    boolean verbose = query != null && query.contains("verbose");
    if (ok) {
      reply(ex, 200, verbose ? body + "readyz check passed" : "ok");
    } else {
      reply(ex, 500, body + "readyz check failed");
    }
  }

  private static void reply(HttpExchange ex, int status, String text) throws IOException {
    ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    send(ex, status, (text + "\n").getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange ex, int status, byte[] body) throws IOException {
    ex.sendResponseHeaders(status, body.length);
    try (OutputStream os = ex.getResponseBody()) {
      os.write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
