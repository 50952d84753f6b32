package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.storage.LogRecord;
import io.jdra.apiserver.storage.Persistence;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Nothing a client reads can be lost in a crash: while a write is not yet durable, a GET, a LIST
 * and the initial events of a watch that shows it all wait, and answer once it is (issue 15,
 * findings 4 and its watch-list case). The persistence here holds writes until the test lets them
 * through, as a log sync that has not finished yet.
 */
class DurableReadsTest {
  /** A persistence whose appends complete only once {@link #release} is called. */
  static final class Gate implements Persistence {
    private final CompletableFuture<Void> done = CompletableFuture.completedFuture(null);
    private List<CompletableFuture<Void>> held = new ArrayList<>();
    private boolean holding;

    synchronized void hold() {
      holding = true;
    }

    void release() {
      List<CompletableFuture<Void>> pending;
      synchronized (this) {
        holding = false;
        pending = held;
        held = new ArrayList<>();
      }
      pending.forEach(f -> f.complete(null)); // outside the lock: completions reach the stores
    }

    @Override
    public Recovered recover() {
      return new Recovered(0, List.of(), List.of());
    }

    @Override
    public synchronized CompletableFuture<Void> append(LogRecord record) {
      if (!holding) {
        return done;
      }
      CompletableFuture<Void> f = new CompletableFuture<>();
      held.add(f);
      return f;
    }

    @Override
    public synchronized CompletableFuture<Void> barrier() {
      return CompletableFuture.allOf(held.toArray(CompletableFuture[]::new));
    }

    @Override
    public boolean snapshotDue() {
      return false;
    }

    @Override
    public void rotate() {}

    @Override
    public void writeSnapshot(long version, List<LogRecord> objects) {}

    @Override
    public void close() {}
  }

  static final String CMS = "/api/v1/namespaces/default/configmaps";

  final Gate gate = new Gate();
  final HttpClient http = HttpClient.newHttpClient();
  EmbeddedApiServer server;

  @BeforeEach
  void start() {
    server = EmbeddedApiServer.start(ApiServerOptions.inMemory(), gate);
  }

  @AfterEach
  void stop() {
    gate.release();
    server.close();
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(server.url() + path));
  }

  /** The lines of a watch, as they arrive. */
  private BlockingQueue<String> watch(String query) throws Exception {
    HttpResponse<Stream<String>> r =
        http.send(
            request(CMS + "?watch=true&labelSelector=case%3Ddurable&" + query).build(),
            HttpResponse.BodyHandlers.ofLines());
    assertThat(r.statusCode()).isEqualTo(200);
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread.ofVirtual().start(() -> r.body().forEach(lines::add));
    return lines;
  }

  @Test
  void readsAndInitialWatchEventsWaitUntilWhatTheyShowIsDurable() throws Exception {
    BlockingQueue<String> legacy = watch("resourceVersion=0");
    gate.hold();
    CompletableFuture<HttpResponse<String>> create =
        http.sendAsync(
            request(CMS)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"metadata\":{\"name\":\"unsynced\",\"labels\":{\"case\":\"durable\"}}}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    ResourceType cms = server.service().registry().find("", "v1", "configmaps").orElseThrow();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> server.service().store(cms).get("default", "unsynced") != null);

    CompletableFuture<HttpResponse<String>> get =
        http.sendAsync(request(CMS + "/unsynced").build(), HttpResponse.BodyHandlers.ofString());
    CompletableFuture<HttpResponse<String>> list =
        http.sendAsync(request(CMS).build(), HttpResponse.BodyHandlers.ofString());
    BlockingQueue<String> fromZero = watch("resourceVersion=0");
    BlockingQueue<String> watchList =
        watch("sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true");

    // In memory the write is there, but until it is durable no client may see it.
    await()
        .during(Duration.ofMillis(400))
        .atMost(Duration.ofSeconds(3))
        .until(() ->
            !create.isDone()
                && !get.isDone()
                && !list.isDone()
                && legacy.isEmpty()
                && fromZero.isEmpty()
                && watchList.isEmpty());

    gate.release();

    assertThat(create.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
    assertThat(get.get(10, TimeUnit.SECONDS).body()).contains("\"name\":\"unsynced\"");
    assertThat(list.get(10, TimeUnit.SECONDS).body()).contains("\"name\":\"unsynced\"");
    for (BlockingQueue<String> w : List.of(legacy, fromZero, watchList)) {
      String first = w.poll(10, TimeUnit.SECONDS);
      assertThat(first).contains("\"type\":\"ADDED\"").contains("\"name\":\"unsynced\"");
    }
    assertThat(watchList.poll(10, TimeUnit.SECONDS))
        .contains("\"type\":\"BOOKMARK\"")
        .contains("k8s.io/initial-events-end");
  }
}
