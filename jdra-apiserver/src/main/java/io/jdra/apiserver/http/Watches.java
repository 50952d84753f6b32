package io.jdra.apiserver.http;

import io.jdra.apiserver.convert.Conversion;
import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.rest.ObjectService;
import io.jdra.apiserver.storage.ResourceStore;
import io.jdra.apiserver.storage.StorageException;
import io.jdra.apiserver.storage.StoredObject;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/**
 * Starts watches over chunked HTTP or WebSocket (fabric8 tries WebSocket first), with
 * timeoutSeconds, bookmarks and 410 Gone as an ERROR event. Start points follow kube-apiserver 1.36
 * with WatchList on: a watch from "" or "0" (or with sendInitialEvents=true) first streams the
 * current state, then, with allowWatchBookmarks, a BOOKMARK annotated {@value #INITIAL_EVENTS_END};
 * sendInitialEvents=false starts from now; a resourceVersion starts after it. Thread-safe.
 */
final class Watches {
  /** The annotation of the BOOKMARK that ends a watch's initial events. */
  static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";

  private final ObjectService service;
  private final Vertx vertx;
  private final Duration bookmarkInterval;
  private final Duration defaultTimeout;

  Watches(ObjectService service, Vertx vertx, Duration bookmarkInterval, Duration defaultTimeout) {
    this.service = service;
    this.vertx = vertx;
    this.bookmarkInterval = bookmarkInterval;
    this.defaultTimeout = defaultTimeout;
  }

  void watch(Request r, ResourceHandler.Selectors selectors) {
    ListOptions options = ListOptions.of(r, true);
    Start from = Start.of(options);
    int timeout = ResourceHandler.intParam(r, "timeoutSeconds");
    boolean bookmarks = options.allowWatchBookmarks();
    WatchSession.Encoder encoder = encoder(r);
    String upgrade = r.http().getHeader("Upgrade");
    Context ctx = Vertx.currentContext();
    if (upgrade != null && upgrade.equalsIgnoreCase("websocket")) {
      r.http()
          .webSocket()
          .onSuccess(sink -> start(r, ctx, selectors, from, timeout, bookmarks, encoder, sink))
          .onFailure(e -> Responses.error(r.http(), ApiException.badRequest(e.getMessage())));
      return;
    }
    Exchange resp = r.http();
    resp.setStatusCode(200);
    resp.setChunked(true);
    resp.putHeader(
        "Content-Type",
        r.wantsTable() ? "application/json;as=Table;v=v1;g=meta.k8s.io" : "application/json");
    resp.putHeader("Cache-Control", "no-cache, private");
    WatchSession.Sink sink =
        new WatchSession.Sink() {
          @Override
          public void write(Buffer event) {
            if (!resp.ended() && !resp.closed()) {
              resp.write(event);
            }
          }

          @Override
          public void end() {
            if (!resp.ended() && !resp.closed()) {
              resp.end();
            }
          }

          @Override
          public void onClose(Runnable r) {
            resp.closeHandler(r);
          }

          @Override
          public boolean full() {
            return resp.writeQueueFull();
          }

          @Override
          public void onDrain(Runnable r) {
            resp.drainHandler(r);
          }
        };
    // Send headers now so clients see the watch is established before the first event.
    resp.write(Buffer.buffer());
    start(r, ctx, selectors, from, timeout, bookmarks, encoder, sink);
  }

  /**
   * Where a watch starts, as upstream's watch cache with WatchList enabled.
   *
   * @param version the resourceVersion: events after it are sent (0: from now); with initial
   *     events, the version the server must have reached first
   * @param initialEvents whether the current state is sent first as ADDED events
   */
  record Start(long version, boolean initialEvents) {
    static Start of(ListOptions o) {
      long rv = ResourceVersions.parse(o.resourceVersion());
      return new Start(rv, Boolean.TRUE.equals(o.sendInitialEvents()));
    }
  }

