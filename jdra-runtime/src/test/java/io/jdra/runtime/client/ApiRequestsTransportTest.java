package io.jdra.runtime.client;

import static io.jdra.runtime.client.ApiRequestsTest.assertSameFailure;
import static io.jdra.runtime.client.ApiRequestsTest.clientFor;
import static io.jdra.runtime.client.ApiRequestsTest.failure;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.testing.objects.Make;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Answers the embedded API server does not give (server errors, no answer at all), from a plain
 * HTTP server: the requests fail, retry and time out as the client's DSL does.
 */
class ApiRequestsTransportTest {
  private static final String STATUS_500 =
      "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
          + "\"message\":\"etcdserver: request timed out\",\"reason\":\"InternalError\","
          + "\"code\":500}";

  private final AtomicInteger requests = new AtomicInteger();
  private final CountDownLatch release = new CountDownLatch(1);
  private HttpServer server;
  private KubernetesClient client;

  @AfterEach
  void stop() {
    release.countDown();
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.stop(0);
    }
  }

  private interface Handler {
    void handle(HttpExchange exchange) throws IOException, InterruptedException;
  }

  private ApiRequests.Resource<ResourceClaim> serve(int timeoutMillis, int retries, Handler h)
      throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext(
        "/",
        exchange -> {
          requests.incrementAndGet();
          try {
            h.handle(exchange);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            exchange.close();
          }
        });
    server.start();
    client =
        clientFor(
            "http://127.0.0.1:" + server.getAddress().getPort() + "/", timeoutMillis, retries);
    return new ApiRequests(client)
        .resource("resource.k8s.io/v1", "resourceclaims", ResourceClaim.class);
  }

  private static void answer(HttpExchange exchange, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, bytes.length == 0 ? -1 : bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  @Test
  void serverErrorWithStatusIsTheDslsExceptionAfterTheSameRetries() throws IOException {
    ApiRequests.Resource<ResourceClaim> claims = serve(10_000, 2, x -> answer(x, 500, STATUS_500));
    ResourceClaim claim = Make.claim("c").namespace("ns").request("gpu.example.com").obj();
    assertSameFailure(
        500,
        () -> client.resources(ResourceClaim.class).inNamespace("ns").resource(claim).create(),
        () -> {
          requests.set(0);
          claims.create("ns", claim);
        });
    assertThat(requests).as("first attempt and two retries").hasValue(3);
    assertThat(failure(() -> claims.get("ns", "c")).getStatus().getReason())
        .isEqualTo("InternalError");
  }

  @Test
  void serverErrorWithoutBodyIsTheDslsException() throws IOException {
    ApiRequests.Resource<ResourceClaim> claims = serve(10_000, 0, x -> answer(x, 503, ""));
    assertSameFailure(
        503,
        () -> client.resources(ResourceClaim.class).inNamespace("ns").withName("c").get(),
        () -> claims.get("ns", "c"));
  }

  @Test
  void noAnswerFailsAfterTheRequestTimeout() throws IOException {
    ApiRequests.Resource<ResourceClaim> claims = serve(300, 0, x -> release.await());
    long start = System.nanoTime();
    var ours = failure(() -> claims.get("ns", "c"));
    long tookMillis = (System.nanoTime() - start) / 1_000_000;
    var dsl =
        failure(() -> client.resources(ResourceClaim.class).inNamespace("ns").withName("c").get());
    assertThat(tookMillis).isBetween(300L, 5_000L);
    assertThat(ours.getCode()).isEqualTo(dsl.getCode());
    assertThat(ours.getStatus()).isEqualTo(dsl.getStatus());
    assertThat(ours.getCause()).isNotNull().hasSameClassAs(rootOrSelf(dsl));
  }

  @Test
  void deleteCollectionSendsWhatTheDslSends() throws IOException {
    List<String> seen = new CopyOnWriteArrayList<>();
    serve(
        10_000,
        0,
        x -> {
          seen.add(
              x.getRequestMethod()
                  + " "
                  + x.getRequestURI()
                  + " "
                  + x.getRequestHeaders().getFirst("Content-Type")
                  + " "
                  + new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          answer(x, 200, "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[]}");
        });
    client
        .pods()
        .inNamespace("ns")
        .withGracePeriod(0)
        .withPropagationPolicy(DeletionPropagation.BACKGROUND)
        .delete();
    new ApiRequests(client)
        .resource("v1", "pods", Void.class)
        .deleteCollection(
            "ns",
            new DeleteOptionsBuilder()
                .withGracePeriodSeconds(0L)
                .withPropagationPolicy("Background")
                .build());
    assertThat(seen).hasSize(2);
    assertThat(seen.get(0)).startsWith("DELETE /api/v1/namespaces/ns/pods application/json");
    assertThat(seen.get(1)).isEqualTo(seen.get(0));
  }

  /** The DSL wraps the transport's exception once more than we do. */
  private static Throwable rootOrSelf(Throwable dsl) {
    Throwable t = dsl.getCause();
    return t == null ? dsl : t;
  }
}
