package io.jdra.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.DeleteOptions;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.jdra.testing.apiserver.WithApiServer;
import io.jdra.testing.objects.Make;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import tools.jackson.databind.JsonNode;

/**
 * The requests against the embedded API server: what they write, and that every failure is the
 * exception the client's DSL throws for the same request (class, code, Status, message).
 */
@WithApiServer
class ApiRequestsTest {
  private static final PatchContext SSA =
      new PatchContext.Builder()
          .withPatchType(PatchType.SERVER_SIDE_APPLY)
          .withFieldManager("ResourceClaimController")
          .withForce(true)
          .build();

  private final KubernetesClient client;
  private final ApiRequests.Resource<ResourceClaim> claims;
  private final ApiRequests.Resource<Pod> podStatus;
  private final String ns = "ns-" + UUID.randomUUID().toString().substring(0, 8);

  ApiRequestsTest(KubernetesClient client) {
    this.client = client;
    ApiRequests api = new ApiRequests(client);
    this.claims = api.resource("resource.k8s.io/v1", "resourceclaims", ResourceClaim.class);
    this.podStatus = api.resource("v1", "pods", Pod.class).subresource("status");
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
  }

  private static ResourceClaim generated(String prefix) {
    ResourceClaim c = Make.claim("unused").request("gpu.example.com").obj();
    c.getMetadata().setName(null);
    c.getMetadata().setGenerateName(prefix);
    return c;
  }

  @Test
  void createsGetsAndUpdatesAsTheServerStoresThem() {
    ResourceClaim created = claims.create(ns, generated("pod-gpu-"));
    String name = created.getMetadata().getName();
    assertThat(name).startsWith("pod-gpu-").hasSizeGreaterThan("pod-gpu-".length());
    assertThat(claims.get(ns, name)).isEqualTo(created);
    assertThat(client.resources(ResourceClaim.class).inNamespace(ns).withName(name).get())
        .isEqualTo(created);

    ResourceClaim labelled =
        new ResourceClaimBuilder(created)
            .editMetadata()
            .addToLabels("a", "b")
            .endMetadata()
            .build();
    ResourceClaim updated = claims.update(ns, name, labelled);
    assertThat(updated.getMetadata().getLabels()).containsEntry("a", "b");
    assertThat(updated.getMetadata().getResourceVersion())
        .isNotEqualTo(created.getMetadata().getResourceVersion());
  }

  @Test
  void bodiesGivenAsJsonAreSentAsIs() {
    ResourceClaim created =
        claims.create(ns, client.getKubernetesSerialization().asJson(generated("json-")));
    String name = created.getMetadata().getName();
    assertThat(name).startsWith("json-");
    assertThat(created.getSpec()).isEqualTo(generated("json-").getSpec());

    String labelled =
        client
            .getKubernetesSerialization()
            .asJson(
                new ResourceClaimBuilder(created)
                    .editMetadata()
                    .addToLabels("from", "json")
                    .endMetadata()
                    .build());
    assertThat(claims.update(ns, name, labelled).getMetadata().getLabels())
        .containsEntry("from", "json");
    ApiRequests.Resource<Void> unread =
        new ApiRequests(client).resource("resource.k8s.io/v1", "resourceclaims", Void.class);
    assertThat(unread.create(ns, "{\"metadata\":{\"name\":\"plain\"},\"spec\":{}}")).isNull();
    assertThat(claims.get(ns, "plain")).isNotNull();
  }

  @Test
  void getOfAMissingObjectIsNullAsInTheDsl() {
    assertThat(claims.get(ns, "missing")).isNull();
    assertThat(client.resources(ResourceClaim.class).inNamespace(ns).withName("missing").get())
        .isNull();
  }

  @Test
  void serverSideApplyOwnsTheFieldsForTheFieldManager() {
    client.pods().inNamespace(ns).resource(Make.pod("p").namespace(ns).obj()).create();
    Pod applied =
        podStatus.patch(
            ns,
            "p",
            ApiRequests.Patch.serverSideApply("ResourceClaimController", true),
            statusApply("p", Map.of("gpu", "p-gpu-abcde")));
    assertThat(applied.getStatus().getResourceClaimStatuses())
        .containsExactly(new PodResourceClaimStatus("gpu", "p-gpu-abcde"));
    assertThat(applied.getMetadata().getManagedFields())
        .anySatisfy(f -> {
          assertThat(f.getManager()).isEqualTo("ResourceClaimController");
          assertThat(f.getOperation()).isEqualTo("Apply");
          assertThat(f.getSubresource()).isEqualTo("status");
        });
    Pod merged =
        podStatus.patch(
            ns, "p", ApiRequests.Patch.merge(), "{\"status\":{\"message\":\"merged\"}}");
    assertThat(merged.getStatus().getMessage()).isEqualTo("merged");
    assertThat(merged.getStatus().getResourceClaimStatuses()).hasSize(1);
  }

  @Test
  void answersAreReadAsJsonTreesAsTextOrNotAtAll() {
    client.pods().inNamespace(ns).resource(Make.pod("t").namespace(ns).obj()).create();
    ApiRequests api = new ApiRequests(client);
    ApiRequests.Resource<JsonNode> trees = api.resource("v1", "pods", JsonNode.class);
    ApiRequests.Resource<Void> unread =
        api.resource("v1", "pods", Void.class).subresource("status");

    assertThat(trees.get(ns, "t").path("metadata").path("name").asString()).isEqualTo("t");
    String text = api.resource("v1", "pods", String.class).get(ns, "t");
    assertThat(client.getKubernetesSerialization().unmarshal(text, JsonNode.class))
        .isEqualTo(trees.get(ns, "t"));
    assertThat(
            unread.patch(
                ns,
                "t",
                ApiRequests.Patch.strategicMerge(),
                "{\"status\":{\"message\":\"unread\"}}"))
        .isNull();
    assertThat(trees.get(ns, "t").path("status").path("message").asString()).isEqualTo("unread");
    assertThatThrownBy(() -> unread.patch(ns, "gone", ApiRequests.Patch.merge(), "{}"))
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }

