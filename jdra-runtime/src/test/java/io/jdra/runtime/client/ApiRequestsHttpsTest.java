package io.jdra.runtime.client;

import static io.jdra.runtime.client.ApiRequestsTest.assertSameFailure;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.jdra.apiserver.ApiServerOptions;
import io.jdra.testing.apiserver.TestApiServer;
import io.jdra.testing.objects.Make;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link ApiRequests} over HTTPS with a bearer token against the embedded API server (TLS, token
 * authentication, HTTP/2 offered through ALPN, as kube-apiserver): the answers and every failure
 * are those of the client's DSL.
 */
class ApiRequestsHttpsTest {
  private static TestApiServer server;
  private static KubernetesClient client;

  private final String ns = "ns-" + UUID.randomUUID().toString().substring(0, 8);

  @BeforeAll
  static void start() {
    server = TestApiServer.start(ApiServerOptions.inMemory().withSecurity(true));
    client = server.client();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private ApiRequests.Resource<ResourceClaim> claims(KubernetesClient c) {
    ApiRequests api = new ApiRequests(c);
    return api.resource("resource.k8s.io/v1", "resourceclaims", ResourceClaim.class);
  }

  private void createNamespace() {
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
  }

  /**
   * A create and GETs over TLS with the token; the failures' mapping is the same code as over plain
   * HTTP ({@link ApiRequestsTest}).
   */
  @Test
  void answersComeBackOverHttpsWithTheToken() {
    assertThat(server.server().url().getScheme()).isEqualTo("https");
    createNamespace();
    ApiRequests.Resource<ResourceClaim> claims = claims(client);
    ResourceClaim created =
        claims.create(ns, Make.claim("c").namespace(ns).request("gpu.example.com").obj());
    assertThat(claims.get(ns, "c")).isEqualTo(created);
    assertThat(claims.get(ns, "missing")).isNull();
  }

  /** Concurrent GETs and unread PATCHes each get their own answer (connections are reused). */
  @Test
  void concurrentRequestsGetTheirOwnAnswers() throws Exception {
    createNamespace();
    ApiRequests api = new ApiRequests(client);
    ApiRequests.Resource<ResourceClaim> claims =
        api.resource("resource.k8s.io/v1", "resourceclaims", ResourceClaim.class);
    ApiRequests.Resource<Void> unread =
        api.resource("resource.k8s.io/v1", "resourceclaims", Void.class);
    for (int i = 0; i < 8; i++) {
      claims.create(ns, Make.claim("c" + i).namespace(ns).request("gpu.example.com").obj());
    }
    var pool = java.util.concurrent.Executors.newFixedThreadPool(8);
    try {
      var done = new java.util.ArrayList<java.util.concurrent.Future<?>>();
      for (int t = 0; t < 8; t++) {
        String name = "c" + t;
        done.add(
            pool.submit(() -> {
              for (int i = 0; i < 50; i++) {
                unread.patch(
                    ns,
                    name,
                    ApiRequests.Patch.merge(),
                    "{\"metadata\":{\"labels\":{\"n\":\"" + i + "\"}}}");
                ResourceClaim got = claims.get(ns, name);
                assertThat(got).as(name).isNotNull();
                assertThat(got.getMetadata().getName()).isEqualTo(name);
                assertThat(got.getMetadata().getLabels()).containsEntry("n", "" + i);
              }
              return null;
            }));
      }
      for (var f : done) {
        f.get(60, java.util.concurrent.TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aWrongTokenIsTheDslsUnauthorized() {
    createNamespace();
    try (KubernetesClient wrong = clientWithToken("not-the-token")) {
      ApiRequests.Resource<ResourceClaim> claims = claims(wrong);
      assertSameFailure(
          401,
          () -> wrong.resources(ResourceClaim.class).inNamespace(ns).withName("c").get(),
          () -> claims.get(ns, "c"));
    }
  }

  /** A client of the server's URL and CA with another bearer token. */
  private static KubernetesClient clientWithToken(String token) {
    return new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder(client.getConfiguration()).withOauthToken(token).build())
        .build();
  }
}
