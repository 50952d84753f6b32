package io.jdra.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dra-example-driver demos that need only the default chart values, on one {@code jdra up} (one
 * node, profile gpu, 8 GPUs), each checked for what a real cluster shows and then deleted and
 * checked for release.
 */
class BasicDemosE2ETest {
  @TempDir static Path dir;
  static JdraUpProcess up;
  static Path demos;

  @BeforeAll
  static void startCluster() throws Exception {
    demos = Demos.examplesOrSkip();
    up = JdraUpProcess.start(dir.resolve("data"));
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (up != null) {
      up.close();
    }
  }

  @Test
  void basicResourceClaimTemplate() throws Exception {
    String ns = "basic-resourceclaimtemplate";
    Path manifest = demos.resolve(ns + "/" + ns + ".yaml");
    up.kubectl().run("apply", "-f", manifest.toString()).ok();
    KubernetesClient c = up.client();
    Demos.awaitRunning(up, ns, "pod0", "pod1");

    List<ResourceClaim> claims =
        c.dynamicResourceAllocation().v1().resourceClaims().inNamespace(ns).list().getItems();
    assertThat(claims).hasSize(2);
    Set<String> devices = new HashSet<>();
    for (ResourceClaim claim : claims) {
      assertThat(claim.getMetadata().getName()).matches("pod[01]-gpu-[a-z0-9]{5}");
      List<DeviceRequestAllocationResult> results =
          claim.getStatus().getAllocation().getDevices().getResults();
      assertThat(results).hasSize(1);
      devices.add(results.get(0).getDevice());
    }
    assertThat(devices).as("each pod gets its own GPU").hasSize(2);

    Set<String> seen = new HashSet<>();
    for (String pod : List.of("pod0", "pod1")) {
      String logs = up.kubectl().run("logs", "-n", ns, pod, "-c", "ctr0").ok().out();
      List<String> gpuLines = logs.lines().filter(l -> l.contains("GPU_DEVICE_")).toList();
      assertThat(gpuLines).as(pod + " logs:\n" + logs).isNotEmpty();
      seen.add(gpuLines.get(0).replaceAll(".*=", ""));
    }
    assertThat(seen).as("distinct GPU ids in the containers' environments").hasSize(2);

    // managedFields name the writers as a real cluster does: kubectl's apply, the controller
    // manager's status apply, the kubelet's status updates; the claim's allocation by the scheduler
    Set<String> podManagers = managers(c.pods().inNamespace(ns).withName("pod0").get());
    assertThat(podManagers)
        .contains(
            "kubectl-client-side-apply/Update/",
            "ResourceClaimController/Apply/status",
            "kubelet/Update/status");
    assertThat(managers(claims.get(0))).contains("kube-scheduler/Update/status");

    // The namespace comes first in the manifest; its controller may delete the template before
    // kubectl gets to it, which is not what this test is about.
    up.kubectl().run("delete", "-f", manifest.toString(), "--wait=true", "--ignore-not-found").ok();
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(() ->
            assertThat(
                    c.dynamicResourceAllocation()
                        .v1()
                        .resourceClaims()
                        .inNamespace(ns)
                        .list()
                        .getItems())
                .as("generated claims deleted")
                .isEmpty());
  }

  /**
   * Each component has its own identity: with the kubeconfig {@code jdra up} wrote for the drivers
   * of node-1 (the chart's service account bound to node-1), kubectl is refused a ResourceSlice for
   * node-2 by the DRA driver docs' admission policy, and with node-1's kubelet.conf by
   * NodeRestriction; the user's kubeconfig is the admin's.
   */
  @Test
  void aDriverOfNode1IsRefusedASliceForNode2() throws Exception {
    Path slice = dir.resolve("slice-node-2.yaml");
    java.nio.file.Files.writeString(
        slice,
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata:
          name: forged-node-2
        spec:
          driver: gpu.example.com
          nodeName: node-2
          pool: {name: node-2, generation: 1, resourceSliceCount: 1}
          devices: [{name: gpu-0}]
        """);
    Path node1 = up.kubeconfig().getParent().resolve("nodes/node-1");
    Kubectl driver = new Kubectl(node1.resolve("dra-example-driver.conf"), dir);
    Kubectl.Result r = driver.run("create", "-f", slice.toString());
    assertThat(r.exit()).isNotZero();
    assertThat(r.err())
        .contains(
            "ValidatingAdmissionPolicy 'resourceslices-policy-dra-example-driver' with binding"
                + " 'resourceslices-policy-dra-example-driver' denied request: this user running"
                + " on node 'node-1' may not modify resourceslices on node 'node-2'");
    assertThat(driver.run("get", "resourceslices", "-o", "name").ok().out())
        .as("the driver's own identity still reads slices")
        .contains("gpu.example.com-node-1");

    Kubectl kubelet = new Kubectl(node1.resolve("kubelet.conf"), dir);
    assertThat(kubelet.run("create", "-f", slice.toString()).err())
        .contains(
            "resourceslices.resource.k8s.io \"forged-node-2\" is forbidden: can only create"
                + " ResourceSlice with the same NodeName as the requesting node");
    assertThat(kubelet.run("get", "pods", "-A").err())
        .contains(
            "User \"system:node:node-1\" cannot list resource \"pods\" in API group \"\" at"
                + " the cluster scope");

    up.kubectl().run("create", "--dry-run=server", "-f", slice.toString()).ok();
    assertThat(
            up.client()
                .resources(io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice.class)
                .withName("forged-node-2")
                .get())
        .isNull();
  }

  /**
   * One address serves every component's metrics, printed when ready: the kubelet's DRA series
   * labelled with the node, the scheduler's and the controller-manager's queues.
   */
  @Test
  void oneMetricsAddressForAllComponents() throws Exception {
    String line =
        await()
            .atMost(Duration.ofSeconds(10))
            .until(
                () ->
                    up.output().stream()
                        .filter(l -> l.contains("metrics of every component: "))
                        .findFirst()
                        .orElse(null),
                l -> l != null);
    String url = line.substring(line.indexOf("http://")).trim();
    java.net.http.HttpResponse<String> r =
        java.net.http.HttpClient.newHttpClient()
            .send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body().lines())
        .anyMatch(l -> l.startsWith("dra_resource_claims_in_use{") && l.contains("node=\"node-1\""))
        .contains("workqueue_depth{name=\"resource_claim\"} 0.0")
        .anyMatch(l -> l.startsWith("scheduler_pending_pods{queue=\"active\"}"));
  }

  /** The managedFields entries of {@code o} as manager/operation/subresource. */
  static Set<String> managers(io.fabric8.kubernetes.api.model.HasMetadata o) {
    Set<String> out = new HashSet<>();
    for (var e : o.getMetadata().getManagedFields()) {
      String sub = e.getSubresource() == null ? "" : e.getSubresource();
      out.add(e.getManager() + "/" + e.getOperation() + "/" + sub);
    }
    return out;
  }
}
