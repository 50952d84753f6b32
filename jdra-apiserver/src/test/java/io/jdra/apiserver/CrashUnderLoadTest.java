package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jdra.apiserver.meta.Json;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * kill -9 of the server process while writers create, update and delete and readers read: after a
 * restart every acknowledged write is there, nothing a reader saw is gone, and no resourceVersion
 * is handed out twice. Two crashes on the same data directory, each after about a hundred
 * acknowledged writes (issue 15, findings 1 and 4 as a crashing machine sees them).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES) // a stuck server fails the test, not the build
class CrashUnderLoadTest {
  static final int WRITERS = 4;
  static final String CMS = "/api/v1/namespaces/default/configmaps";

  @TempDir Path dir;

  final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  /** What clients were told about one object, in the order they were told. */
  static final class Known {
    volatile long version; // the newest version acknowledged or read
    volatile boolean deleted; // its delete was acknowledged
    volatile boolean uncertain; // a write of it was in flight at the crash
  }

  final Map<String, Known> known = new ConcurrentHashMap<>();
  final AtomicInteger acknowledged = new AtomicInteger();
  final List<AssertionError> errors = new java.util.concurrent.CopyOnWriteArrayList<>();

  private Process startChild() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    return new ProcessBuilder(
            java,
            "-cp",
            System.getProperty("java.class.path"),
            DurableServerMain.class.getName(),
            dir.toString())
        .redirectErrorStream(true)
        .start();
  }

  private static URI awaitReady(Process p) throws Exception {
    BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = r.readLine()) != null) {
      if (line.startsWith("READY ")) {
        URI url = URI.create(line.substring(6).trim());
        Thread.ofPlatform().daemon().start(() -> r.lines().forEach(l -> {}));
        return url;
      }
    }
    throw new IllegalStateException("child server exited with " + p.waitFor());
  }

  @Test
  void acknowledgedWritesAndWhatWasReadSurviveKill9UnderLoad() throws Exception {
    for (int round = 0; round < 2; round++) {
      Process p = startChild();
      URI url = awaitReady(p);
      checkAfterRestart(url);
      acknowledged.set(0);
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        String prefix = "r" + round + "-w" + w + "-";
        writers.add(Thread.ofPlatform().start(() -> write(url, prefix)));
      }
      await().atMost(Duration.ofSeconds(60)).until(() -> acknowledged.get() >= 100);
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // kill -9 with writes in flight
      for (Thread t : writers) {
        t.join(30_000);
      }
      assertThat(errors).isEmpty();
    }
    Process p = startChild();
    try {
      checkAfterRestart(awaitReady(p));
    } finally {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** Creates, updates, deletes and reads its own objects until the server goes away. */
  private void write(URI url, String prefix) {
    String inFlight = null;
    try {
      for (int i = 0; ; i++) {
        String name = prefix + i;
        inFlight = name;
        long v = version(send(url, "POST", CMS, body(name, "0")), 201);
        record(name, v);
        if (i >= 3) {
          String earlier = prefix + (i - 3);
          inFlight = earlier;
          if (i % 4 == 0) {
            send(url, "DELETE", CMS + "/" + earlier, null);
            known.get(earlier).deleted = true;
            acknowledged.incrementAndGet();
          } else {
            record(
                earlier,
                version(send(url, "PUT", CMS + "/" + earlier, body(earlier, "" + i)), 200));
            inFlight = null;
            long read = version(send(url, "GET", CMS + "/" + earlier, null), 200);
            known.get(earlier).version = Math.max(known.get(earlier).version, read);
          }
        }
        inFlight = null;
      }
    } catch (AssertionError wrong) {
      errors.add(wrong); // an answer the server should not have given
    } catch (Exception crashed) {
      if (inFlight != null) {
        known.computeIfAbsent(inFlight, n -> new Known()).uncertain = true;
      }
    }
  }

  private void record(String name, long version) {
    Known k = known.computeIfAbsent(name, n -> new Known());
    k.version = Math.max(k.version, version);
    acknowledged.incrementAndGet();
  }

  private static String body(String name, String value) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
        + name
        + "\"},\"data\":{\"v\":\""
        + value
        + "\"}}";
  }

  private HttpResponse<String> send(URI url, String method, String path, String body)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(url.resolve(path)).timeout(Duration.ofSeconds(20));
    b.header("Content-Type", "application/json");
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() >= 300) {
      throw new IllegalStateException(method + " " + path + ": " + r.statusCode() + r.body());
    }
    return r;
  }

  private static long version(HttpResponse<String> r, int expected) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(expected);
    JsonNode o = Json.MAPPER.readTree(r.body());
    return Long.parseLong(o.at("/metadata/resourceVersion").asString());
  }

  /** Every object as clients last knew it, and new versions above all they have seen. */
  private void checkAfterRestart(URI url) throws Exception {
    Map<String, Long> stored = new HashMap<>();
    JsonNode list = Json.MAPPER.readTree(send(url, "GET", CMS, null).body());
    for (JsonNode item : list.get("items")) {
      stored.put(
          item.at("/metadata/name").asString(),
          Long.parseLong(item.at("/metadata/resourceVersion").asString()));
    }
    long newest = 0;
    for (Map.Entry<String, Known> e : known.entrySet()) {
      Known k = e.getValue();
      newest = Math.max(newest, k.version);
      Long v = stored.get(e.getKey());
      if (k.uncertain) {
        continue; // its last write may or may not have happened
      }
      if (k.deleted) {
        assertThat(v).as(e.getKey() + " was deleted").isNull();
      } else {
        assertThat(v).as(e.getKey() + " was acknowledged or read").isNotNull();
        assertThat(v).as(e.getKey()).isGreaterThanOrEqualTo(k.version);
      }
    }
    long next = version(send(url, "POST", CMS, body("probe-" + known.size(), "")), 201);
    assertThat(next).as("a version handed out again").isGreaterThan(newest);
    send(url, "DELETE", CMS + "/probe-" + known.size(), null);
    Set<String> lost = new java.util.TreeSet<>(known.keySet());
    lost.removeIf(n -> known.get(n).uncertain || known.get(n).deleted || stored.containsKey(n));
    assertThat(lost).isEmpty();
  }
}
