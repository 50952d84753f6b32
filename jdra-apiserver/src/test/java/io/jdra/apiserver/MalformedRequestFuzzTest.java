package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Malformed and mutated requests against a running server: bodies with flipped, cut and inserted
 * bytes or values of the wrong type, JSON, merge, strategic and apply patches with random
 * operations and directives, and random query strings (bad escapes included), as an attacker or a
 * buggy client sends them. Every one must get an answer below 500 within seconds, and the server
 * must keep serving. Bounded: a fixed number of requests from a fixed seed (override with {@code
 * -Djdra.fuzz.seed} and {@code -Djdra.fuzz.requests}), a few seconds in all.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES) // a stuck server fails the test, not the build
class MalformedRequestFuzzTest {
  static final long SEED = Long.getLong("jdra.fuzz.seed", 15L);
  static final int REQUESTS = Integer.getInteger("jdra.fuzz.requests", 900);

  /** The fuzzing stops here on a loaded machine, whatever it has sent by then. */
  static final Duration BUDGET = Duration.ofSeconds(10);

  static final int WORKERS = 3;

  static ServerFixture f;

  @BeforeAll
  static void start() {
    f = new ServerFixture();
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  /** A resource to aim at: its collection path and a valid object of it named "fz". */
  record Target(String collection, String valid) {}

  static final List<Target> TARGETS =
      List.of(
          new Target(
              "/api/v1/namespaces/default/configmaps",
              "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"fz\","
                  + "\"labels\":{\"a\":\"b\"},\"annotations\":{\"x\":\"y\"}},\"data\":{\"k\":\"v\"}}"),
          new Target(
              "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims",
              "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":"
                  + "{\"name\":\"fz\"},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\","
                  + "\"exactly\":{\"deviceClassName\":\"gpu.example.com\",\"count\":1,"
                  + "\"selectors\":[{\"cel\":{\"expression\":"
                  + "\"device.driver == 'gpu.example.com'\"}}]}}]}}}"),
          new Target(
              "/apis/resource.k8s.io/v1/deviceclasses",
              "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":"
                  + "{\"name\":\"fz\"},\"spec\":{\"selectors\":[{\"cel\":{\"expression\":"
                  + "\"device.attributes['x'].y > 1\"}}]}}"),
          new Target(
              "/api/v1/namespaces/default/pods",
              "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"fz\"},\"spec\":"
                  + "{\"containers\":[{\"name\":\"c\",\"image\":\"i\",\"ports\":"
                  + "[{\"containerPort\":80}],\"resources\":{\"claims\":[{\"name\":\"gpu\"}]}}],"
                  + "\"resourceClaims\":[{\"name\":\"gpu\",\"resourceClaimName\":\"fz\"}]}}"),
          new Target(
              "/apis/apps/v1/namespaces/default/deployments",
              "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"fz\"},"
                  + "\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"a\"}},"
                  + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"a\"}},\"spec\":"
                  + "{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}}"));

  /** An answer: the status code and what came back. */
  record Reply(int status, String text) {}

  /** One HTTP/1.1 request on its own connection; the whole answer must come within 15 s. */
  static Reply send(String method, String target, String contentType, byte[] body)
      throws IOException {
    try (Socket s = new Socket("127.0.0.1", f.server.url().getPort())) {
      s.setSoTimeout(15_000);
      StringBuilder head = new StringBuilder();
      head.append(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: x\r\n");
      head.append("Connection: close\r\n");
      if (contentType != null) {
        head.append("Content-Type: ").append(contentType).append("\r\n");
      }
      if (body != null) {
        head.append("Content-Length: ").append(body.length).append("\r\n");
      }
      head.append("\r\n");
      s.getOutputStream().write(head.toString().getBytes(StandardCharsets.UTF_8));
      if (body != null) {
        s.getOutputStream().write(body);
      }
      s.getOutputStream().flush();
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      InputStream in = s.getInputStream();
      byte[] buf = new byte[16384];
      int n;
      while ((n = in.read(buf)) >= 0) {
        got.write(buf, 0, n);
      }
      String text = got.toString(StandardCharsets.UTF_8);
      if (!text.startsWith("HTTP/1.1 ") || text.length() < 12) {
        return new Reply(-1, text);
      }
      return new Reply(Integer.parseInt(text.substring(9, 12)), text);
    }
  }

  @Test
  void malformedRequestsNeverGet5xxOrHangAndTheServerKeepsServing() throws Exception {
    for (Target t : TARGETS) {
      Reply r = send("POST", t.collection(), "application/json", utf8(t.valid()));
      assertThat(r.status()).as(r.text()).isEqualTo(201);
    }
    List<String> failures = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger sent = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
    long deadline = System.nanoTime() + BUDGET.toNanos();
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int w = 0; w < WORKERS; w++) {
        Random random = new Random(SEED * 31 + w);
        workers.add(pool.submit(() -> fuzz(random, REQUESTS / WORKERS, deadline, sent, failures)));
      }
      for (Future<?> w : workers) {
        w.get();
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(failures).as("seed %d, %d requests", SEED, sent.get()).isEmpty();
    assertThat(sent.get()).isGreaterThanOrEqualTo(Math.min(REQUESTS, 200));
    assertStillServing();
  }

  private static void fuzz(
      Random random, int count, long deadline, AtomicInteger sent, List<String> failures) {
    FuzzRequests gen = new FuzzRequests(random);
    for (int i = 0; i < count && System.nanoTime() < deadline; i++) {
      FuzzRequests.Request q = gen.next(TARGETS.get(random.nextInt(TARGETS.size())));
      try {
        Reply r = send(q.method(), q.target(), q.contentType(), q.body());
        if (r.status() < 100 || r.status() >= 500) {
          failures.add(q + "\n -> " + abbreviate(r.text()));
        }
      } catch (IOException e) {
        failures.add(q + "\n -> " + e);
      }
      sent.incrementAndGet();
      if (i % 100 == 99) {
        try {
          assertStillServing();
        } catch (IOException | AssertionError e) {
          failures.add("server stopped serving after " + q + ": " + e);
          return;
        }
      }
    }
  }

  private static void assertStillServing() throws IOException {
    Reply ready = send("GET", "/readyz", null, null);
    assertThat(ready.status()).as(ready.text()).isEqualTo(200);
    Reply list = send("GET", TARGETS.get(0).collection() + "?limit=1", null, null);
    assertThat(list.status()).as(list.text()).isEqualTo(200);
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String abbreviate(String s) {
    return s.length() <= 600 ? s : s.substring(0, 600) + "...";
  }
}
