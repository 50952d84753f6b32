package io.jdra.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The four device-taints-tolerations demos on one {@code jdra up --feature-gates
 * DRADeviceTaintRules=true} (the kind cluster of the demos enables that gate; DRADeviceTaints is on
 * by default in 1.36), step by step as their READMEs run them. Where a README tells more than 1.36
 * does, the test checks what 1.36 does: a NoExecute taint also keeps new pods from being allocated
 * the device (the allocator skips devices with an untolerated NoSchedule or NoExecute taint), so a
 * pod created after the rule stays Pending instead of being "scheduled then evicted".
 */
class DeviceTaintDemosE2ETest {
  static final String NS = "basic-resourceclaimtemplate";
  static final ResourceDefinitionContext RULES =
      new ResourceDefinitionContext.Builder()
          .withGroup("resource.k8s.io")
          .withVersion("v1beta2")
          .withKind("DeviceTaintRule")
          .withPlural("devicetaintrules")
          .withNamespaced(false)
          .build();

  @TempDir static Path dir;
  static Path demos;
  static JdraUpProcess up;

  @BeforeAll
  static void startCluster() throws Exception {
    demos = Demos.examplesOrSkip().resolve("device-taints-tolerations");
    up = JdraUpProcess.start(dir.resolve("data"), "--feature-gates=DRADeviceTaintRules=true");
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (up != null) {
      up.close();
    }
  }

  /** Each demo ends with its rule and namespace gone, so that the next one starts clean. */
  @AfterEach
  void cleanUp() throws Exception {
    up.kubectl().run("delete", "devicetaintrule", "example", "--ignore-not-found").ok();
    up.kubectl().run("delete", "namespace", NS, "--ignore-not-found", "--wait=true").ok();
    Demos.awaitNamespaceAndClaimsGone(up, NS);
  }

  /**
   * device-taint-pod-noschedule: the running pod keeps running; the next pod's manifest has no
   * apiVersion, so kubectl refuses it as on any cluster; with one added it stays Pending.
   */
  @Test
  void noScheduleKeepsRunningPodsAndBlocksNewOnes() throws Exception {
    Path d = demos.resolve("device-taint-pod-noschedule");
    apply(d.resolve("1-basic-resourceclaimtemplate.yaml"));
    apply(d.resolve("2-pod-keeps-running.yaml"));
    Demos.awaitRunning(up, NS, "pod-keeps-running");
    apply(d.resolve("3-device-taint-rule.yaml"));
    Condition c = awaitRuleCondition("OtherEffect");
    assertThat(c.getStatus()).isEqualTo("False");
    assertThat(c.getMessage()).isEqualTo("Eviction only happens for the NoExecute effect.");

    Kubectl.Result refused =
        up.kubectl().run("apply", "-f", d.resolve("4-pod-not-scheduled.yaml").toString());
    assertThat(refused.exit()).isNotZero();
    assertThat(refused.err()).contains("apiVersion");
    Path fixed = dir.resolve("4-pod-not-scheduled-with-apiversion.yaml");
    Files.writeString(
        fixed,
        "apiVersion: v1\n"
            + Files.readString(d.resolve("4-pod-not-scheduled.yaml"), StandardCharsets.UTF_8));
    apply(fixed);
    PodCondition scheduled = awaitUnschedulable("pod-no-schedule");
    assertThat(scheduled.getMessage()).contains("cannot allocate all claims");
    assertThat(phase("pod-keeps-running")).isEqualTo("Running");
  }

  /**
   * device-taint-pod-noexecute: the running pod is evicted (DisruptionTarget, then deleted, with
   * the DeviceTaintManagerEviction event), the rule reports it, and a new pod stays Pending.
   */
  @Test
  void noExecuteEvictsRunningPods() throws Exception {
    Path d = demos.resolve("device-taint-pod-noexecute");
    apply(d.resolve("1-basic-resourceclaimtemplate.yaml"));
    apply(d.resolve("2-pod-to-be-evicted.yaml"));
    Demos.awaitRunning(up, NS, "pod-to-be-evicted");
    apply(d.resolve("3-device-taint-rule.yaml"));
    Demos.awaitPodGone(up, NS, "pod-to-be-evicted");
    Condition c = awaitRuleCondition("Completed");
    assertThat(c.getMessage()).isEqualTo("1 pod evicted since starting the controller.");
    Kubectl.Result events = up.kubectl().run("get", "events", "-n", NS).ok();
    assertThat(events.out())
        .contains("DeviceTaintManagerEviction")
        .contains("pod/pod-to-be-evicted")
        .contains("Marking for deletion");

    apply(d.resolve("4-pod-no-execute.yaml"));
    awaitUnschedulable("pod-no-execute");
  }

