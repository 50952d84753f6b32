package io.jdra.apiserver;

import static java.util.concurrent.CompletableFuture.runAsync;
import static java.util.concurrent.CompletableFuture.supplyAsync;

import io.jdra.apiserver.admission.Admission;
import io.jdra.apiserver.admission.BuiltInAdmission;
import io.jdra.apiserver.admission.NodeRestriction;
import io.jdra.apiserver.admission.ResourceSlicePolicy;
import io.jdra.apiserver.auth.Authorizer;
import io.jdra.apiserver.auth.BootstrapPolicy;
import io.jdra.apiserver.auth.NodeAuthorizer;
import io.jdra.apiserver.auth.StoredNodeGraph;
import io.jdra.apiserver.auth.TokenAuthenticator;
import io.jdra.apiserver.auth.UserInfo;
import io.jdra.apiserver.http.ApiHandler;
import io.jdra.apiserver.http.ConnectionTimeouts;
import io.jdra.apiserver.http.InProcessTransport;
import io.jdra.apiserver.http.RequestMetrics;
import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceRegistry;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.rest.ObjectService;
import io.jdra.apiserver.rest.WriteOptions;
import io.jdra.apiserver.storage.Persistence;
import io.jdra.apiserver.storage.Storage;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.OpenSSLEngineOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A running embedded Kubernetes-compatible API server. Start one with {@link #start}; it serves
 * until {@link #close}. Thread-safe.
 */
public final class EmbeddedApiServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedApiServer.class);
  private static final List<String> INITIAL_NAMESPACES =
      List.of("default", "kube-system", "kube-public", "kube-node-lease");

  /** kube-apiserver's MaxHeaderBytes (1 MiB), for the request line and headers. */
  private static final int MAX_HEADER_BYTES = 1 << 20;

  private final ApiServerOptions options;
  private final Vertx vertx;
  private final Storage storage;
  private final ObjectService service;
  private final List<HttpServer> servers;
  private final Controllers controllers;
  private final URI url;
  private final String token;
  private final Security.Material security;
  private final PrometheusRegistry metrics;
  private final InProcessTransport inProcess;

  private EmbeddedApiServer(
      ApiServerOptions options,
      Vertx vertx,
      Storage storage,
      ObjectService service,
      List<HttpServer> servers,
      Controllers controllers,
      URI url,
      String token,
      Security.Material security,
      PrometheusRegistry metrics,
      InProcessTransport inProcess) {
    this.options = options;
    this.vertx = vertx;
    this.storage = storage;
    this.service = service;
    this.servers = servers;
    this.controllers = controllers;
    this.url = url;
    this.token = token;
    this.security = security;
    this.metrics = metrics;
    this.inProcess = inProcess;
  }

  /** An in-memory server over plain HTTP on a free loopback port. */
  public static EmbeddedApiServer startInMemory() {
    return start(ApiServerOptions.inMemory());
  }

  /**
   * Starts a server: recovers storage, creates the initial namespaces, listens, writes the
   * kubeconfig. Returns once it is ready.
   *
   * @throws UncheckedIOException when storage, certificates or the port are unusable
   */
  public static EmbeddedApiServer start(ApiServerOptions o) {
    return start(o, persistence(o));
  }

  /** Starts a server on the given persistence instead of the options' (tests hold writes). */
  static EmbeddedApiServer start(ApiServerOptions o, Persistence persistence) {
    StartupPhases phases = new StartupPhases();
    // Most of a start is class loading and first use of CEL, Jackson, Netty and the crypto
    // providers: the independent parts run side by side so a start takes the longest of them.
    ExecutorService starter = Executors.newFixedThreadPool(2, StartupThread::new);
    CompletableFuture<Admission> admission = supplyAsync(() -> admission(o), starter);
    CompletableFuture<Security.Material> tls =
        supplyAsync(() -> o.tls() ? tlsMaterial(o) : null, starter);
    Storage storage = new Storage(persistence, o.watchHistory());
    Vertx vertx = null;
    try {
      storage.recover();
      ResourceRegistry registry = ResourceRegistry.builtIn(o.featureGates());
      registry.stored().forEach(t -> storage.store(t.storageKey()));
      phases.end("storage");
      String token = o.requireToken() ? Security.token(o) : null;
      int loops = Math.max(2, Runtime.getRuntime().availableProcessors());
      vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops));
      phases.end("vertx");
      ObjectService service =
          new ObjectService(
              registry, storage, join(admission), o.clock(), o.patching(), sharesStored(o));
      phases.end("admission");
      // The initial namespaces are written while the handlers are made and the servers bind;
      // nobody knows the port before start returns (or the kubeconfig is written), as with
      // kube-apiserver's post-start hook.
      CompletableFuture<Void> namespaces = runAsync(() -> createNamespaces(service), starter);
      Controllers controllers = new Controllers(service);
      PrometheusRegistry metrics = new PrometheusRegistry();
      ApiHandler handler =
          new ApiHandler(
              service,
              o.patching(),
              vertx,
              token == null ? null : authenticator(token, o),
              token == null ? Authorizer.ALWAYS_ALLOW : authorizer(storage),
              o.bookmarkInterval(),
              () -> true,
              o.httpTimeouts(),
              new RequestMetrics(metrics));
      Security.Material sec = join(tls);
      phases.end("tls");
      int port = o.port() != 0 ? o.port() : freePort(o.bindAddress());
      CompletableFuture<List<HttpServer>> listening = listen(vertx, o, port, handler, sec, loops);
      List<HttpServer> servers = awaitListening(listening, o, port);
      phases.end("listen");
      join(namespaces);
      phases.end("namespaces");
      String scheme = sec == null ? "http" : "https";
      String host = o.bindAddress().equals("0.0.0.0") ? "127.0.0.1" : o.bindAddress();
      URI url = URI.create(scheme + "://" + host + ":" + servers.get(0).actualPort());
      controllers.start();
      EmbeddedApiServer server =
          new EmbeddedApiServer(
              o,
              vertx,
              storage,
              service,
              servers,
              controllers,
              url,
              token,
              sec,
              metrics,
              new InProcessTransport(handler, vertx, loops));
      if (o.kubeconfig() != null) {
        Kubeconfig.write(
            o.kubeconfig(), url, token, sec == null ? null : sec.caPem(), "jdra-admin");
      }
      LOG.info("API server listening on {}", url);
      LOG.info("API server started in {}", phases);
      Warmup.start(service);
      return server;
    } catch (IOException e) {
      closeQuietly(vertx, storage);
      throw new UncheckedIOException("start API server: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      closeQuietly(vertx, storage);
      throw e;
    } finally {
      starter.shutdownNow();
    }
  }

  /**
   * The admission chain. NodeRestriction is a mutating-phase plugin upstream, the ResourceSlice
   * policy a ValidatingAdmissionPolicy: the one before the kinds' own checks, the other after them.
   */
  private static Admission admission(ApiServerOptions o) {
    return Admission.chain(
        List.of(
            new NodeRestriction(),
            Admission.objectWrites(
                new BuiltInAdmission(o.featureGates(), o.clock(), sharesStored(o))),
            ResourceSlicePolicy.exampleDriver(),
            Admission.objectWrites(o.admission())));
  }

  /**
   * Whether writes may share the stored objects' subtrees that the built-in admission only reads or
   * replaces: not with an admission of the server's user, which may change any part in place.
   */
  private static boolean sharesStored(ApiServerOptions o) {
    return o.admission() == Admission.NONE;
  }

  /** The certificates, with the TLS engine loaded (BoringSSL's native library takes a while). */
  private static Security.Material tlsMaterial(ApiServerOptions o) {
    try {
      Security.Material m = Security.material(o);
      OpenSSLEngineOptions.isAvailable();
      return m;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The value of a start step, with its own exception rather than a CompletionException. */
  private static <T> T join(CompletableFuture<T> step) {
    try {
      return step.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
  }

  private static final class StartupThread extends Thread {
    StartupThread(Runnable r) {
      super(r, "jdra-apiserver-start");
      setDaemon(true);
    }
  }

  /** The admin's token and the options' users. */
  private static TokenAuthenticator authenticator(String adminToken, ApiServerOptions o) {
    Map<String, UserInfo> users = new HashMap<>(o.tokenUsers());
    users.put(adminToken, UserInfo.admin());
    return new TokenAuthenticator(users);
  }

  /** Node,RBAC, as kubeadm configures kube-apiserver's {@code --authorization-mode}. */
  private static Authorizer authorizer(Storage storage) {
    return Authorizer.union(
        List.of(
            new NodeAuthorizer(new StoredNodeGraph(storage), BootstrapPolicy.nodeRules()),
            BootstrapPolicy.rbac()));
  }

  /**
   * Writes a kubeconfig for this server with another user's token (a component's own identity),
   * private to the user, as {@code kubeconfig} is for the admin.
   *
   * @param user the user entry's name in the file (for people reading it)
   */
  public void writeKubeconfig(Path file, String bearerToken, String user) throws IOException {
    Kubeconfig.write(file, url, bearerToken, security == null ? null : security.caPem(), user);
  }

  private static Persistence persistence(ApiServerOptions o) {
    if (o.dataDir() == null) {
      return Persistence.NONE;
    }
    return io.jdra.apiserver.storage.FileLog.open(o.dataDir().resolve("storage"));
  }

  private static void createNamespaces(ObjectService service) {
    ResourceType ns = service.registry().find("", "v1", "namespaces").orElseThrow();
    for (String name : INITIAL_NAMESPACES) {
      if (service.store(ns).get("", name) != null) {
        continue;
      }
      ObjectNode obj = Json.object();
      obj.put("apiVersion", "v1");
      obj.put("kind", "Namespace");
      obj.putObject("metadata")
          .put("name", name)
          .putObject("labels")
          .put("kubernetes.io/metadata.name", name);
      try {
        service.create(ns, "", obj, WriteOptions.DEFAULT).join();
      } catch (ApiException e) {
        if (e.code() != 409) {
          throw e;
        }
      }
    }
  }

  /** Deploys {@code count} servers on {@code port}, one per event loop; completes when all bind. */
  private static CompletableFuture<List<HttpServer>> listen(
      Vertx vertx,
      ApiServerOptions o,
      int port,
      ApiHandler handler,
      Security.Material sec,
      int count) {
    List<HttpServer> servers = java.util.Collections.synchronizedList(new ArrayList<>());
    int listenPort = port;
    java.util.function.Supplier<io.vertx.core.Verticle> verticle =
        () ->
            new io.vertx.core.AbstractVerticle() {
              @Override
              public void start(io.vertx.core.Promise<Void> started) {
                HttpServerOptions ho =
                    new HttpServerOptions()
                        .setHost(o.bindAddress())
                        .setPort(listenPort)
                        .setMaxWebSocketFrameSize(16 * 1024 * 1024)
                        .setMaxWebSocketMessageSize(64 * 1024 * 1024)
                        // Go's MaxHeaderBytes of kube-apiserver: request line and headers
                        .setMaxInitialLineLength(MAX_HEADER_BYTES)
                        .setMaxHeaderSize(MAX_HEADER_BYTES)
                        .setTcpNoDelay(true);
                if (sec != null) {
                  sec.configure(ho);
                  // Go's server bounds the handshake by ReadHeaderTimeout; so does the
                  // first-request timeout of ConnectionTimeouts, which this leaves in charge.
                  ho.setSslHandshakeTimeout(o.httpTimeouts().readHeader().toMillis())
                      .setSslHandshakeTimeoutUnit(TimeUnit.MILLISECONDS);
                  if (OpenSSLEngineOptions.isAvailable()) {
                    // BoringSSL: HTTPS at a fraction of the JDK engine's CPU per request.
                    ho.setSslEngineOptions(new OpenSSLEngineOptions());
                  }
                  // HTTP/2 through ALPN, as kube-apiserver offers: client-go multiplexes its
                  // requests on one connection, and concurrent writes then share a log sync.
                  ho.setUseAlpn(true)
                      .setInitialSettings(
                          new io.vertx.core.http.Http2Settings()
                              .setMaxHeaderListSize(MAX_HEADER_BYTES)
                              .setInitialWindowSize(1 << 20)
                              .setMaxConcurrentStreams(1000))
                      .setHttp2ConnectionWindowSize(16 << 20);
                }
                HttpServer s = new ConnectionTimeouts(o.httpTimeouts()).create(vertx, ho, handler);
                s.listen()
                    .onSuccess(x -> {
                      servers.add(s);
                      started.complete();
                    })
                    .onFailure(started::fail);
              }
            };
    return vertx
        .deployVerticle(verticle, new io.vertx.core.DeploymentOptions().setInstances(count))
        .toCompletionStage()
        .toCompletableFuture()
        .thenApply(id -> List.copyOf(servers));
  }

  private static List<HttpServer> awaitListening(
      CompletableFuture<List<HttpServer>> listening, ApiServerOptions o, int port)
      throws IOException {
    try {
      return listening.get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IOException("listen on " + o.bindAddress() + ":" + port + ": " + rootMessage(e), e);
    }
  }

  private static int freePort(String host) throws IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new java.net.InetSocketAddress(host, 0));
      return s.getLocalPort();
    }
  }

  private static String rootMessage(Throwable e) {
    while (e.getCause() != null) {
      e = e.getCause();
    }
    return String.valueOf(e.getMessage());
  }

  private static void closeQuietly(Vertx vertx, Storage storage) {
    if (vertx != null) {
      vertx.close();
    }
    try {
      storage.close();
    } catch (IOException e) {
      LOG.warn("Closing storage failed", e);
    }
  }

  /** Base URL, e.g. {@code https://127.0.0.1:6443}. */
  public URI url() {
    return url;
  }

  /** The bearer token clients must send, or null when none is required. */
  public String token() {
    return token;
  }

  /** PEM of the CA that signed the serving certificate, or null over plain HTTP. */
  public String caCertificatePem() {
    return security == null ? null : security.caPem();
  }

  /**
   * Hands requests to this server in memory, for components running in this process: same answers,
   * authentication and watches as over {@link #url()}, without socket, HTTP or TLS.
   */
  public InProcessTransport inProcess() {
    return inProcess;
  }

  /** The server's own metrics ({@code apiserver_request_total}). */
  public PrometheusRegistry metrics() {
    return metrics;
  }

  public ApiServerOptions options() {
    return options;
  }

  /** The newest resourceVersion (for tests and benchmarks). */
  public long currentResourceVersion() {
    return storage.currentVersion();
  }

  /** The REST layer, for in-process use by tests. */
  public ObjectService service() {
    return service;
  }

  /** Stops listening, then flushes and closes storage. */
  @Override
  public void close() {
    inProcess.close();
    controllers.close();
    for (HttpServer s : servers) {
      s.close();
    }
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.warn("Closing Vert.x failed", e);
    }
    try {
      storage.close();
    } catch (IOException e) {
      LOG.warn("Closing storage failed", e);
    }
  }
}