  @Test
  void deleteCollectionDeletesTheNamespacesObjectsWithOrWithoutReadingTheAnswer() {
    String other = ns + "-other";
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(other).endMetadata().build())
        .create();
    for (String name : List.of("a", "b")) {
      client.pods().inNamespace(ns).resource(Make.pod(name).namespace(ns).obj()).create();
    }
    client.pods().inNamespace(other).resource(Make.pod("c").namespace(other).obj()).create();
    DeleteOptions now =
        new DeleteOptionsBuilder()
            .withGracePeriodSeconds(0L)
            .withPropagationPolicy("Background")
            .build();
    ApiRequests api = new ApiRequests(client);

    assertThat(api.resource("v1", "pods", Void.class).deleteCollection(ns, now)).isNull();
    assertThat(client.pods().inNamespace(ns).list().getItems()).isEmpty();
    assertThat(client.pods().inNamespace(other).list().getItems()).hasSize(1);

    PodList deleted =
        api.resource("v1", "pods", PodList.class)
            .deleteCollection(other, client.getKubernetesSerialization().asJson(now));
    assertThat(deleted.getItems())
        .map(HasMetadata::getMetadata)
        .map(m -> m.getName())
        .containsExactly("c");
    assertThat(client.pods().inNamespace(other).list().getItems()).isEmpty();
  }

  @Test
  void notFoundIsTheDslsException() {
    Pod body = statusApply("missing", Map.of("gpu", "x"));
    assertSameFailure(
        404,
        () ->
            client
                .pods()
                .inNamespace(ns)
                .withName("missing")
                .subresource("status")
                .patch(SSA, body),
        () ->
            podStatus.patch(
                ns,
                "missing",
                ApiRequests.Patch.serverSideApply("ResourceClaimController", true),
                body));
  }

  @Test
  void alreadyExistsIsTheDslsException() {
    ResourceClaim claim = Make.claim("twice").namespace(ns).request("gpu.example.com").obj();
    claims.create(ns, claim);
    KubernetesClientException e =
        assertSameFailure(
            409,
            () -> client.resources(ResourceClaim.class).inNamespace(ns).resource(claim).create(),
            () -> claims.create(ns, claim));
    assertThat(e.getStatus().getReason()).isEqualTo("AlreadyExists");
  }

  @Test
  void staleUpdateIsTheDslsConflict() {
    ResourceClaim created = claims.create(ns, generated("stale-"));
    String name = created.getMetadata().getName();
    claims.update(
        ns,
        name,
        new ResourceClaimBuilder(created)
            .editMetadata()
            .addToLabels("a", "b")
            .endMetadata()
            .build());
    KubernetesClientException e =
        assertSameFailure(
            409,
            () -> client.resources(ResourceClaim.class).inNamespace(ns).resource(created).update(),
            () -> claims.update(ns, name, created));
    assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
  }

  @Test
  void invalidObjectIsTheDslsExceptionWithItsCauses() {
    ResourceClaim invalid = Make.claim("invalid").namespace(ns).request("gpu.example.com").obj();
    invalid.getSpec().getDevices().getRequests().getFirst().getExactly().setDeviceClassName("");
    KubernetesClientException e =
        assertSameFailure(
            422,
            () -> client.resources(ResourceClaim.class).inNamespace(ns).resource(invalid).create(),
            () -> claims.create(ns, invalid));
    assertThat(e.getStatus().getReason()).isEqualTo("Invalid");
    assertThat(e.getStatus().getDetails().getCauses()).isNotEmpty();
  }

  /** Both calls fail with equal exceptions of this HTTP code; returns ours. */
  static KubernetesClientException assertSameFailure(int code, Executable dsl, Executable ours) {
    KubernetesClientException expected = failure(dsl);
    KubernetesClientException actual = failure(ours);
    assertThat(actual.getCode()).isEqualTo(code).isEqualTo(expected.getCode());
    assertThat(actual.getStatus()).isEqualTo(expected.getStatus());
    assertThat(actual.getMessage()).isEqualTo(expected.getMessage());
    assertThat(actual).hasSameClassAs(expected);
    return actual;
  }

  static KubernetesClientException failure(Executable call) {
    KubernetesClientException e =
        catchThrowableOfType(KubernetesClientException.class, call::execute);
    assertThat(e).as("a KubernetesClientException").isNotNull();
    return e;
  }

  static Pod statusApply(String name, Map<String, String> claims) {
    List<PodResourceClaimStatus> statuses =
        claims.entrySet().stream()
            .map(c -> new PodResourceClaimStatus(c.getKey(), c.getValue()))
            .toList();
    return new PodBuilder()
        .withApiVersion("v1")
        .withKind("Pod")
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewStatus()
        .withResourceClaimStatuses(statuses)
        .endStatus()
        .build();
  }

  /** A client for a server other than the embedded one (see {@link ApiRequestsTransportTest}). */
  static KubernetesClient clientFor(String url, int requestTimeoutMillis, int retries) {
    return new KubernetesClientBuilder()
        .withConfig(
            new ConfigBuilder()
                .withMasterUrl(url)
                .withNamespace("default")
                .withAutoConfigure(false)
                .withRequestTimeout(requestTimeoutMillis)
                .withRequestRetryBackoffLimit(retries)
                .withRequestRetryBackoffInterval(1)
                .build())
        .build();
  }
}