  private void start(
      Request r,
      Context ctx,
      ResourceHandler.Selectors selectors,
      Start from,
      int timeoutSeconds,
      boolean bookmarks,
      WatchSession.Encoder encoder,
      WatchSession.Sink sink) {
    ResourceType t = r.type();
    String ns = t.namespaced() ? r.namespace() : "";
    WatchSession session =
        new WatchSession(ctx, t, encoder, ns, selectors.labels(), selectors.fields(), sink);
    ResourceStore store = service.store(t);
    long ms = timeoutSeconds > 0 ? timeoutSeconds * 1000L : defaultTimeout.toMillis();
    long bookmarkTimer =
        bookmarks
            ? vertx.setPeriodic(
                bookmarkInterval.toMillis(),
                id -> {
                  // No progress bookmark before the watch is registered (and its initial events
                  // are queued).
                  if (session.started()) {
                    store.progress(session);
                  }
                })
            : -1;
    long timeoutTimer =
        vertx.setTimer(
            ms,
            id -> {
              vertx.cancelTimer(bookmarkTimer);
              session.close();
            });
    Runnable stopTimers =
        () -> {
          vertx.cancelTimer(timeoutTimer);
          vertx.cancelTimer(bookmarkTimer);
        };
    sink.onClose(() -> {
      session.peerClosed();
      stopTimers.run();
    });
    Consumer<ApiException> fail =
        e -> {
          stopTimers.run();
          fail(session, e);
        };
    if (from.initialEvents()) {
      ResourceVersions.awaitFresh(
          vertx,
          service.storage()::currentVersion,
          from.version(),
          () -> startWithInitialEvents(store, session, bookmarks, fail),
          fail);
    } else {
      register(store, from.version(), session, fail);
    }
  }

  /**
   * Registers a watch that first gets the current state, sent only once that state is durable: the
   * initial events are a read, and what a client has read must survive a crash (later events wait
   * for durability in the store already).
   */
  private void startWithInitialEvents(
      ResourceStore store, WatchSession session, boolean bookmarks, Consumer<ApiException> fail) {
    session.hold();
    session.setCancel(store.watchFromNow(session::matches, session, true, bookmarks));
    service
        .storage()
        .durable()
        .whenComplete((v, err) -> {
          if (err == null) {
            session.release();
          } else {
            fail.accept(ApiException.internal(String.valueOf(ResourceHandler.unwrap(err))));
          }
        });
  }

  /** Starts a watch without initial events, or ends it with an ERROR when it is too old. */
  private static void register(
      ResourceStore store, long from, WatchSession session, Consumer<ApiException> fail) {
    try {
      session.startAfter(from);
      session.setCancel(
          from == 0
              ? store.watchFromNow(session::matches, session, false, false)
              : store.watch(from, session));
    } catch (StorageException.Gone g) {
      fail.accept(ApiException.gone(g.getMessage()));
    }
  }

  /** Ends a watch with an ERROR event carrying the Status, as upstream's errWatcher. */
  private static void fail(WatchSession session, ApiException e) {
    session.failAndClose(WatchSession.event("ERROR", Buffer.buffer(Json.bytes(e.toStatus()))));
  }

  private WatchSession.Encoder encoder(Request r) {
    ResourceType t = r.type();
    String version = r.version();
    boolean table = r.wantsTable();
    return new WatchSession.Encoder() {
      @Override
      public Buffer encode(String type, StoredObject object) {
        if (table) {
          ObjectNode tree = Encoding.printable(t, version, object);
          ObjectNode tab =
              Tables.table(
                  t,
                  List.of(tree),
                  Long.toString(object.resourceVersion()),
                  service.clock().instant());
          return WatchSession.event(type, Buffer.buffer(Json.bytes(tab)));
        }
        if (!Conversion.needed(t, version)) {
          return SharedEvents.event(type, object); // one encoding for every watcher
        }
        return WatchSession.event(type, Encoding.object(t, version, object));
      }

      @Override
      public Buffer bookmark(long v) {
        ObjectNode o = Json.object();
        o.put("kind", t.kind());
        o.put("apiVersion", t.apiVersion(version));
        o.putObject("metadata").put("resourceVersion", Long.toString(v));
        return WatchSession.event("BOOKMARK", Buffer.buffer(Json.bytes(o)));
      }

      @Override
      public Buffer initialEventsEnd(long v) {
        ObjectNode o = Json.object();
        o.put("kind", t.kind());
        o.put("apiVersion", t.apiVersion(version));
        ObjectNode meta = o.putObject("metadata");
        meta.put("resourceVersion", Long.toString(v));
        meta.putObject("annotations").put(INITIAL_EVENTS_END, "true");
        return WatchSession.event("BOOKMARK", Buffer.buffer(Json.bytes(o)));
      }
    };
  }
}
