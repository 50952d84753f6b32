package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.jdra.apiserver.auth.BootstrapPolicy;
import io.jdra.apiserver.auth.UserInfo;
import io.jdra.testing.objects.Make;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Identities and authorization through HTTPS as clients see them: each client has its own token;
 * kubelets are limited to their node by the node authorizer and NodeRestriction, a driver's service
 * account to ResourceSlices of its node by the ResourceSlice policy, the scheduler by its bootstrap
 * role; refusals carry upstream's messages.
 */
class AuthorizationTest {
  @TempDir static Path dir;
  static EmbeddedApiServer server;
  static final List<KubernetesClient> clients = new ArrayList<>();
  static KubernetesClient admin;
  static KubernetesClient node1;
  static KubernetesClient driver1;
  static KubernetesClient scheduler;
  static KubernetesClient alice;

  static final String DRIVER = "gpu.example.com";

  @BeforeAll
  static void start() throws Exception {
    Map<String, UserInfo> users =
        Map.of(
            "node-1-token", UserInfo.node("node-1"),
            "driver-1-token",
                UserInfo.serviceAccount(
                    BootstrapPolicy.EXAMPLE_DRIVER_NAMESPACE,
                    BootstrapPolicy.EXAMPLE_DRIVER_SERVICE_ACCOUNT,
                    "node-1"),
            "scheduler-token", UserInfo.user(BootstrapPolicy.SCHEDULER),
            "alice-token", UserInfo.user("alice"));
    server =
        EmbeddedApiServer.start(
            ApiServerOptions.inMemory()
                .withSecurity(true)
                .withKubeconfig(dir.resolve("admin"))
                .withTokenUsers(users));
    admin = client(dir.resolve("admin"));
    node1 = client("node-1-token");
    driver1 = client("driver-1-token");
    scheduler = client("scheduler-token");
    alice = client("alice-token");

    admin.nodes().resource(Make.node("node-2").obj()).create();
    admin
        .pods()
        .resource(
            Make.pod("on-1")
                .namespace("default")
                .nodeName("node-1")
                .claim("gpu", "claim-1")
                .container("c", "gpu")
                .obj())
        .create();
    admin.pods().resource(Make.pod("on-2").namespace("default").nodeName("node-2").obj()).create();
    admin.pods().resource(Make.pod("pending").namespace("default").obj()).create();
    admin.resource(Make.claim("claim-1").namespace("default").obj()).create();
    admin.resource(Make.claim("claim-other").namespace("default").obj()).create();
    admin
        .resource(Make.slice("slice-node-2", "node-2", DRIVER).pool("node-2", 1, 1).obj())
        .create();
  }

  static KubernetesClient client(String token) throws Exception {
    Path f = dir.resolve(token + ".kubeconfig");
    server.writeKubeconfig(f, token, token);
    return client(f);
  }

  static KubernetesClient client(Path kubeconfig) {
    KubernetesClient c =
        new KubernetesClientBuilder()
            .withConfig(Config.fromKubeconfig(kubeconfig.toFile()))
            .build();
    clients.add(c);
    return c;
  }

