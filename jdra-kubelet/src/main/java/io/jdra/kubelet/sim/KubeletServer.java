package io.jdra.kubelet.sim;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * The kubelet's HTTP endpoint for what the API server proxies to nodes: {@code GET
 * /containerLogs/<namespace>/<pod>/<container>} (as upstream's kubelet server) and {@code
 * /healthz}. Plain HTTP. One server can serve many simulated nodes in one process: each node adds
 * its log source, and the node owning the pod answers. Thread-safe.
 */
public final class KubeletServer implements AutoCloseable {
  /** Logs of one node's containers. */
  @FunctionalInterface
  public interface LogSource {
    /** The container's output, or empty when this node does not run that container. */
    Optional<String> logs(String namespace, String pod, String container);
  }

  private final HttpServer server;
  private final List<LogSource> sources = new CopyOnWriteArrayList<>();

  private KubeletServer(HttpServer server) {
    this.server = server;
  }

  /** Starts listening on {@code host}:{@code port} (0 for any free port). */
  public static KubeletServer start(String host, int port) throws IOException {
    HttpServer http = HttpServer.create(new InetSocketAddress(host, port), 0);
    KubeletServer s = new KubeletServer(http);
    http.createContext("/containerLogs/", s::containerLogs);
    http.createContext("/healthz", ex -> respond(ex, 200, "ok"));
    http.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    http.start();
    return s;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** Adds a node's logs; returns a handle that removes them. */
  public AutoCloseable add(LogSource source) {
    sources.add(source);
    return () -> sources.remove(source);
  }

  private void containerLogs(HttpExchange ex) throws IOException {
    String[] parts =
        ex.getRequestURI().getRawPath().substring("/containerLogs/".length()).split("/");
    if (parts.length != 3 || !ex.getRequestMethod().equals("GET")) {
      respond(ex, 404, "404 page not found\n");
      return;
    }
    String ns = decode(parts[0]);
    String pod = decode(parts[1]);
    String container = decode(parts[2]);
    for (LogSource s : sources) {
      Optional<String> logs = s.logs(ns, pod, container);
      if (logs.isPresent()) {
        respond(ex, 200, logs.get());
        return;
      }
    }
    respond(ex, 404, "container \"" + container + "\" in pod \"" + pod + "\" is not available\n");
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  private static void respond(HttpExchange ex, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    ex.sendResponseHeaders(code, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
