package io.jdra.controllers.devicetainteviction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import io.jdra.controllers.devicetainteviction.DeviceTaintEvictionController.Options;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.record.FakeEventRecorder;
import io.jdra.testing.apiserver.TestApiServer;
import io.jdra.testing.objects.Make;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The controller on the embedded API server with upstream's device-taint demo manifests. There is
 * no scheduler yet, so the test plays it: pods are created bound to {@code node-1}, and each gets a
 * claim from its template, allocated to a GPU of a ResourceSlice with the template's tolerations
 * copied into the allocation (as the scheduler does) and reserved for the pod.
 */
class DemoManifestsTest {
  static final String NS = "basic-resourceclaimtemplate";
  static final String DRIVER = "gpu.example.com";
  static final String NODE = "node-1";

  TestApiServer server;
  KubernetesClient client;
  Ctx ctx;
  Thread runner;
  InformerFactory informers;
  final FakeEventRecorder recorder = EventRecorder.fake();
  final AtomicInteger nextGpu = new AtomicInteger();

  @BeforeEach
  void start() {
    server = TestApiServer.start();
    client = server.client();
    client
        .resource(
            Make.slice("node-1-gpus", NODE, DRIVER)
                .devices(gpus(8).toArray(io.fabric8.kubernetes.api.model.resource.v1.Device[]::new))
                .obj())
        .create();
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (ctx != null) {
      ctx.cancel();
      runner.join(10_000);
      informers.stop();
    }
    server.close();
  }

