package io.jdra.httpclient;

import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;

/**
 * fabric8's Vert.x HTTP client whose WebSockets keep every message. fabric8 finds this factory with
 * its ServiceLoader and prefers it to its own Vert.x factory ({@link #priority}).
 *
 * <p>Why: fabric8 opens a WebSocket (every watch) by calling Vert.x's {@code
 * HttpClient.webSocket(options)} on its own thread and then registering what to do on success.
 * Vert.x completes that future on its event loop and resumes the socket first, so when the server
 * sends right after the upgrade (a watch from a resourceVersion replays the events after it at
 * once, as kube-apiserver does) and fabric8's thread has not registered yet, those frames reach a
 * socket without handlers and are dropped: the watch stays open and silent. With this factory the
 * socket is opened from a task on the client's own event loop, so the registration happens before
 * the event loop can complete the upgrade.
 *
 * <p>Each client built gets its own Vert.x instance, made as fabric8 makes one (daemon threads, no
 * file caching, the JDK's DNS resolver), and closes it when the client is closed. Reconnects that
 * fabric8 starts (a watch's) go through the same path; only the retries fabric8's HTTP layer makes
 * by itself after a failed upgrade do not.
 */
public final class VertxClientFactory implements HttpClient.Factory {
  /** Above fabric8's Vert.x factory (-2), so that ServiceLoader picks this one over it. */
  static final int PRIORITY = 0;

  private static final String DISABLE_DNS_RESOLVER = "vertx.disableDnsResolver";

  @Override
  public int priority() {
    return PRIORITY;
  }

  @Override
  public HttpClient.Builder newBuilder() {
    return new DeferredBuilder(VertxClientFactory::newVertx);
  }

  /** A client's own Vert.x, made with the options fabric8 gives the one it makes for a client. */
  static Vertx newVertx() {
    VertxOptions options =
        new VertxOptions()
            .setFileSystemOptions(
                new FileSystemOptions()
                    .setFileCachingEnabled(false)
                    .setClassPathResolvingEnabled(false))
            .setUseDaemonThread(true);
    // Vert.x reads this property when an instance is made: the JDK resolver, as fabric8 uses.
    synchronized (VertxClientFactory.class) {
      String before = System.getProperty(DISABLE_DNS_RESOLVER);
      System.setProperty(DISABLE_DNS_RESOLVER, "true");
      try {
        return Vertx.vertx(options);
      } finally {
        if (before == null) {
          System.clearProperty(DISABLE_DNS_RESOLVER);
        } else {
          System.setProperty(DISABLE_DNS_RESOLVER, before);
        }
      }
    }
  }

  /** Whether {@code client} was built by this factory (for tests of the modules that use it). */
  public static boolean built(HttpClient client) {
    return client instanceof EventLoopWebSocketClient;
  }

  /** fabric8's builder for a client on {@code vertx}, which the caller owns. */
  static HttpClient.Builder fabric8Builder(Vertx vertx) {
    return new VertxHttpClientFactory(vertx).newBuilder();
  }
}
