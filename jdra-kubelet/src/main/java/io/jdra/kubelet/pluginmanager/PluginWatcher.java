package io.jdra.kubelet.pluginmanager;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.jdra.proto.UnixSockets;
import io.jdra.proto.pluginregistration.v1.InfoRequest;
import io.jdra.proto.pluginregistration.v1.PluginInfo;
import io.jdra.proto.pluginregistration.v1.RegistrationGrpc;
import io.jdra.proto.pluginregistration.v1.RegistrationStatus;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.logging.Logger;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Watches the kubelet's plugin registration directory ({@code <root>/plugins_registry}) and
 * registers every plugin whose socket appears there (upstream pluginwatcher + reconciler +
 * operation executor, folded into one): GetInfo on the registration socket, the handler for the
 * plugin's type validates and registers it, and NotifyRegistrationStatus tells the plugin the
 * outcome. A socket that disappears deregisters its plugin; a socket replaced by a new one (a
 * restarted plugin) is deregistered and registered again.
 *
 * <p>Sockets already present at start count as added. Files whose names start with "." and anything
 * that is not a Unix socket are ignored. All registration work happens in {@link #rescan}, one call
 * at a time, triggered by inotify events. A socket whose GetInfo fails (a plugin that created its
 * socket file a moment before it listens, or one still starting) is retried with upstream's
 * operation backoff, 500 ms doubling to 2 min 2 s, as the kubelet's reconciler does: no further
 * change in the directory may ever come.
 */
public final class PluginWatcher implements AutoCloseable {
  /** Upstream's timeout for GetInfo and NotifyRegistrationStatus on a registration socket. */
  private static final long REGISTRATION_CALL_SECONDS = 10;

  /** Upstream's exponential backoff for a failed operation: initial and maximum delay. */
  static final Duration RETRY_INITIAL = Duration.ofMillis(500);

  static final Duration RETRY_MAX = Duration.ofSeconds(122);

  private record Registered(
      Object fileKey, long modified, String type, String name, String endpoint) {}

  private final Path dir;
  private final Map<String, PluginHandler> handlers;
  private final Function<Path, ManagedChannel> channels;
  private final Map<Path, Registered> registered = new HashMap<>();

  /** Sockets whose GetInfo failed, with the number of failures in a row. */
  private final Map<Path, Integer> failures = new HashMap<>();

  private final CompletableFuture<Void> synced = new CompletableFuture<>();
  private Logger logger;
  private WatchService watch;
  private Thread thread;

  /** A watcher of {@code dir} dispatching plugin types (e.g. {@code DRAPlugin}) to handlers. */
  public PluginWatcher(Path dir, Map<String, PluginHandler> handlers) {
    this(dir, handlers, UnixSockets::channel);
  }

  /** As above, dialling registration sockets through {@code channels} (tests inject failures). */
  PluginWatcher(
      Path dir, Map<String, PluginHandler> handlers, Function<Path, ManagedChannel> channels) {
    this.dir = dir;
    this.handlers = Map.copyOf(handlers);
    this.channels = channels;
  }

  /** Creates the directory, registers what is there, and follows changes until {@link #close}. */
  public synchronized void start(Ctx ctx) throws IOException {
    logger = ctx.logger().withName("plugin-watcher");
    Files.createDirectories(dir);
    watch = dir.getFileSystem().newWatchService();
    dir.register(
        watch,
        StandardWatchEventKinds.ENTRY_CREATE,
        StandardWatchEventKinds.ENTRY_DELETE,
        StandardWatchEventKinds.ENTRY_MODIFY);
    rescan();
    synced.complete(null);
    thread = Thread.ofVirtual().name("plugin-watcher " + dir).start(this::loop);
    ctx.onCancel(this::close);
  }

  /** Completes once the sockets present at start have been processed. */
  public CompletableFuture<Void> synced() {
    return synced;
  }

  private void loop() {
    while (true) {
      try {
        WatchService w;
        synchronized (this) {
          w = watch;
        }
        if (w == null) {
          return; // closed
        }
        long retryMillis = retryDelayMillis();
        var key = retryMillis < 0 ? w.take() : w.poll(retryMillis, TimeUnit.MILLISECONDS);
        if (key != null) {
          key.pollEvents();
          key.reset();
        }
        rescan();
      } catch (ClosedWatchServiceException | InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        logger.error(e, "Plugin watcher rescan failed", "dir", dir.toString());
      }
    }
  }

  /**
   * Brings registrations in line with the directory: new or replaced sockets are registered,
   * removed ones deregistered. Safe to call at any time (tests call it to be deterministic).
   */
  public synchronized void rescan() {
    Map<Path, BasicFileAttributes> sockets = sockets();
    failures.keySet().retainAll(sockets.keySet());
    for (Path gone : new HashSet<>(registered.keySet())) {
      BasicFileAttributes now = sockets.get(gone);
      Registered r = registered.get(gone);
      if (now == null || !sameFile(r, now)) {
        deregister(gone, r);
      }
    }
    for (var e : sockets.entrySet()) {
      if (!registered.containsKey(e.getKey())) {
        register(e.getKey(), e.getValue());
      }
    }
  }

  /**
   * How long until the next retry of a failed socket (the fewest failures decide), or -1 when none
   * failed.
   */
  private synchronized long retryDelayMillis() {
    return failures.values().stream().mapToLong(PluginWatcher::backoffMillis).min().orElse(-1);
  }

  static long backoffMillis(int failuresInARow) {
    long delay = RETRY_INITIAL.toMillis() << Math.min(failuresInARow - 1, 20);
    return Math.min(delay, RETRY_MAX.toMillis());
  }

  private static boolean sameFile(Registered r, BasicFileAttributes a) {
    return Objects.equals(r.fileKey(), a.fileKey())
        && r.modified() == a.lastModifiedTime().toMillis();
  }

  private Map<Path, BasicFileAttributes> sockets() {
    Map<Path, BasicFileAttributes> out = new HashMap<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        if (p.getFileName().toString().startsWith(".")) {
          continue;
        }
        BasicFileAttributes a =
            Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isOther()) { // sockets are "other" (neither file, directory nor link)
          out.put(p, a);
        }
      }
    } catch (IOException e) {
      logger.error(e, "Listing plugin registration directory failed", "dir", dir.toString());
    }
    return out;
  }

  private void register(Path socket, BasicFileAttributes attrs) {
    Logger log = logger.withValues("path", socket.toString());
    ManagedChannel channel = channels.apply(socket);
    try {
      var stub = RegistrationGrpc.newBlockingStub(channel);
      PluginInfo info =
          stub.withDeadlineAfter(REGISTRATION_CALL_SECONDS, TimeUnit.SECONDS)
              .getInfo(InfoRequest.getDefaultInstance());
      failures.remove(socket);
      String error = registerWithHandler(info);
      // Remembered even when it failed, so a broken plugin is not retried in a tight loop; it
      // gets another chance when its socket is recreated.
      registered.put(
          socket,
          new Registered(
              attrs.fileKey(),
              attrs.lastModifiedTime().toMillis(),
              info.getType(),
              info.getName(),
              info.getEndpoint()));
      var status = RegistrationStatus.newBuilder().setPluginRegistered(error == null);
      if (error != null) {
        status.setError(error);
        log.info("Plugin registration failed", "plugin", info.getName(), "err", error);
      } else {
        log.v(2).info("Registered plugin", "plugin", info.getName(), "type", info.getType());
      }
      stub.withDeadlineAfter(REGISTRATION_CALL_SECONDS, TimeUnit.SECONDS)
          .notifyRegistrationStatus(status.build());
    } catch (StatusRuntimeException e) {
      // Not answering GetInfo: the socket may be stale or the plugin still starting. Retried
      // with backoff, and at once on the next change in the directory.
      int n = failures.merge(socket, 1, Integer::sum);
      log.info(
          "GetInfo on registration socket failed",
          "err",
          e.getStatus().toString(),
          "failures",
          n,
          "retryIn",
          Duration.ofMillis(backoffMillis(n)).toString());
    } finally {
      channel.shutdownNow();
    }
  }

  /** Returns null on success, else the error to send to the plugin. */
  private String registerWithHandler(PluginInfo info) {
    PluginHandler handler = handlers.get(info.getType());
    if (handler == null) {
      return "no handler registered for plugin type: " + info.getType();
    }
    try {
      handler.validatePlugin(info.getName(), info.getEndpoint(), info.getSupportedVersionsList());
    } catch (Exception e) {
      return "RegisterPlugin error -- plugin validation failed with err: " + e.getMessage();
    }
    try {
      handler.registerPlugin(
          info.getName(), info.getEndpoint(), info.getSupportedVersionsList(), null);
    } catch (Exception e) {
      return "RegisterPlugin error -- plugin registration failed with err: " + e.getMessage();
    }
    return null;
  }

  private void deregister(Path socket, Registered r) {
    registered.remove(socket);
    PluginHandler handler = handlers.get(r.type());
    if (handler != null) {
      handler.deRegisterPlugin(r.name(), r.endpoint());
    }
    logger.v(2).info("Deregistered plugin", "plugin", r.name(), "path", socket.toString());
  }

  /** Names of the plugins currently registered through this watcher. */
  public synchronized Set<String> registeredPlugins() {
    Set<String> out = new HashSet<>();
    registered.values().forEach(r -> out.add(r.name()));
    return out;
  }

  @Override
  public void close() {
    WatchService w;
    synchronized (this) {
      w = watch;
      watch = null;
    }
    if (w != null) {
      try {
        w.close();
      } catch (IOException e) {
        // closing; nothing to do
      }
    }
    if (thread != null) {
      thread.interrupt();
    }
  }
}