  static List<io.fabric8.kubernetes.api.model.resource.v1.Device> gpus(int n) {
    List<io.fabric8.kubernetes.api.model.resource.v1.Device> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(Make.device("gpu-" + i).obj());
    }
    return out;
  }

  void startController() {
    informers = new InformerFactory(server.newClient());
    DeviceTaintEvictionController c =
        DeviceTaintEvictionController.create(
            informers,
            FeatureGates.defaults().with(Feature.DRA_DEVICE_TAINT_RULES, true),
            Options.defaults(),
            Clock.system(),
            new PrometheusRegistry(),
            null);
    ctx = Ctx.background("test").withCancel();
    informers.start(ctx);
    runner =
        Thread.ofPlatform()
            .start(() -> {
              try {
                c.run(ctx, recorder);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
  }

  static Path demo(String example) {
    for (Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        p != null;
        p = p.getParent()) {
      Path c =
          p.resolve(
                  "../shared/upstream-dra/examples/dra-example-driver/demo/examples/"
                      + "device-taints-tolerations/"
                      + example)
              .normalize();
      if (Files.isDirectory(c)) {
        return c;
      }
    }
    Assumptions.abort("upstream demo manifests (../shared/upstream-dra/examples) not found");
    return null;
  }

  List<HasMetadata> load(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return client.load(in).items();
    }
  }

  /** Creates the manifest's objects; pods bound to the node and given an allocated claim. */
  void apply(Path file) throws IOException {
    for (HasMetadata obj : load(file)) {
      if (obj instanceof Pod pod) {
        runPod(pod);
      } else if (obj instanceof DeviceTaintRule rule) {
        client.resource(rule).create();
      } else {
        client.resource(obj).create();
      }
    }
  }

  void runPod(Pod manifest) {
    Pod pod =
        client
            .resource(new PodBuilder(manifest).editSpec().withNodeName(NODE).endSpec().build())
            .create();
    String templateName = pod.getSpec().getResourceClaims().get(0).getResourceClaimTemplateName();
    ResourceClaimTemplate template =
        client.resources(ResourceClaimTemplate.class).inNamespace(NS).withName(templateName).get();
    ResourceClaim claim =
        client
            .resource(
                new ResourceClaimBuilder()
                    .withNewMetadata()
                    .withNamespace(NS)
                    .withName(pod.getMetadata().getName() + "-gpu")
                    .addNewOwnerReference()
                    .withApiVersion("v1")
                    .withKind("Pod")
                    .withName(pod.getMetadata().getName())
                    .withUid(pod.getMetadata().getUid())
                    .withController(true)
                    .withBlockOwnerDeletion(true)
                    .endOwnerReference()
                    .endMetadata()
                    .withSpec(template.getSpec().getSpec())
                    .build())
            .create();
    DeviceRequest request = claim.getSpec().getDevices().getRequests().get(0);
    claim =
        new ResourceClaimBuilder(claim)
            .withNewStatus()
            .withNewAllocation()
            .withNewDevices()
            .addToResults(
                new DeviceRequestAllocationResultBuilder()
                    .withRequest(request.getName())
                    .withDriver(DRIVER)
                    .withPool(NODE)
                    .withDevice("gpu-" + nextGpu.getAndIncrement())
                    .withTolerations(request.getExactly().getTolerations())
                    .build())
            .endDevices()
            .endAllocation()
            .addNewReservedFor()
            .withResource("pods")
            .withName(pod.getMetadata().getName())
            .withUid(pod.getMetadata().getUid())
            .endReservedFor()
            .endStatus()
            .build();
    client.resource(claim).updateStatus();
    client
        .resource(
            new PodBuilder(pod)
                .editOrNewStatus()
                .addNewResourceClaimStatus()
                .withName("gpu")
                .withResourceClaimName(claim.getMetadata().getName())
                .endResourceClaimStatus()
                .endStatus()
                .build())
        .updateStatus();
  }

  /** Events as "namespace/name note", after checking what every event says besides. */
  List<String> events() {
    List<String> out = new ArrayList<>();
    for (var e : recorder.events()) {
      assertThat(e.type()).isEqualTo("Normal");
      assertThat(e.reason()).isEqualTo("DeviceTaintManagerEviction");
      out.add(e.regarding() + " " + e.note());
    }
    return out;
  }

  boolean gone(String name) {
    Pod p = client.pods().inNamespace(NS).withName(name).get();
    return p == null || p.getMetadata().getDeletionTimestamp() != null;
  }

  String ruleCondition() {
    DeviceTaintRule r = client.resources(DeviceTaintRule.class).withName("example").get();
    var c = r == null ? null : RuleConditions.existing(r);
    return c == null ? null : c.getStatus() + " " + c.getReason() + " " + c.getMessage();
  }

  @Test
  void noExecuteEvictsRunningAndNewPods() throws IOException {
    Path dir = demo("device-taint-pod-noexecute");
    startController();
    apply(dir.resolve("1-basic-resourceclaimtemplate.yaml"));
    apply(dir.resolve("2-pod-to-be-evicted.yaml"));
    apply(dir.resolve("3-device-taint-rule.yaml"));
    await().atMost(Duration.ofSeconds(20)).until(() -> gone("pod-to-be-evicted"));
    apply(dir.resolve("4-pod-no-execute.yaml"));
    await().atMost(Duration.ofSeconds(20)).until(() -> gone("pod-no-execute"));
    assertThat(events())
        .contains(
            NS + "/pod-to-be-evicted Marking for deletion",
            NS + "/pod-no-execute Marking for deletion");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() ->
            "False Completed 2 pods evicted since starting the controller."
                .equals(ruleCondition()));
    kubectlWaitForEvictionDone();
  }

  /** What an admin runs to wait for the eviction: it must see the condition False. */
  void kubectlWaitForEvictionDone() throws IOException {
    Path kubectl = Path.of("/usr/bin/kubectl");
    Assumptions.assumeTrue(Files.isExecutable(kubectl), "kubectl not installed");
    Process p =
        new ProcessBuilder(
                kubectl.toString(),
                "--server",
                server.server().url().toString(),
                "wait",
                "--for=condition=EvictionInProgress=false",
                "devicetaintrule/example",
                "--timeout=60s")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      assertThat(p.waitFor()).as(out).isZero();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    assertThat(out).contains("devicetaintrule.resource.k8s.io/example condition met");
  }

  @Test
  void toleratingPodStays() throws IOException {
    Path dir = demo("device-taint-pod-toleration");
    startController();
    apply(dir.resolve("1-device-taint-rule.yaml"));
    apply(dir.resolve("2-basic-resourceclaimtemplate.yaml"));
    await().atMost(Duration.ofSeconds(20)).until(() -> gone("pod-without-toleration"));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() ->
            "False Completed 1 pod evicted since starting the controller.".equals(ruleCondition()));
    assertThat(gone("pod-with-toleration")).isFalse();
    assertThat(events()).containsExactly(NS + "/pod-without-toleration Marking for deletion");
  }

  @Test
  void noScheduleEvictsNothing() throws IOException {
    Path dir = demo("device-taint-pod-noschedule");
    startController();
    apply(dir.resolve("1-basic-resourceclaimtemplate.yaml"));
    apply(dir.resolve("2-pod-keeps-running.yaml"));
    apply(dir.resolve("3-device-taint-rule.yaml"));
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() ->
            "False OtherEffect Eviction only happens for the NoExecute effect."
                .equals(ruleCondition()));
    assertThat(gone("pod-keeps-running")).isFalse();
    assertThat(events()).isEmpty();
  }

  /**
   * Upstream's configurable-eviction-time example: the rule's taint is dated 290 s back, so the pod
   * tolerating it for 300 s must go about 10 s later, and never before (a deletion seen at time t
   * happened before t, so t must be past the deadline).
   */
  @Test
  void tolerationSecondsAreHonoured() throws IOException {
    Path dir = demo("device-taint-configurable-pod-eviction-time");
    startController();
    apply(dir.resolve("1-basic-resourceclaimtemplate.yaml"));
    Instant added = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(290);
    Instant deadline = added.plusSeconds(300);
    DeviceTaintRule rule = (DeviceTaintRule) load(dir.resolve("2-device-taint-rule.yaml")).get(0);
    client
        .resource(
            new DeviceTaintRuleBuilder(rule)
                .editSpec()
                .editTaint()
                .withTimeAdded(added.toString())
                .endTaint()
                .endSpec()
                .build())
        .create();
    await().atMost(Duration.ofSeconds(20)).until(() -> gone("pod-no-toleration"));
    await()
        .atMost(Duration.ofSeconds(40))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> gone("pod-with-300s-toleration"));
    assertThat(Instant.now()).as("deletion seen after the deadline").isAfterOrEqualTo(deadline);
    assertThat(gone("pod-with-toleration")).isFalse();
    assertThat(events())
        .containsExactlyInAnyOrder(
            NS + "/pod-no-toleration Marking for deletion",
            NS + "/pod-with-300s-toleration Marking for deletion");
  }
}