  @AfterAll
  static void stop() {
    clients.forEach(KubernetesClient::close);
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aNodeRegistersAndUpdatesItsOwnNodeOnly() {
    Node own = node1.nodes().resource(Make.node("node-1").obj()).create();
    assertThat(own.getMetadata().getName()).isEqualTo("node-1");
    node1
        .nodes()
        .withName("node-1")
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"phase\":\"Running\"}}");

    assertRefused(
        () -> node1.nodes().resource(Make.node("node-3").obj()).create(),
        403,
        "nodes \"node-3\" is forbidden: node \"node-1\" is not allowed to modify node"
            + " \"node-3\"");
    assertRaw(
        node1,
        "PATCH",
        "api/v1/nodes/node-2/status",
        "{\"status\":{\"phase\":\"Running\"}}",
        403,
        "nodes \"node-2\" is forbidden: node \"node-1\" is not allowed to modify node"
            + " \"node-2\"");
    assertRefused(
        () -> node1.nodes().withName("node-2").get(),
        403,
        "nodes \"node-2\" is forbidden: User \"system:node:node-1\" cannot get resource \"nodes\""
            + " in API group \"\" at the cluster scope: node 'node-1' cannot read 'node-2', only"
            + " its own Node object");
    assertRefused(
        () ->
            node1
                .nodes()
                .withName("node-1")
                .patch(
                    PatchContext.of(PatchType.JSON_MERGE),
                    "{\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}]}}"),
        403,
        "node \"node-1\" is not allowed to modify taints");
    assertRefused(
        () ->
            node1
                .nodes()
                .withName("node-1")
                .patch(
                    PatchContext.of(PatchType.JSON_MERGE),
                    "{\"metadata\":{\"labels\":{\"node-role.kubernetes.io/control-plane\":\"\"}}}"),
        403,
        "is not allowed to modify labels: node-role.kubernetes.io/control-plane");
  }

  @Test
  void aNodeReportsStatusOfItsOwnPodsOnly() {
    Pod p =
        node1
            .pods()
            .inNamespace("default")
            .withName("on-1")
            .subresource("status")
            .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"phase\":\"Running\"}}");
    assertThat(p.getStatus().getPhase()).isEqualTo("Running");

