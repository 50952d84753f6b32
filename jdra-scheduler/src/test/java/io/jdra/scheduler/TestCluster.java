package io.jdra.scheduler;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.runtime.Ctx;
import io.jdra.testing.apiserver.TestApiServer;
import io.jdra.testing.objects.Make;
import io.jdra.testing.objects.UpstreamExamples;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * An embedded API server with a running scheduler, plus what the test plays itself: the example
 * driver's ResourceSlices, and (until the claim controller is wired in) the claims generated from
 * templates, created as the ResourceClaim controller creates them.
 */
final class TestCluster implements AutoCloseable {
  static final String DRIVER = "gpu.example.com";
  static final Path EXAMPLES =
      UpstreamExamples.dir()
          .orElseThrow(() ->
              new IllegalStateException(
                  "upstream examples (../shared/upstream-dra/examples) absent"))
          .resolve("dra-example-driver/demo/examples");

  final TestApiServer server;
  final KubernetesClient client;
  final Ctx ctx;
  SchedulerServer.Handle scheduler;

  TestCluster() {
    this.server = TestApiServer.start();
    this.client = server.client();
    this.ctx = Ctx.background("scheduler-test");
  }

  TestCluster startScheduler(SchedulerOptions options) {
    scheduler = SchedulerServer.start(ctx, server.newClient(), options);
    try {
      scheduler.synced().get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("scheduler did not sync", e);
    }
    return this;
  }

  TestCluster startScheduler() {
    return startScheduler(SchedulerOptions.defaults().withParallelism(2));
  }

  io.jdra.controllers.manager.ControllerManager.Handle controllers;

  /** The real ResourceClaim controller (claims from templates, reservedFor cleanup). */
  TestCluster startClaimController() {
    controllers =
        io.jdra.controllers.manager.ControllerManager.start(
            ctx,
            server.newClient(),
            io.jdra.controllers.manager.ControllerManagerOptions.defaults()
                .withControllers(List.of("resourceclaim")));
    try {
      controllers.synced().get(120, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("controllers did not sync", e);
    }
    return this;
  }

  void stopScheduler() {
    if (scheduler != null) {
      scheduler.stop();
      scheduler = null;
    }
  }

  /** The example driver's DeviceClass (Helm chart: selects the driver's devices). */
  void deviceClass() {
    client.resource(Make.deviceClass(DRIVER).driver(DRIVER).obj()).create();
  }

  /** A node with room for 110 pods, 8 cpus and 32Gi. */
  Node node(String name) {
    Node n =
        new NodeBuilder(Make.node(name).labels("kubernetes.io/hostname", name).obj())
            .withNewStatus()
            .withAllocatable(
                Map.of(
                    "cpu", new Quantity("8"),
                    "memory", new Quantity("32Gi"),
                    "pods", new Quantity("110")))
            .withCapacity(
                Map.of(
                    "cpu", new Quantity("8"),
                    "memory", new Quantity("32Gi"),
                    "pods", new Quantity("110")))
            .endStatus()
            .build();
    return client.resource(n).create();
  }

  /** The slice dra-example-driver's GPU profile publishes for a node: gpu-0 .. gpu-(n-1). */
  ResourceSlice gpuSlice(String node, int gpus) {
    List<Device> devices = new ArrayList<>();
    for (int i = 0; i < gpus; i++) {
      devices.add(
          Make.device("gpu-" + i)
              .attr("index", (long) i)
              .attr("uuid", "gpu-" + node + "-" + i)
              .attr("model", "LATEST-GPU-MODEL")
              .version("driverVersion", "1.0.0")
              .capacity("memory", "80Gi")
              .obj());
    }
    ResourceSlice s =
        Make.slice(node + "-" + DRIVER, node, DRIVER)
            .pool(node, 1, 1)
            .devices(devices.toArray(Device[]::new))
            .obj();
    return client.resource(s).create();
  }

  /** Objects of an upstream example manifest, created in order (namespaces first). */
  List<HasMetadata> apply(String example) {
    try (InputStream in = new FileInputStream(EXAMPLES.resolve(example).toFile())) {
      List<HasMetadata> out = new ArrayList<>();
      for (HasMetadata o : client.load(in).items()) {
        out.add(client.resource(o).create());
      }
      return out;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * What the ResourceClaim controller does for a pod: one claim per template entry, owned by the
   * pod, recorded in {@code status.resourceClaimStatuses}.
   */
  void generateClaims(String ns, String podName) {
    Pod pod = client.pods().inNamespace(ns).withName(podName).get();
    List<PodResourceClaimStatus> statuses = new ArrayList<>();
    for (PodResourceClaim pc : pod.getSpec().getResourceClaims()) {
      if (pc.getResourceClaimTemplateName() == null) {
        continue;
      }
      ResourceClaimTemplate t =
          client
              .resources(ResourceClaimTemplate.class)
              .inNamespace(ns)
              .withName(pc.getResourceClaimTemplateName())
              .get();
      ResourceClaim c =
          new ResourceClaimBuilder()
              .withNewMetadata()
              .withGenerateName(ResourceClaims.generateName(podName, pc.getName()))
              .withNamespace(ns)
              .addToAnnotations(ResourceClaims.POD_CLAIM_NAME_ANNOTATION, pc.getName())
              .addNewOwnerReference()
              .withApiVersion("v1")
              .withKind("Pod")
              .withName(podName)
              .withUid(pod.getMetadata().getUid())
              .withController(true)
              .withBlockOwnerDeletion(true)
              .endOwnerReference()
              .endMetadata()
              .withSpec(t.getSpec().getSpec())
              .build();
      ResourceClaim created = client.resource(c).create();
      statuses.add(new PodResourceClaimStatus(pc.getName(), created.getMetadata().getName()));
    }
    if (!statuses.isEmpty()) {
      Pod updated =
          new PodBuilder(pod)
              .editOrNewStatus()
              .withResourceClaimStatuses(statuses)
              .endStatus()
              .build();
      client.pods().inNamespace(ns).resource(updated).updateStatus();
    }
  }

  Pod awaitBound(String ns, String name) {
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> Scheduler.isBound(client.pods().inNamespace(ns).withName(name).get()));
    return client.pods().inNamespace(ns).withName(name).get();
  }

  ResourceClaim claimOf(Pod pod, String podClaimName) {
    String ns = pod.getMetadata().getNamespace();
    for (PodResourceClaim pc : pod.getSpec().getResourceClaims()) {
      if (pc.getName().equals(podClaimName)) {
        String name = pc.getResourceClaimName();
        if (name == null) {
          for (PodResourceClaimStatus s : pod.getStatus().getResourceClaimStatuses()) {
            if (s.getName().equals(podClaimName)) {
              name = s.getResourceClaimName();
            }
          }
        }
        return client.resources(ResourceClaim.class).inNamespace(ns).withName(name).get();
      }
    }
    throw new IllegalArgumentException("no pod claim " + podClaimName);
  }

  static List<String> devices(ResourceClaim c) {
    if (c.getStatus() == null || c.getStatus().getAllocation() == null) {
      return List.of();
    }
    return c.getStatus().getAllocation().getDevices().getResults().stream()
        .map(r -> r.getPool() + "/" + r.getDevice())
        .toList();
  }

  @Override
  public void close() {
    stopScheduler();
    if (controllers != null) {
      try {
        controllers.stop();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    ctx.cancel();
    server.close();
  }
}
