package io.jdra.controllers.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.testing.apiserver.WithApiServer;
import io.jdra.testing.objects.Make;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The manager's own duties against the embedded API server: --controllers selection, leader
 * election (one leader runs, a stopped leader releases the Lease and the other takes over at once),
 * the metrics and health server with upstream metric names, and events for pods.
 */
@WithApiServer
class ControllerManagerTest {
  static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void controllersFlagFollowsUpstreamRules() {
    List<ControllerDescriptor> all = Controllers.builtIn();
    assertThat(names(Controllers.select(all, List.of("*"))))
        .containsAll(names(all))
        .contains("resourceclaim-controller", "device-taint-eviction-controller")
        .contains("replicaset-controller");
    assertThat(names(Controllers.select(all, List.of("*", "-resourceclaim"))))
        .contains("device-taint-eviction-controller")
        .doesNotContain("resourceclaim-controller");
    assertThat(
            names(
                Controllers.select(
                    all, List.of("-resourceclaim-controller", "*", "resourceclaim"))))
        .contains("device-taint-eviction-controller")
        .doesNotContain("resourceclaim-controller");
    assertThat(names(Controllers.select(all, List.of("resourceclaim"))))
        .containsExactly("resourceclaim-controller");
    assertThat(names(Controllers.select(all, List.of()))).isEmpty();
    assertThatThrownBy(() -> Controllers.select(all, List.of("-nope")))
        .hasMessageStartingWith("--controllers: \"-nope\" is not in the list of known controllers");
  }

  @Test
  void featureGateOffDisablesTheController(KubernetesClient client) throws Exception {
    ControllerManager.Handle h =
        ControllerManager.start(
            Ctx.background("test"),
            client,
            ControllerManagerOptions.defaults()
                .withFeatureGates(
                    io.jdra.api.features.FeatureGates.parse("DRADeviceTaints=false")));
    try {
      assertThat(h.controllers())
          .contains("resourceclaim-controller")
          .doesNotContain("device-taint-eviction-controller");
    } finally {
      h.stop();
    }
  }

  @Test
  void leaderElectionMetricsAndEvents(KubernetesClient client) throws Exception {
    String ns = "le";
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    ControllerManagerOptions o =
        ControllerManagerOptions.defaults()
            .withControllers(List.of("resourceclaim"))
            .withConcurrentResourceClaimSyncs(2)
            .withLeaderElect(true)
            .withLease(ns, "kube-controller-manager")
            .withMetricsBindAddress("127.0.0.1:0");
    ControllerManager.Handle first =
        ControllerManager.start(Ctx.background("first"), client, o.withIdentity("first"));
    ControllerManager.Handle second = null;
    try {
      first.synced().get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
      second = ControllerManager.start(Ctx.background("second"), client, o.withIdentity("second"));
      assertThat(holder(client, ns)).isEqualTo("first");
      assertThat(get(second.metricsPort(), "/readyz").statusCode()).isEqualTo(500);

      // The leader creates claims; a missing template becomes an event about the pod.
      createTemplateAndPod(client, ns, "ok");
      client
          .pods()
          .inNamespace(ns)
          .resource(
              Make.pod("bad")
                  .namespace(ns)
                  .claimFromTemplate("gpu", "missing")
                  .container("c", "gpu")
                  .obj())
          .create();
      await()
          .atMost(WAIT)
          .until(() ->
              client.resources(ResourceClaim.class).inNamespace(ns).list().getItems().size() == 1);
      await()
          .atMost(WAIT)
          .untilAsserted(() -> {
            List<Event> events = client.resources(Event.class).inNamespace(ns).list().getItems();
            assertThat(events)
                .anySatisfy(e -> {
                  assertThat(e.getReason()).isEqualTo("FailedResourceClaimCreation");
                  assertThat(e.getType()).isEqualTo("Warning");
                  assertThat(e.getRegarding().getName()).isEqualTo("bad");
                  assertThat(e.getReportingController()).isEqualTo("resource_claim");
                  assertThat(e.getNote())
                      .startsWith("PodResourceClaim gpu: resource claim template \"missing\"");
                });
          });

      String metrics = get(first.metricsPort(), "/metrics").body();
      assertThat(metrics)
          .contains(
              "resourceclaim_controller_creates_total{admin_access=\"false\",status=\"success\"} 1.0",
              "resourceclaim_controller_resource_claims{admin_access=\"false\",allocated=\"false\",source=\"resource_claim_template\"} 1.0",
              "workqueue_adds_total{name=\"resource_claim\"}");
      assertThat(get(first.metricsPort(), "/readyz").statusCode()).isEqualTo(200);
      assertThat(get(first.metricsPort(), "/healthz").body()).startsWith("ok");

      // A leader that stops releases the Lease: the other one takes over without waiting 15 s.
      first.stop();
      second.synced().get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
      assertThat(holder(client, ns)).isEqualTo("second");
      client
          .pods()
          .inNamespace(ns)
          .resource(
              Make.pod("ok2")
                  .namespace(ns)
                  .claimFromTemplate("gpu", "t")
                  .container("c", "gpu")
                  .obj())
          .create();
      await()
          .atMost(WAIT)
          .until(() ->
              client.resources(ResourceClaim.class).inNamespace(ns).list().getItems().size() == 2);
    } finally {
      first.stop();
      if (second != null) {
        second.stop();
      }
    }
    assertThat(first.terminated()).isCompleted();
  }