    // a raw PATCH: fabric8 would GET the pod first, which the node authorizer refuses already
    assertRaw(
        node1,
        "PATCH",
        "api/v1/namespaces/default/pods/on-2/status",
        "{\"status\":{\"phase\":\"Running\"}}",
        403,
        "pods \"on-2\" is forbidden: node \"node-1\" can only update pod status for pods with"
            + " spec.nodeName set to itself");
    assertRefused(
        () -> node1.pods().inNamespace("default").withName("on-2").delete(),
        403,
        "pods \"on-2\" is forbidden: node \"node-1\" can only delete pods with spec.nodeName set"
            + " to itself");
    assertRefused(
        () -> node1.pods().inNamespace("default").withName("on-2").get(),
        403,
        "User \"system:node:node-1\" cannot get resource \"pods\" in API group \"\" in the"
            + " namespace \"default\": no relationship found between node 'node-1' and this"
            + " object");
    assertRefused(
        () -> node1.pods().inAnyNamespace().list(),
        403,
        "pods is forbidden: User \"system:node:node-1\" cannot list resource \"pods\" in API"
            + " group \"\" at the cluster scope: can only list/watch pods with spec.nodeName"
            + " field selector");
    assertThat(node1.pods().inAnyNamespace().withField("spec.nodeName", "node-1").list().getItems())
        .extracting(x -> x.getMetadata().getName())
        .contains("on-1")
        .doesNotContain("on-2", "pending");
  }

  @Test
  void aNodeReadsOnlyClaimsOfItsPods() {
    ResourceClaim c =
        node1.resources(ResourceClaim.class).inNamespace("default").withName("claim-1").get();
    assertThat(c.getMetadata().getName()).isEqualTo("claim-1");
    assertRefused(
        () ->
            node1
                .resources(ResourceClaim.class)
                .inNamespace("default")
                .withName("claim-other")
                .get(),
        403,
        "resourceclaims.resource.k8s.io \"claim-other\" is forbidden: User"
            + " \"system:node:node-1\" cannot get resource \"resourceclaims\" in API group"
            + " \"resource.k8s.io\" in the namespace \"default\": no relationship found between"
            + " node 'node-1' and this object");
  }

  @Test
  void aNodeReadsOnlySecretsItsPodsUse() {
    admin
        .secrets()
        .resource(
            new io.fabric8.kubernetes.api.model.SecretBuilder()
                .withNewMetadata()
                .withName("used")
                .withNamespace("default")
                .endMetadata()
                .build())
        .create();
    admin
        .secrets()
        .resource(
            new io.fabric8.kubernetes.api.model.SecretBuilder()
                .withNewMetadata()
                .withName("unused")
                .withNamespace("default")
                .endMetadata()
                .build())
        .create();
    Pod p = Make.pod("with-secret").namespace("default").nodeName("node-1").container("c").obj();
    p.getSpec()
        .getContainers()
        .get(0)
        .setEnvFrom(
            List.of(
                new io.fabric8.kubernetes.api.model.EnvFromSourceBuilder()
                    .withNewSecretRef()
                    .withName("used")
                    .endSecretRef()
                    .build()));
    admin.pods().resource(p).create();

    assertThat(node1.secrets().inNamespace("default").withName("used").get()).isNotNull();
    assertRefused(
        () -> node1.secrets().inNamespace("default").withName("unused").get(),
        403,
        "secrets \"unused\" is forbidden: User \"system:node:node-1\" cannot get resource"
            + " \"secrets\" in API group \"\" in the namespace \"default\": no relationship found"
            + " between node 'node-1' and this object");
  }

  @Test
  void aNodeWritesResourceSlicesOfItsNodeOnly() {
    ResourceSlice own =
        node1
            .resources(ResourceSlice.class)
            .resource(Make.slice("node-1-by-kubelet", "node-1", DRIVER).pool("p1", 1, 1).obj())
            .create();
    assertThat(own.getSpec().getNodeName()).isEqualTo("node-1");
    assertRefused(
        () ->
            node1
                .resources(ResourceSlice.class)
                .resource(Make.slice("node-2-by-kubelet", "node-2", DRIVER).pool("p2", 1, 1).obj())
                .create(),
        403,
        "resourceslices.resource.k8s.io \"node-2-by-kubelet\" is forbidden: can only create"
            + " ResourceSlice with the same NodeName as the requesting node");
    assertRefused(
        () -> node1.resources(ResourceSlice.class).withName("slice-node-2").delete(),
        403,
        "no relationship found between node 'node-1' and this object");
  }

  @Test
  void aDriverOfNode1IsRefusedASliceForNode2() {
    ResourceSlice own =
        driver1
            .resources(ResourceSlice.class)
            .resource(Make.slice("node-1-gpu", "node-1", DRIVER).pool("node-1", 1, 1).obj())
            .create();
    assertThat(own.getSpec().getNodeName()).isEqualTo("node-1");

    assertRefused(
        () ->
            driver1
                .resources(ResourceSlice.class)
                .resource(Make.slice("node-2-gpu", "node-2", DRIVER).pool("node-2", 1, 1).obj())
                .create(),
        422,
        "resourceslices.resource.k8s.io \"node-2-gpu\" is forbidden: ValidatingAdmissionPolicy"
            + " 'resourceslices-policy-dra-example-driver' with binding"
            + " 'resourceslices-policy-dra-example-driver' denied request: this user running on"
            + " node 'node-1' may not modify resourceslices on node 'node-2'");
    assertRefused(
        () -> driver1.resources(ResourceSlice.class).withName("slice-node-2").delete(),
        422,
        "this user running on node 'node-1' may not modify resourceslices on node 'node-2'");
    assertThat(admin.resources(ResourceSlice.class).withName("node-2-gpu").get()).isNull();
    assertThat(admin.resources(ResourceSlice.class).withName("slice-node-2").get()).isNotNull();
    assertRefused(
        () -> driver1.pods().inNamespace("default").list(),
        403,
        "User \"system:serviceaccount:dra-example-driver:dra-example-driver-service-account\""
            + " cannot list resource \"pods\"");
  }

  @Test
  void theSchedulerBindsPodsButWritesNoSlices() throws Exception {
    var http = scheduler.getHttpClient();
    var bind =
        http.newHttpRequestBuilder()
            .uri(scheduler.getMasterUrl() + "api/v1/namespaces/default/pods/pending/binding")
            .post(
                "application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"pending\"},"
                    + "\"target\":{\"kind\":\"Node\",\"name\":\"node-2\"}}")
            .build();
    assertThat(http.sendAsync(bind, String.class).get().code()).isEqualTo(201);
    assertThat(
            admin.pods().inNamespace("default").withName("pending").get().getSpec().getNodeName())
        .isEqualTo("node-2");
    assertRefused(
        () ->
            scheduler
                .resources(ResourceSlice.class)
                .resource(Make.slice("by-scheduler", "node-2", DRIVER).pool("s", 1, 1).obj())
                .create(),
        403,
        "resourceslices.resource.k8s.io is forbidden: User \"system:kube-scheduler\" cannot"
            + " create resource \"resourceslices\" in API group \"resource.k8s.io\" at the cluster"
            + " scope");
  }

  @Test
  void aUserWithoutRolesIsRefusedAndAnUnknownTokenIsUnauthorized() throws Exception {
    assertRefused(
        () -> alice.pods().inNamespace("default").list(),
        403,
        "pods is forbidden: User \"alice\" cannot list resource \"pods\" in API group \"\" in"
            + " the namespace \"default\"");
    KubernetesClient stranger = client("no-such-token");
    assertRefused(() -> stranger.pods().inNamespace("default").list(), 401, "Unauthorized");
    assertThat(admin.pods().inNamespace("default").list().getItems()).hasSizeGreaterThan(1);
    Node n = new NodeBuilder().withNewMetadata().withName("by-admin").endMetadata().build();
    assertThat(admin.nodes().resource(n).create().getMetadata().getName()).isEqualTo("by-admin");
  }

  @Test
  void theAdminImpersonatesAKubeletAndOthersMayNot() {
    var asNode =
        Map.of("Impersonate-User", "system:node:node-1", "Impersonate-Group", "system:nodes");
    assertThat(get(admin, "api/v1/nodes/node-2", asNode).body())
        .contains("User \\\"system:node:node-1\\\" cannot get resource \\\"nodes\\\"");
    assertThat(get(admin, "api/v1/nodes/node-2", Map.of()).code()).isEqualTo(200);
    var r = get(alice, "api/v1/nodes/node-1", asNode);
    assertThat(r.code()).isEqualTo(403);
    assertThat(r.body())
        .contains(
            "users \\\"system:node:node-1\\\" is forbidden: User \\\"alice\\\" cannot"
                + " impersonate resource \\\"users\\\" in API group \\\"\\\" at the cluster scope");
    assertThat(get(admin, "api/v1/nodes", Map.of("Impersonate-Group", "system:nodes")).code())
        .isEqualTo(400);
  }

  static io.fabric8.kubernetes.client.http.HttpResponse<String> get(
      KubernetesClient c, String path, Map<String, String> headers) {
    var http = c.getHttpClient();
    var b = http.newHttpRequestBuilder().uri(c.getMasterUrl() + path);
    headers.forEach(b::header);
    return http.sendAsync(b.build(), String.class).join();
  }

  /** Sends a request as {@code c} without fabric8's own reads before writes. */
  static void assertRaw(
      KubernetesClient c, String method, String path, String body, int code, String message) {
    var http = c.getHttpClient();
    var req =
        http.newHttpRequestBuilder()
            .uri(c.getMasterUrl() + path)
            .method(method, "application/merge-patch+json", body)
            .build();
    var resp = http.sendAsync(req, String.class).join();
    assertThat(resp.code()).isEqualTo(code);
    assertThat(resp.body()).contains(message.replace("\"", "\\\""));
  }

  static void assertRefused(ThrowingCallable call, int code, String message) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(code);
              assertThat(e.getStatus().getMessage()).contains(message);
            });
  }
}