  /** device-taint-pod-toleration: only the pod whose claim tolerates the taint gets a GPU. */
  @Test
  void tolerationLetsOnlyTheToleratingPodRun() throws Exception {
    Path d = demos.resolve("device-taint-pod-toleration");
    apply(d.resolve("1-device-taint-rule.yaml"));
    apply(d.resolve("2-basic-resourceclaimtemplate.yaml"));
    Demos.awaitRunning(up, NS, "pod-with-toleration");
    awaitUnschedulable("pod-without-toleration");
  }

  /**
   * device-taint-configurable-pod-eviction-time: the pod without a toleration is evicted at once,
   * the others keep running. The 300 s delay is then checked on a copy with 5 s.
   */
  @Test
  void tolerationSecondsDelaysEviction() throws Exception {
    Path d = demos.resolve("device-taint-configurable-pod-eviction-time");
    Path pods = d.resolve("1-basic-resourceclaimtemplate.yaml");
    apply(pods);
    List<String> all =
        List.of("pod-no-toleration", "pod-with-toleration", "pod-with-300s-toleration");
    Demos.awaitRunning(up, NS, all.toArray(String[]::new));
    apply(d.resolve("2-device-taint-rule.yaml"));
    Demos.awaitPodGone(up, NS, "pod-no-toleration");
    assertThat(phase("pod-with-toleration")).isEqualTo("Running");
    assertThat(phase("pod-with-300s-toleration")).isEqualTo("Running");

    cleanUp();
    Path shortened = dir.resolve("1-basic-resourceclaimtemplate-5s.yaml");
    Files.writeString(
        shortened,
        Files.readString(pods, StandardCharsets.UTF_8)
            .replace("tolerationSeconds: 300", "tolerationSeconds: 5"));
    apply(shortened);
    Demos.awaitRunning(up, NS, all.toArray(String[]::new));
    long tainted = System.nanoTime();
    apply(d.resolve("2-device-taint-rule.yaml"));
    Demos.awaitPodGone(up, NS, "pod-with-300s-toleration");
    assertThat(Duration.ofNanos(System.nanoTime() - tainted)).isGreaterThan(Duration.ofSeconds(4));
    assertThat(phase("pod-with-toleration")).isEqualTo("Running");
  }

  private static void apply(Path manifest) throws Exception {
    up.kubectl().run("apply", "-f", manifest.toString()).ok();
  }

  private static String phase(String pod) throws Exception {
    Pod p = up.client().pods().inNamespace(NS).withName(pod).get();
    return p == null ? "<gone>" : p.getStatus().getPhase();
  }

  private static PodCondition awaitUnschedulable(String pod) {
    return await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              Pod p = up.client().pods().inNamespace(NS).withName(pod).get();
              if (p == null || p.getStatus() == null || p.getStatus().getConditions() == null) {
                return null;
              }
              return p.getStatus().getConditions().stream()
                  .filter(c -> c.getType().equals("PodScheduled"))
                  .filter(c -> c.getStatus().equals("False"))
                  .filter(c -> "Unschedulable".equals(c.getReason()))
                  .findFirst()
                  .orElse(null);
            },
            c -> c != null);
  }

  @SuppressWarnings("unchecked")
  private static Condition awaitRuleCondition(String reason) {
    return await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              GenericKubernetesResource rule =
                  up.client().genericKubernetesResources(RULES).withName("example").get();
              Object status = rule == null ? null : rule.getAdditionalProperties().get("status");
              if (!(status instanceof Map<?, ?> s) || !(s.get("conditions") instanceof List<?> l)) {
                return null;
              }
              for (Object o : l) {
                Map<String, Object> m = (Map<String, Object>) o;
                if ("EvictionInProgress".equals(m.get("type")) && reason.equals(m.get("reason"))) {
                  Condition c = new Condition();
                  c.setStatus((String) m.get("status"));
                  c.setReason(reason);
                  c.setMessage((String) m.get("message"));
                  return c;
                }
              }
              return null;
            },
            c -> c != null);
  }
}