  @Test
  void onACallersInformerFactoryTheControllersWorkAndStoppingLeavesItsOwnInformersRunning(
      KubernetesClient client) throws Exception {
    String ns = "shared";
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    // scheduler_perf's setup: the caller's factory already watches pods for someone else.
    InformerFactory informers = new InformerFactory(client);
    Ctx owner = Ctx.background("owner").withCancel();
    SharedIndexInformer<Pod> pods = informers.informer(Pod.class);
    informers.start(owner);
    ControllerManager.Handle h =
        ControllerManager.start(
            Ctx.background("test"),
            client,
            ControllerManagerOptions.defaults().withControllers(List.of("resourceclaim")),
            informers);
    try {
      h.synced().get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
      createTemplateAndPod(client, ns, "p");
      await()
          .atMost(WAIT)
          .until(() ->
              client.resources(ResourceClaim.class).inNamespace(ns).list().getItems().size() == 1);
      SharedIndexInformer<ResourceClaim> claims = informers.informer(ResourceClaim.class);
      assertThat(claims.isRunning()).as("started by the manager").isTrue();

      h.stop();
      assertThat(claims.isRunning()).as("stops with the manager").isFalse();
      assertThat(pods.isRunning()).as("the caller's keeps running").isTrue();
    } finally {
      h.stop();
      owner.cancel();
      informers.stop();
    }
  }

  /** ResourceClaimTemplate "t" (one gpu.example.com device) and a pod claiming from it. */
  private static void createTemplateAndPod(KubernetesClient client, String ns, String pod) {
    client
        .resources(ResourceClaimTemplate.class)
        .inNamespace(ns)
        .resource(Make.claimTemplate("t").namespace(ns).request("gpu.example.com").obj())
        .create();
    client
        .pods()
        .inNamespace(ns)
        .resource(
            Make.pod(pod).namespace(ns).claimFromTemplate("gpu", "t").container("c", "gpu").obj())
        .create();
  }

  static String holder(KubernetesClient client, String ns) {
    Lease lease = client.leases().inNamespace(ns).withName("kube-controller-manager").get();
    return lease == null ? null : lease.getSpec().getHolderIdentity();
  }

  static HttpResponse<String> get(int port, String path) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      return http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
          HttpResponse.BodyHandlers.ofString());
    }
  }

  static List<String> names(List<ControllerDescriptor> ds) {
    return ds.stream().map(ControllerDescriptor::name).toList();
  }
}
