package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CrudTest {
  static ServerFixture f;

  @BeforeAll
  static void start() {
    f = new ServerFixture();
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  static ResourceClaim claim(String name) {
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withNewDevices()
        .addNewRequest()
        .withName("gpu")
        .withNewExactly()
        .withDeviceClassName("gpu.example.com")
        .endExactly()
        .endRequest()
        .endDevices()
        .endSpec()
        .build();
  }

  @Test
  void createGetUpdateDelete() {
    var claims = f.client.resource(claim("c1"));
    ResourceClaim created = claims.create();
    assertThat(created.getMetadata().getUid()).isNotEmpty();
    assertThat(created.getMetadata().getCreationTimestamp()).endsWith("Z");
    assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(created.getMetadata().getNamespace()).isEqualTo("default");
    long rv1 = Long.parseLong(created.getMetadata().getResourceVersion());

    ResourceClaim got =
        f.client.dynamicResourceAllocation().v1().resourceClaims().withName("c1").get();
    assertThat(got.getSpec().getDevices().getRequests().get(0).getExactly().getDeviceClassName())
        .isEqualTo("gpu.example.com");

    got.getMetadata().setLabels(Map.of("a", "b"));
    ResourceClaim updated = f.client.resource(got).update();
    assertThat(Long.parseLong(updated.getMetadata().getResourceVersion())).isGreaterThan(rv1);
    assertThat(updated.getMetadata().getGeneration()).isEqualTo(1L);

    assertThat(f.client.resource(updated).delete()).hasSize(1);
    assertThat(f.client.dynamicResourceAllocation().v1().resourceClaims().withName("c1").get())
        .isNull();
  }

  @Test
  void conflictsAndAlreadyExists() {
    ResourceClaim c = f.client.resource(claim("c2")).create();
    assertThatThrownBy(() -> f.client.resource(claim("c2")).create())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("resourceclaims.resource.k8s.io \"c2\" already exists")
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(409));
    c.getMetadata().setLabels(Map.of("x", "1"));
    f.client.resource(c).update();
    c.getMetadata().setLabels(Map.of("x", "2"));
    assertThatThrownBy(() -> f.client.resource(c).update())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining(
            "Operation cannot be fulfilled on resourceclaims.resource.k8s.io \"c2\": the object"
                + " has been modified; please apply your changes to the latest version and try"
                + " again");
  }

  @Test
  void generationMovesOnSpecChangeOnly() {
    DeviceClass dc =
        f.client
            .resource(
                new DeviceClassBuilder()
                    .withNewMetadata()
                    .withName("gen.example.com")
                    .endMetadata()
                    .withNewSpec()
                    .withExtendedResourceName("example.com/gpu")
                    .endSpec()
                    .build())
            .create();
    assertThat(dc.getMetadata().getNamespace()).isNull();
    dc.getMetadata().setLabels(Map.of("a", "b"));
    dc = f.client.resource(dc).update();
    assertThat(dc.getMetadata().getGeneration()).isEqualTo(1L);
    dc.getSpec().setExtendedResourceName("example.com/other");
    dc = f.client.resource(dc).update();
    assertThat(dc.getMetadata().getGeneration()).isEqualTo(2L);
  }

  @Test
  void generateName() {
    ConfigMap cm =
        f.client
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withGenerateName("pod-claim-")
                    .endMetadata()
                    .addToData("k", "v")
                    .build())
            .create();
    assertThat(cm.getMetadata().getName()).matches("pod-claim-[bcdfghjklmnpqrstvwxz2456789]{5}");
  }

  @Test
  void namespaceMustExist() {
    assertThatThrownBy(() -> f.client.resource(claim("c3")).inNamespace("nope").create())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("namespaces \"nope\" not found");
  }

  /**
   * The server alone only marks a deleted namespace Terminating and refuses new content in it, as
   * kube-apiserver does; emptying and finalizing it is the controller-manager's namespace
   * controller's. Once the {@code kubernetes} finalizer is removed through {@code finalize}, the
   * server removes the namespace.
   */
  @Test
  void namespaceDeletionWaitsForTheKubernetesFinalizer() throws Exception {
    Namespace ns =
        f.client
            .resource(
                new NamespaceBuilder().withNewMetadata().withName("tmp").endMetadata().build())
            .create();
    assertThat(ns.getStatus().getPhase()).isEqualTo("Active");
    assertThat(ns.getSpec().getFinalizers()).containsExactly("kubernetes");
    f.client.resource(claim("in-tmp")).inNamespace("tmp").create();
    f.client.namespaces().withName("tmp").delete();

    Namespace terminating = f.client.namespaces().withName("tmp").get();
    assertThat(terminating.getStatus().getPhase()).isEqualTo("Terminating");
    assertThat(terminating.getMetadata().getDeletionTimestamp()).isNotNull();
    assertThat(
            f.client
                .dynamicResourceAllocation()
                .v1()
                .resourceClaims()
                .inNamespace("tmp")
                .withName("in-tmp")
                .get())
        .as("content stays until a namespace controller removes it")
        .isNotNull();
    assertThatThrownBy(() -> f.client.resource(claim("late")).inNamespace("tmp").create())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("because it is being terminated");

    String finalized =
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"tmp\"},"
            + "\"spec\":{\"finalizers\":[]}}";
    assertThat(
            f.raw("PUT", "/api/v1/namespaces/tmp/finalize", "application/json", finalized)
                .statusCode())
        .isEqualTo(200);
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> f.client.namespaces().withName("tmp").get() == null);
  }

  @Test
  void sameManifestWithoutDefaultsIsNoSpecChange() {
    // The same manifest again (defaulted fields omitted, as kubectl apply sends it): no change.
    ResourceClaim created = f.client.resource(claim("gen-same")).create();
    assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);
    ResourceClaim again = claim("gen-same");
    again.getMetadata().setResourceVersion(created.getMetadata().getResourceVersion());
    again.getMetadata().setLabels(Map.of("touched", "yes"));
    ResourceClaim updated = f.client.resource(again).update();
    assertThat(updated.getMetadata().getLabels()).containsEntry("touched", "yes");
    assertThat(updated.getMetadata().getGeneration()).isEqualTo(1L);
  }
}
