package io.jdra.kubelet.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.kubelet.Kubelet;
import io.jdra.kubelet.KubeletOptions;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.testing.apiserver.TestApiServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Containers that end by themselves, restarts as {@code restartPolicy} says, and the kubelet's
 * container events, on a simulated node whose clock is a fake one: time passes only when the test
 * steps it (waiting is only for the API server and the node's informer).
 */
class ContainerLifecycleTest {
  @TempDir Path root;
  TestApiServer api;
  KubernetesClient client;
  KubeletServer server;
  Kubelet.Handle kubelet;
  FakeClock clock = new FakeClock();
  Ctx ctx;

  @BeforeEach
  void setUp() throws Exception {
    api = TestApiServer.start();
    client = api.client();
    server = KubeletServer.start("127.0.0.1", 0);
    ctx = Ctx.background("kubelet-it").withClock(clock).withCancel();
    kubelet = Kubelet.start(ctx, KubeletOptions.of(client, "node-1", root, server));
    kubelet.ready().get(30, TimeUnit.SECONDS);
  }

  @AfterEach
  void tearDown() throws Exception {
    kubelet.stop();
    ctx.cancel();
    server.close();
    api.close();
  }

  @Test
  void scriptThatEndsCompletesThePodWithUpstreamEvents() {
    create("hello", "Never", "echo hi");
    Pod p = until("hello", pod -> "Succeeded".equals(phase(pod)));
    ContainerStatus cs = p.getStatus().getContainerStatuses().get(0);
    assertThat(cs.getState().getTerminated().getExitCode()).isZero();
    assertThat(cs.getState().getTerminated().getReason()).isEqualTo("Completed");
    assertThat(cs.getReady()).isFalse();
    assertThat(client.pods().inNamespace("default").withName("hello").getLog()).isEqualTo("hi\n");

    await().atMost(Duration.ofSeconds(30)).until(() -> events("hello").size() >= 3);
    assertThat(events("hello"))
        .extracting(e ->
            e.getReason() + " | " + e.getMessage() + " | " + e.getInvolvedObject().getFieldPath())
        .containsExactlyInAnyOrder(
            "Pulled | Container image \"busybox\" already present on machine and can be accessed"
                + " by the pod | spec.containers{ctr}",
            "Created | Container created | spec.containers{ctr}",
            "Started | Container started | spec.containers{ctr}");
    assertThat(events("hello"))
        .allSatisfy(e -> {
          assertThat(e.getReportingComponent()).isEqualTo("kubelet");
          assertThat(e.getReportingInstance()).isEqualTo("node-1");
        });
  }

  @Test
  void sleepTakesTheKubeletsClockAndExitCodeFailsThePod() {
    create("fails", "Never", "sleep 5; exit 3");
    until("fails", pod -> "Running".equals(phase(pod)));
    clock.step(Duration.ofSeconds(5));
    Pod p = until("fails", pod -> "Failed".equals(phase(pod)));
    var t = p.getStatus().getContainerStatuses().get(0).getState().getTerminated();
    assertThat(t.getExitCode()).isEqualTo(3);
    assertThat(t.getReason()).isEqualTo("Error");
  }

  @Test
  void onFailureRestartsAfterBackOffUntilTheContainerSucceeds() {
    create("retry", "OnFailure", "exit 1");
    Pod p =
        until(
            "retry",
            pod -> {
              var cs = containerStatus(pod);
              return cs != null && cs.getState().getWaiting() != null;
            });
    ContainerStatus cs = containerStatus(p);
    assertThat(phase(p)).isEqualTo("Running");
    assertThat(cs.getState().getWaiting().getReason()).isEqualTo("CrashLoopBackOff");
    assertThat(cs.getState().getWaiting().getMessage())
        .isEqualTo(
            "back-off 10s restarting failed container=ctr pod=retry_default("
                + p.getMetadata().getUid()
                + ")");
    assertThat(cs.getLastState().getTerminated().getExitCode()).isEqualTo(1);
    assertThat(cs.getRestartCount()).isZero();

    clock.step(Duration.ofSeconds(10));
    Pod restarted = until("retry", pod -> containerStatus(pod).getRestartCount() == 1);
    assertThat(containerStatus(restarted).getState().getWaiting().getMessage())
        .startsWith("back-off 20s");
    String uid = restarted.getMetadata().getUid();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> events("retry").stream().anyMatch(e -> "BackOff".equals(e.getReason())));
    assertThat(events("retry"))
        .filteredOn(e -> "BackOff".equals(e.getReason()))
        .first()
        .satisfies(e -> {
          assertThat(e.getType()).isEqualTo("Warning");
          assertThat(e.getMessage())
              .isEqualTo(
                  "Back-off restarting failed container ctr in pod retry_default(" + uid + ")");
        });
  }

  @Test
  void demoContainerRunsUntilDeletedThenIsStoppedAndThePodRemoved() {
    create("demo", "Always", "export; trap 'exit 0' TERM; sleep 9999 & wait");
    until("demo", pod -> "Running".equals(phase(pod)));
    clock.step(Duration.ofSeconds(9998));
    assertThat(phase(client.pods().inNamespace("default").withName("demo").get()))
        .isEqualTo("Running");

    client.pods().inNamespace("default").withName("demo").delete();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> client.pods().inNamespace("default").withName("demo").get() == null);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> events("demo").stream().anyMatch(e -> "Killing".equals(e.getReason())));
    assertThat(events("demo"))
        .filteredOn(e -> "Killing".equals(e.getReason()))
        .singleElement()
        .satisfies(e -> assertThat(e.getMessage()).isEqualTo("Stopping container ctr"));
  }

  void create(String name, String restartPolicy, String script) {
    client
        .pods()
        .inNamespace("default")
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withNodeName("node-1")
                .withRestartPolicy(restartPolicy)
                .addNewContainer()
                .withName("ctr")
                .withImage("busybox")
                .withCommand("sh", "-c", script)
                .endContainer()
                .endSpec()
                .build())
        .create();
  }

  Pod until(String name, Predicate<Pod> done) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> {
          Pod p = client.pods().inNamespace("default").withName(name).get();
          return p != null && done.test(p);
        });
    return client.pods().inNamespace("default").withName(name).get();
  }

  static String phase(Pod p) {
    return p == null || p.getStatus() == null ? null : p.getStatus().getPhase();
  }

  static ContainerStatus containerStatus(Pod p) {
    var list = p.getStatus() == null ? null : p.getStatus().getContainerStatuses();
    return list == null || list.isEmpty() ? null : list.get(0);
  }

  List<Event> events(String pod) {
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> pod.equals(e.getInvolvedObject().getName()))
        .toList();
  }
}
